import assert from "node:assert/strict";
import fc from "fast-check";
import * as ibantools from "ibantools";
import {
  checkIbanCountryFormat,
  formatIbanPrint,
  hasValidNationalCheckDigits,
  type IbanCountryFormat,
  NATIONAL_CHECK_COUNTRIES,
  normalizeIban,
  parseBbanStructure,
  validateIban,
} from "../../src/domain/iban.ts";
import {
  type IbanRegistryEntry,
  parseTabSeparated,
  toIbanCountryFormat,
} from "../../src/domain/iban_registry.ts";

const SEED_PATH = "db/seed/iban_registry_r102.json";
const REGISTRY_PATH = "db/reference/swift_iban_registry_202606.r102.txt";

const entries: IbanRegistryEntry[] = JSON.parse(Deno.readTextFileSync(SEED_PATH));
const formats: ReadonlyMap<string, IbanCountryFormat> = new Map(
  entries.map((e) => [e.countryCode, toIbanCountryFormat(e)]),
);
const entryOf = (cc: string) => entries.find((e) => e.countryCode === cc) as IbanRegistryEntry;

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";
const ALPHANUMERICS = LETTERS + DIGITS;

/** Independent of our module: ISO 13616 check digits with big integers. */
function composeIban(countryCode: string, bban: string): string {
  const numeric = [...(bban + countryCode + "00")].map((c) => parseInt(c, 36).toString()).join("");
  const check = 98n - (BigInt(numeric) % 97n);
  return countryCode + check.toString().padStart(2, "0") + bban;
}

function errorOf(iban: string): string | null {
  return validateIban(iban, formats).details.error;
}

/** Expanded per-position classes of a registry structure, e.g. "aaaannnnnn". */
function classesOf(structure: string): string {
  const parsed = parseBbanStructure(structure);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value.segments.map((s) => s.charClass.repeat(s.length)).join("");
}

/** ibantools' BBAN regexp as per-position classes, or null when it is not a plain sequence. */
function ibantoolsClassesOf(regexp: string): string | null {
  const body = regexp.replace(/^\^/, "").replace(/\$$/, "");
  const parts = [...body.matchAll(/\[(A-Z|0-9|A-Z0-9|0-9A-Z)\]\{(\d+)\}/g)];
  if (parts.map((m) => m[0]).join("") !== body) return null;
  return parts.map((m) => (m[1] === "A-Z" ? "a" : m[1] === "0-9" ? "n" : "c").repeat(Number(m[2])))
    .join("");
}

function ibantoolsSpec(cc: string) {
  return ibantools.countrySpecs[cc];
}

/** Whether ibantools' length and per-position character classes equal release 102's. */
function ibantoolsAgreesOnFormat(entry: IbanRegistryEntry): boolean {
  const spec = ibantoolsSpec(entry.countryCode);
  return spec !== undefined && spec.chars === entry.ibanLength &&
    typeof spec.bban_regexp === "string" &&
    ibantoolsClassesOf(spec.bban_regexp) === classesOf(entry.bbanStructure);
}

/**
 * Positions of each country's national check characters within the BBAN (release 102
 * layouts), so generated BBANs can be completed with valid national check digits.
 */
const NATIONAL_CHECK_POSITIONS: Readonly<Record<string, readonly number[]>> = {
  BA: [14, 15],
  BE: [10, 11],
  CZ: [9, 19],
  EE: [15],
  ES: [8, 9],
  FI: [13],
  FR: [21, 22],
  HR: [6, 16],
  HU: [7, 23],
  IT: [0],
  MC: [21, 22],
  ME: [16, 17],
  MK: [13, 14],
  NO: [10],
  PL: [7],
  PT: [19, 20],
  RS: [16, 17],
  SI: [13, 14],
  SK: [9, 19],
  SM: [0],
  TN: [18, 19],
};

/** Tries every value of the national check characters; null when none completes the BBAN. */
function withNationalCheckDigits(cc: string, bban: string): string | null {
  const positions = NATIONAL_CHECK_POSITIONS[cc];
  if (positions === undefined) return bban;
  const alphabet = cc === "IT" || cc === "SM" ? LETTERS : DIGITS;
  const combinations = alphabet.length ** positions.length;
  const chars = [...bban];
  for (let n = 0; n < combinations; n++) {
    let rest = n;
    for (const p of positions) {
      chars[p] = alphabet[rest % alphabet.length];
      rest = Math.floor(rest / alphabet.length);
    }
    const candidate = chars.join("");
    if (hasValidNationalCheckDigits(cc, candidate) === true) return candidate;
  }
  return null;
}

function bbanArbitrary(entry: IbanRegistryEntry, digitsOnlyInC = false): fc.Arbitrary<string> {
  const classes = classesOf(entry.bbanStructure);
  return fc.array(fc.nat({ max: 35 }), { minLength: classes.length, maxLength: classes.length })
    .map((values) =>
      values.map((v, i) => {
        const cls = classes[i];
        if (cls === "n" || (cls === "c" && digitsOnlyInC)) return DIGITS[v % 10];
        if (cls === "a") return LETTERS[v % 26];
        return ALPHANUMERICS[v];
      }).join("")
    )
    .map((bban) => withNationalCheckDigits(entry.countryCode, bban))
    .filter((bban): bban is string => bban !== null);
}

function isLetter(c: string): boolean {
  return c >= "A" && c <= "Z";
}

/**
 * MOD 97-10 catches every single substitution and adjacent transposition among digits and
 * among letters. A letter-for-digit change (or swap) inside a "c" segment changes the length
 * of the decimal expansion, which MOD 97 catches only with probability 96/97 - so those
 * mutants are exempt from "rejected by both" (see the test that exhibits one).
 */
function mutants(iban: string, bbanClasses: string): { mutant: string; exempt: boolean }[] {
  const out: { mutant: string; exempt: boolean }[] = [];
  const matchesClasses = (s: string) =>
    [...bbanClasses].every((cls, i) => {
      const c = s[4 + i];
      return cls === "n" ? !isLetter(c) : cls === "a" ? isLetter(c) : true;
    });
  const crossType = (a: string, b: string) => isLetter(a) !== isLetter(b);
  for (let i = 0; i < iban.length; i++) {
    for (const c of ALPHANUMERICS) {
      if (c === iban[i]) continue;
      const mutant = iban.slice(0, i) + c + iban.slice(i + 1);
      out.push({ mutant, exempt: i >= 4 && crossType(c, iban[i]) && matchesClasses(mutant) });
    }
  }
  for (let i = 0; i + 1 < iban.length; i++) {
    if (iban[i] === iban[i + 1]) continue;
    const mutant = iban.slice(0, i) + iban[i + 1] + iban[i] + iban.slice(i + 2);
    out.push({
      mutant,
      exempt: i >= 4 && crossType(iban[i], iban[i + 1]) && matchesClasses(mutant),
    });
  }
  return out;
}

/** Replaces BBAN characters and recomputes the IBAN check digits, so only the BBAN is wrong. */
function alterBban(iban: string, changes: Record<number, string>): string {
  const bban = [...iban.slice(4)];
  for (const [position, c] of Object.entries(changes)) bban[Number(position)] = c;
  return composeIban(iban.slice(0, 2), bban.join(""));
}

// ---------------------------------------------------------------------------------------
// Normalisation and print format

Deno.test("normalizeIban() strips white space, a leading IBAN word and lower case", () => {
  const electronic = "GB29NWBK60161331926819";
  for (
    const input of [
      "GB29NWBK60161331926819",
      "GB29 NWBK 6016 1331 9268 19",
      "  GB29 NWBK 6016 1331 9268 19\n",
      "gb29 nwbk 6016 1331 9268 19",
      "GB29\tNWBK\t6016 1331 9268 19",
      "GB29\u00a0NWBK\u00a06016\u00a01331\u00a09268\u00a019",
      "IBAN GB29 NWBK 6016 1331 9268 19",
      "IBAN: GB29 NWBK 6016 1331 9268 19",
      "iban:GB29NWBK60161331926819",
      "Iban GB29NWBK60161331926819",
      "IBANGB29NWBK60161331926819",
      " \t IBAN : gb29nwbk60161331926819 ",
    ]
  ) {
    assert.equal(normalizeIban(input), electronic, JSON.stringify(input));
  }
  assert.equal(normalizeIban(""), "");
  assert.equal(normalizeIban("  IBAN  "), "");
});

Deno.test("formatIbanPrint() writes groups of four", () => {
  assert.equal(formatIbanPrint("GB29NWBK60161331926819"), "GB29 NWBK 6016 1331 9268 19");
  assert.equal(formatIbanPrint("NO9386011117947"), "NO93 8601 1117 947");
  assert.equal(formatIbanPrint(" iban be68 5390 0754 7034"), "BE68 5390 0754 7034");
  assert.equal(formatIbanPrint(""), "");
});

Deno.test("validateIban() accepts pasted print format and reports all parts", () => {
  assert.deepEqual(validateIban("  iban: gb29 nwbk 6016 1331 9268 19 ", formats), {
    valid: true,
    details: {
      countryCode: "GB",
      checkDigits: "29",
      bankCode: "NWBK",
      branchCode: "601613",
      accountNumber: "31926819",
      electronic: "GB29NWBK60161331926819",
      print: "GB29 NWBK 6016 1331 9268 19",
      error: null,
    },
  });
});

Deno.test("validateIban() names a character other than A-Z and 0-9 and its position before the length", () => {
  const only = ": an IBAN holds only letters A-Z and digits 0-9";
  const cases: [string, string][] = [
    ["FR76/1213/5003/0008/0013/0194/760", `invalid character "/" (U+002F) at position 5${only}`],
    ["FR76-3000-6000-0112-3456-7890-189", `invalid character "-" (U+002D) at position 5${only}`],
    // Invisible characters: a soft hyphen, a zero-width joiner, a word joiner.
    ["DE89 3704 0044\u00ad0532 0130 00", `invalid character "\u00ad" (U+00AD) at position 13${only}`],
    ["DE89370400440532\u200d013000", `invalid character "\u200d" (U+200D) at position 17${only}`],
    ["\u2060DE89370400440532013000", `invalid character "\u2060" (U+2060) at position 1${only}`],
    [
      "GB29 NWBK 6016 1331 9268 19 \u{1F600}",
      `invalid character "\u{1F600}" (U+1F600) at position 23${only}`,
    ],
    ["IBAN: GB29.NWBK", `invalid character "." (U+002E) at position 5${only}`],
  ];
  for (const [iban, message] of cases) {
    const result = validateIban(iban, formats);
    assert.equal(result.valid, false, iban);
    assert.equal(result.details.error, message, JSON.stringify(iban));
  }
  // The documented normalisation still applies first: white space (zero-width space included),
  // the IBAN word and lower case.
  assert.equal(errorOf("iban: gb29 nwbk\u200b6016 1331 9268 19"), null);
});

Deno.test("validateIban() upper-cases only a-z: other letters are invalid characters, never their ASCII look-alikes", () => {
  const only = ": an IBAN holds only letters A-Z and digits 0-9";
  // Each is a valid IBAN once the look-alike is read as ASCII, which toUpperCase() would do.
  const cases: [string, string, number][] = [
    ["\u017FE4550000000058398257466", "\u017F", 1], // long s: "ſ".toUpperCase() is "S"
    ["SE4550000000058398257466".slice(0, 1) + "\u0131" + "SE4550000000058398257466".slice(2), "\u0131", 2],
    ["\u0131T60X0542811101000000123456", "\u0131", 1], // dotless i: "I"
    ["\uFB012112345600000785", "\uFB01", 1], // the ligature fi: "FI"
    ["GB29NWBK60161331926819".replace("K", "\u212A"), "\u212A", 8], // Kelvin sign: lower-cases to k
    ["\u0131ban GB29NWBK60161331926819", "\u0131", 1], // not the word IBAN
  ];
  for (const [iban, character, position] of cases) {
    const result = validateIban(iban, formats);
    assert.equal(result.valid, false, JSON.stringify(iban));
    const hex = character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
    assert.equal(
      result.details.error,
      `invalid character "${character}" (U+${hex}) at position ${position}${only}`,
      JSON.stringify(iban),
    );
  }
  assert.equal(normalizeIban("\u017Fe45 5000"), "\u017FE455000");
  assert.equal(errorOf("SE4550000000058398257466"), null, "the ASCII spelling is valid");
  assert.equal(errorOf("se45 5000 0000 0583 9825 7466"), null, "and so is its lower case");
});

// ---------------------------------------------------------------------------------------
// BBAN structure notation

Deno.test("parseBbanStructure() parses fixed and variable segments of the SWIFT notation", () => {
  assert.deepEqual(parseBbanStructure("4!a6!n8!n"), {
    ok: true,
    value: {
      segments: [
        { length: 4, charClass: "a", fixed: true },
        { length: 6, charClass: "n", fixed: true },
        { length: 8, charClass: "n", fixed: true },
      ],
      totalLength: 18,
    },
  });
  assert.deepEqual(parseBbanStructure("12c"), {
    ok: true,
    value: { segments: [{ length: 12, charClass: "c", fixed: false }], totalLength: 12 },
  });
});

Deno.test("parseBbanStructure() rejects unparsable notation with a precise message", () => {
  const cases: [string, string][] = [
    ["", "BBAN structure is empty"],
    ["4!x", 'BBAN structure "4!x" has unknown character class "x" at position 3 (expected n, a or c)'],
    [
      "4!a6!e",
      'BBAN structure "4!a6!e" uses class e (blank space) at position 6, which an IBAN cannot contain',
    ],
    ["!n", 'BBAN structure "!n" has "!" at position 1 where a length was expected'],
    ["4!a 6!n", 'BBAN structure "4!a 6!n" has " " at position 4 where a length was expected'],
    ["0!n", 'BBAN structure "0!n" has a zero-length segment at position 1'],
    ["4!", 'BBAN structure "4!" ends without a character class (n, a or c)'],
    ["GB2!n4!a", 'BBAN structure "GB2!n4!a" has "G" at position 1 where a length was expected'],
    ["31!n", 'BBAN structure "31!n" describes 31 characters; an IBAN allows at most 30'],
  ];
  for (const [structure, message] of cases) {
    assert.deepEqual(
      parseBbanStructure(structure),
      { ok: false, error: { code: "INVALID_BBAN_STRUCTURE", message } },
      structure,
    );
  }
});

Deno.test("parseBbanStructure() parses every release 102 structure to its BBAN length", () => {
  for (const e of entries) {
    const parsed = parseBbanStructure(e.bbanStructure);
    assert.ok(parsed.ok, e.countryCode);
    assert.equal(parsed.value.totalLength, e.bbanLength, e.countryCode);
    assert.ok(parsed.value.segments.every((s) => s.fixed), e.countryCode);
  }
});

// ---------------------------------------------------------------------------------------
// Registry examples

Deno.test("every seeded example IBAN validates and yields the registry's bank code", () => {
  const table = parseTabSeparated(
    new TextDecoder("windows-1252").decode(Deno.readFileSync(REGISTRY_PATH)),
  );
  assert.ok(table.ok);
  const row = (label: string) => table.value.find((r) => r[0] === label) as string[];
  const codes = row("IBAN prefix country code (ISO 3166)");
  const bankExamples = row("Bank identifier example");
  const branchExamples = row("Branch identifier example");
  // The registry's own "Bank identifier example" row contradicts its example IBAN for these
  // three countries; the IBAN (which passes MOD 97-10) is taken as the authority.
  const inconsistentRegistryExamples: Record<string, { row: string; iban: string }> = {
    BA: { row: "199", iban: "129" },
    PL: { row: "", iban: "10901014" },
    SE: { row: "123", iban: "500" },
  };
  assert.equal(entries.length, 89);
  for (const e of entries) {
    const result = validateIban(e.exampleIban, formats);
    assert.equal(result.valid, true, `${e.countryCode}: ${result.details.error}`);
    assert.equal(validateIban(e.exampleIbanPrint, formats).valid, true, e.exampleIbanPrint);
    const column = codes.indexOf(e.countryCode);
    const expectedBank = bankExamples[column].trim();
    const inconsistent = inconsistentRegistryExamples[e.countryCode];
    if (inconsistent === undefined) {
      assert.equal(result.details.bankCode, expectedBank, e.countryCode);
    } else {
      assert.equal(expectedBank, inconsistent.row, e.countryCode);
      assert.equal(result.details.bankCode, inconsistent.iban, e.countryCode);
    }
    const expectedBranch = branchExamples[column].trim();
    if (e.branchCodeOffset !== null && e.countryCode !== "BA") {
      assert.equal(result.details.branchCode, expectedBranch, e.countryCode);
    }
    assert.equal(
      result.details.accountNumber,
      e.exampleIban.slice(4 + e.accountNumberOffset),
      e.countryCode,
    );
  }
});

// ---------------------------------------------------------------------------------------
// Invalid IBANs: the exact error for each

Deno.test("validateIban() reports the precise error for each invalid IBAN, in check order", () => {
  const gb = "GB29NWBK60161331926819";
  const cases: [string, string][] = [
    ["", "IBAN is empty"],
    ["   ", "IBAN is empty"],
    ["IBAN:", "IBAN is empty"],
    ["G", 'IBAN must start with a two-letter country code, got "G"'],
    ["1B29NWBK60161331926819", 'IBAN must start with a two-letter country code, got "1B"'],
    ["DZ580002100001113000000570", "Unknown country code DZ: DZ has no IBAN format"],
    ["AO06004400006729503010102", "Unknown country code AO: AO has no IBAN format"],
    ["IR580540105180021273113007", "Unknown country code IR: IR has no IBAN format"],
    ["US64SVBKUS6S3300958879", "Unknown country code US: US has no IBAN format"],
    ["GB29NWBK6016133192681", "expected 22 characters for GB, got 21"],
    ["GB29NWBK601613319268190", "expected 22 characters for GB, got 23"],
    ["NO938601111794", "expected 15 characters for NO, got 14"],
    ["GB", "expected 22 characters for GB, got 2"],
    ["GBX9NWBK60161331926819", 'check digits must be two digits, got "X9"'],
    ["GB00NWBK60161331926819", "check digits must be between 02 and 98, got 00"],
    ["GB01NWBK60161331926819", "check digits must be between 02 and 98, got 01"],
    ["GB99NWBK60161331926819", "check digits must be between 02 and 98, got 99"],
    [
      "GB29NW8K60161331926819",
      'BBAN character class wrong at position 7: expected a letter (A-Z), got "8"',
    ],
    [
      "GB29NWBK6016133192681X",
      'BBAN character class wrong at position 22: expected a digit (0-9), got "X"',
    ],
    [
      "GB29NWBK60161331926819".slice(0, 12) + "-" + "GB29NWBK60161331926819".slice(13),
      'invalid character "-" (U+002D) at position 13: an IBAN holds only letters A-Z and digits 0-9',
    ],
    [
      "AD1200012030200359100_00",
      'invalid character "_" (U+005F) at position 22: an IBAN holds only letters A-Z and digits 0-9',
    ],
    ["GB28NWBK60161331926819", "wrong check digits"],
    ["GB29NWBK60161331926818", "wrong check digits"],
    ["GB29NWBK61061331926819", "wrong check digits"],
    ["ES9121000418450200051333", "wrong check digits"],
    [alterBban("ES9121000418450200051332", { 8: "5" }), "national check digit wrong for ES"],
    [alterBban("BE68539007547034", { 11: "5" }), "national check digit wrong for BE"],
    [alterBban("IT60X0542811101000000123456", { 0: "Y" }), "national check digit wrong for IT"],
    [alterBban("FI2112345600000785", { 13: "6" }), "national check digit wrong for FI"],
    [alterBban("NO9386011117947", { 10: "8" }), "national check digit wrong for NO"],
    [alterBban("PL61109010140000071219812874", { 7: "5" }), "national check digit wrong for PL"],
    [alterBban("PT50000201231234567890154", { 20: "5" }), "national check digit wrong for PT"],
    [alterBban("TN5910006035183598478831", { 19: "2" }), "national check digit wrong for TN"],
    [alterBban("FR1420041010050500013M02606", { 22: "7" }), "national check digit wrong for FR"],
    [alterBban("CZ6508000000192000145399", { 19: "8" }), "national check digit wrong for CZ"],
  ];
  for (const [iban, message] of cases) {
    const result = validateIban(iban, formats);
    assert.equal(result.valid, false, iban);
    assert.equal(result.details.error, message, iban);
  }
  assert.equal(errorOf(gb), null);
});

Deno.test("validateIban() rejects wrong national check digits for every country that has them", () => {
  assert.deepEqual([...NATIONAL_CHECK_COUNTRIES], Object.keys(NATIONAL_CHECK_POSITIONS).sort());
  assert.equal(NATIONAL_CHECK_COUNTRIES.length, 21);
  for (const cc of NATIONAL_CHECK_COUNTRIES) {
    const example = entryOf(cc).exampleIban;
    const position = NATIONAL_CHECK_POSITIONS[cc][0];
    const current = example[4 + position];
    const alphabet = cc === "IT" || cc === "SM" ? LETTERS : DIGITS;
    for (const replacement of alphabet) {
      if (replacement === current) continue;
      const altered = alterBban(example, { [position]: replacement });
      assert.equal(errorOf(altered), `national check digit wrong for ${cc}`, altered);
    }
  }
});

Deno.test("validateIban() extracts the parts by the configured offsets even when invalid", () => {
  const tooShort = validateIban("GB29NWBK6016133192681", formats);
  assert.equal(tooShort.details.error, "expected 22 characters for GB, got 21");
  assert.equal(tooShort.details.bankCode, "NWBK");
  assert.equal(tooShort.details.branchCode, "601613");
  assert.equal(tooShort.details.accountNumber, null);
  assert.equal(tooShort.details.checkDigits, "29");

  const wrongCheck = validateIban("GB28NWBK60161331926819", formats);
  assert.deepEqual(wrongCheck.details, {
    countryCode: "GB",
    checkDigits: "28",
    bankCode: "NWBK",
    branchCode: "601613",
    accountNumber: "31926819",
    electronic: "GB28NWBK60161331926819",
    print: "GB28 NWBK 6016 1331 9268 19",
    error: "wrong check digits",
  });

  const unknown = validateIban("dz58 0002 1000 0111 3000 0005 70", formats);
  assert.deepEqual(unknown.details, {
    countryCode: "DZ",
    checkDigits: "58",
    bankCode: null,
    branchCode: null,
    accountNumber: null,
    electronic: "DZ580002100001113000000570",
    print: "DZ58 0002 1000 0111 3000 0005 70",
    error: "Unknown country code DZ: DZ has no IBAN format",
  });

  assert.deepEqual(validateIban("", formats).details, {
    countryCode: null,
    checkDigits: null,
    bankCode: null,
    branchCode: null,
    accountNumber: null,
    electronic: null,
    print: null,
    error: "IBAN is empty",
  });
});

// ---------------------------------------------------------------------------------------
// Formats: lookup, activity, broken configurations, changes

Deno.test("validateIban() accepts a lookup function as well as a map", () => {
  const result = validateIban("BE68539007547034", (cc) => formats.get(cc));
  assert.equal(result.valid, true);
  assert.equal(result.details.bankCode, "539");
});

Deno.test("validateIban() rejects an IBAN whose country format is inactive", () => {
  const inactive = { ...toIbanCountryFormat(entryOf("GB")), active: false };
  const result = validateIban("GB29NWBK60161331926819", new Map([["GB", inactive]]));
  assert.equal(result.details.error, "IBAN format for GB is not active");
});

Deno.test("validateIban() reports a broken country format instead of validating against it", () => {
  const gb = toIbanCountryFormat(entryOf("GB"));
  const cases: [Partial<IbanCountryFormat>, string][] = [
    [
      { bbanStructure: "4!a6!n8!x" },
      'IBAN format for GB is invalid: BBAN structure "4!a6!n8!x" has unknown character class "x" at position 9 (expected n, a or c)',
    ],
    [
      { bbanStructure: "4a6!n8!n" },
      'IBAN format for GB is invalid: BBAN structure "4a6!n8!n" must use fixed-length segments ("!"), because an IBAN has one exact length per country',
    ],
    [
      { ibanLength: 23 },
      'IBAN format for GB is invalid: IBAN length 23 does not match BBAN structure "4!a6!n8!n" (18 characters plus 4)',
    ],
    [
      { bankCodeOffset: 16 },
      "IBAN format for GB is invalid: bank code at offset 16 with length 4 does not fit the 18-character BBAN",
    ],
    [
      { checkDigitAlgorithm: "mod11" },
      'IBAN format for GB is invalid: check digit algorithm "mod11" is not supported (only mod97)',
    ],
  ];
  for (const [change, message] of cases) {
    const result = validateIban("GB29NWBK60161331926819", new Map([["GB", { ...gb, ...change }]]));
    assert.equal(result.details.error, message);
  }
});

Deno.test("validateIban() uses a changed format at once, even when the same object is edited", () => {
  const gb = toIbanCountryFormat(entryOf("GB"));
  const lookup = new Map([["GB", gb]]);
  assert.equal(validateIban("GB29NWBK60161331926819", lookup).valid, true);
  gb.bbanStructure = "4!a6!n7!n1!a";
  assert.equal(
    validateIban("GB29NWBK60161331926819", lookup).details.error,
    'BBAN character class wrong at position 22: expected a letter (A-Z), got "9"',
  );
  gb.bbanStructure = "4!a6!n8!n";
  gb.bankCodeLength = 2;
  assert.equal(validateIban("GB29NWBK60161331926819", lookup).details.bankCode, "NW");
});

Deno.test("checkIbanCountryFormat() accepts every seeded format and rejects inconsistent ones", () => {
  for (const e of entries) {
    const checked = checkIbanCountryFormat(toIbanCountryFormat(e));
    assert.equal(checked.ok, true, e.countryCode);
  }
  const gb = toIbanCountryFormat(entryOf("GB"));
  assert.deepEqual(checkIbanCountryFormat({ ...gb, exampleIban: "GB28NWBK60161331926819" }), {
    ok: false,
    error: {
      code: "INVALID_IBAN_FORMAT",
      message: "example IBAN GB28NWBK60161331926819 does not validate: wrong check digits",
    },
  });
  assert.deepEqual(checkIbanCountryFormat({ ...gb, bbanStructure: "4!a6!n9!n" }), {
    ok: false,
    error: {
      code: "INVALID_IBAN_FORMAT",
      message:
        'IBAN format for GB is invalid: IBAN length 22 does not match BBAN structure "4!a6!n9!n" (19 characters plus 4)',
    },
  });
  assert.equal(checkIbanCountryFormat({ ...gb, exampleIban: null, active: false }).ok, true);
});

Deno.test("hasValidNationalCheckDigits() answers only for known countries and layouts", () => {
  assert.equal(hasValidNationalCheckDigits("ES", "21000418450200051332"), true);
  assert.equal(hasValidNationalCheckDigits("ES", "21000418460200051332"), false);
  assert.equal(hasValidNationalCheckDigits("ES", "2100041845020005133"), null);
  assert.equal(hasValidNationalCheckDigits("GB", "NWBK60161331926819"), null);
});

// ---------------------------------------------------------------------------------------
// ibantools as oracle

const agreeing = entries.filter(ibantoolsAgreesOnFormat);
const disagreeing = entries.filter((e) => !ibantoolsAgreesOnFormat(e)).map((e) => e.countryCode);

/** Bank code positions where ibantools has one and it differs from release 102. */
const BANK_CODE_DISAGREEMENTS = ["JO", "SI"];

Deno.test("ibantools 4.5.4 and release 102 disagree on the formats of exactly BY DO GE IE PK PS TR VG", () => {
  assert.deepEqual(disagreeing, ["BY", "DO", "GE", "IE", "PK", "PS", "TR", "VG"]);
  assert.equal(agreeing.length, 81);
  for (const e of entries) {
    assert.equal(ibantoolsSpec(e.countryCode)?.chars, e.ibanLength, `${e.countryCode} length`);
  }
});

Deno.test("IBANs that ibantools composes are valid for us, and our bank code matches its extraction", () => {
  for (const entry of agreeing) {
    const cc = entry.countryCode;
    const spec = ibantoolsSpec(cc);
    fc.assert(
      fc.property(bbanArbitrary(entry, cc === "MK"), (bban) => {
        const iban = ibantools.composeIBAN({ countryCode: cc, bban });
        assert.ok(iban !== null, `${cc} ${bban}`);
        assert.equal(ibantools.isValidIBAN(iban), true, iban);
        const ours = validateIban(iban, formats);
        assert.equal(ours.valid, true, `${iban}: ${ours.details.error}`);
        const extracted = ibantools.extractIBAN(iban);
        if (spec.bank_identifier !== undefined && !BANK_CODE_DISAGREEMENTS.includes(cc)) {
          assert.equal(ours.details.bankCode, extracted.bankIdentifier, iban);
        }
      }),
      { numRuns: 25 },
    );
  }
});

Deno.test("every single-character substitution and adjacent transposition is rejected by both", () => {
  for (const entry of agreeing) {
    const cc = entry.countryCode;
    const classes = classesOf(entry.bbanStructure);
    fc.assert(
      fc.property(bbanArbitrary(entry, cc === "MK"), (bban) => {
        const iban = composeIban(cc, bban);
        assert.equal(ibantools.isValidIBAN(iban), true, iban);
        assert.equal(validateIban(iban, formats).valid, true, iban);
        for (const { mutant, exempt } of mutants(iban, classes)) {
          if (exempt) continue;
          assert.equal(validateIban(mutant, formats).valid, false, `ours accepts ${mutant}`);
          assert.equal(ibantools.isValidIBAN(mutant), false, `ibantools accepts ${mutant}`);
        }
      }),
      { numRuns: 6 },
    );
  }
});

Deno.test("a letter-for-digit change inside a c segment can slip through MOD 97-10 (for both)", () => {
  // Why such mutants are exempt above: the change alters the decimal expansion's length.
  const example = entryOf("KW").exampleIban;
  const classes = classesOf(entryOf("KW").bbanStructure);
  const slipping = mutants(example, classes).filter(({ mutant, exempt }) =>
    exempt && validateIban(mutant, formats).valid
  );
  assert.ok(slipping.length > 0);
  for (const { mutant } of slipping) assert.equal(ibantools.isValidIBAN(mutant), true, mutant);
});

// ---------------------------------------------------------------------------------------
// Where ibantools (2023 data) and release 102 disagree: the registry's answer wins

Deno.test("BY and DO: release 102 allows digits in the 4!c bank code, ibantools does not", () => {
  for (const [cc, bank] of [["BY", "NB1B"], ["DO", "BAG1"]] as const) {
    const iban = alterBban(entryOf(cc).exampleIban, { 0: bank[0], 1: bank[1], 2: bank[2], 3: bank[3] });
    const ours = validateIban(iban, formats);
    assert.equal(ours.valid, true, `${iban}: ${ours.details.error}`);
    assert.equal(ours.details.bankCode, bank);
    assert.equal(ibantools.isValidIBAN(iban), false, iban);
  }
});

Deno.test("GE, IE and VG: release 102 requires letters (!a) in the bank code, ibantools accepts digits", () => {
  const cases: [string, Record<number, string>, string][] = [
    ["GE", { 1: "1" }, 'BBAN character class wrong at position 6: expected a letter (A-Z), got "1"'],
    ["IE", { 2: "1" }, 'BBAN character class wrong at position 7: expected a letter (A-Z), got "1"'],
    ["VG", { 3: "2" }, 'BBAN character class wrong at position 8: expected a letter (A-Z), got "2"'],
  ];
  for (const [cc, change, message] of cases) {
    const iban = alterBban(entryOf(cc).exampleIban, change);
    assert.equal(errorOf(iban), message, iban);
    assert.equal(ibantools.isValidIBAN(iban), true, iban);
  }
});

Deno.test("PK and PS: release 102 has an alphanumeric account (!c) and a letter bank code (!a)", () => {
  for (const cc of ["PK", "PS"]) {
    const example = entryOf(cc).exampleIban;
    const lettersInAccount = alterBban(example, { 8: "Z", 9: "Q" });
    assert.equal(errorOf(lettersInAccount), null, lettersInAccount);
    assert.equal(ibantools.isValidIBAN(lettersInAccount), false, lettersInAccount);
    const digitInBank = alterBban(example, { 0: "9" });
    assert.equal(
      errorOf(digitInBank),
      'BBAN character class wrong at position 5: expected a letter (A-Z), got "9"',
    );
    assert.equal(ibantools.isValidIBAN(digitInBank), true, digitInBank);
  }
});

Deno.test("TR: release 102 has a digit (1!n) after the bank code, ibantools accepts a letter", () => {
  const iban = alterBban(entryOf("TR").exampleIban, { 5: "A" });
  assert.equal(errorOf(iban), 'BBAN character class wrong at position 10: expected a digit (0-9), got "A"');
  assert.equal(ibantools.isValidIBAN(iban), true, iban);
});

Deno.test("JO, SI, PL, ST: bank and branch codes follow release 102, not ibantools", () => {
  const bankAndBranch = (cc: string) => {
    const { bankCode, branchCode } = validateIban(entryOf(cc).exampleIban, formats).details;
    const { bankIdentifier, branchIdentifier } = ibantools.extractIBAN(entryOf(cc).exampleIban);
    return { ours: { bankCode, branchCode }, ibantools: { bankIdentifier, branchIdentifier } };
  };
  assert.deepEqual(bankAndBranch("JO"), {
    ours: { bankCode: "CBJO", branchCode: "0010" },
    ibantools: { bankIdentifier: "0010", branchIdentifier: "0010" },
  });
  assert.deepEqual(bankAndBranch("SI"), {
    ours: { bankCode: "26330", branchCode: null },
    ibantools: { bankIdentifier: "26", branchIdentifier: "330" },
  });
  assert.deepEqual(bankAndBranch("PL"), {
    ours: { bankCode: "10901014", branchCode: null },
    ibantools: { bankIdentifier: undefined, branchIdentifier: "10901014" },
  });
  assert.deepEqual(bankAndBranch("ST"), {
    ours: { bankCode: "0001", branchCode: "0001" },
    ibantools: { bankIdentifier: undefined, branchIdentifier: "0001" },
  });
});

Deno.test("ibantools has no bank code position for HN PL SK SM SO ST SV TL TN TR UA VA VG XK", () => {
  const missing = entries.filter((e) => ibantoolsSpec(e.countryCode).bank_identifier === undefined)
    .map((e) => e.countryCode);
  assert.deepEqual(missing, [
    "HN",
    "PL",
    "SK",
    "SM",
    "SO",
    "ST",
    "SV",
    "TL",
    "TN",
    "TR",
    "UA",
    "VA",
    "VG",
    "XK",
  ]);
  const expectedBanks: Record<string, string> = {
    SM: "03225",
    XK: "12",
    TN: "10",
    SK: "1200",
    HN: "CABF",
  };
  for (const [cc, bank] of Object.entries(expectedBanks)) {
    assert.equal(validateIban(entryOf(cc).exampleIban, formats).details.bankCode, bank, cc);
  }
});

Deno.test("FI, IT, SM and TN: we check national digits that ibantools does not", () => {
  const cases: [string, Record<number, string>][] = [
    ["FI", { 13: "6" }],
    ["IT", { 0: "Y" }],
    ["SM", { 0: "V" }],
    ["TN", { 19: "2" }],
  ];
  for (const [cc, change] of cases) {
    const iban = alterBban(entryOf(cc).exampleIban, change);
    assert.equal(errorOf(iban), `national check digit wrong for ${cc}`, iban);
    assert.equal(ibantools.isValidIBAN(iban), true, iban);
  }
});

Deno.test("CZ and SK: an account that cannot weigh to 0 mod 11 is rejected (ibantools accepts check digit 1)", () => {
  // Prefix 00030 weighs 3 x 4 = 12, i.e. 1 mod 11, before its check digit; ibantools then
  // expects 1, which makes the whole prefix weigh 2 mod 11: not a valid account prefix.
  for (const cc of ["CZ", "SK"]) {
    const iban = composeIban(cc, "0800" + "000301" + "0000000000");
    assert.equal(errorOf(iban), `national check digit wrong for ${cc}`, iban);
    assert.equal(ibantools.isValidIBAN(iban), true, iban);
  }
});

Deno.test("BA ME MK PT RS SI: national check pairs are 02..98 by ISO 7064; ibantools also takes 00, 01, 99", () => {
  // With a body whose remainder is 0, ISO 7064 gives 98; "01" also leaves the whole BBAN
  // at 1 mod 97, which is the test ibantools applies.
  for (const cc of ["BA", "ME", "MK", "PT", "RS", "SI"]) {
    const length = entryOf(cc).bbanLength;
    const body = "0".repeat(length - 2);
    assert.equal(hasValidNationalCheckDigits(cc, body + "98"), true, cc);
    const iban = composeIban(cc, body + "01");
    assert.equal(errorOf(iban), `national check digit wrong for ${cc}`, iban);
    assert.equal(ibantools.isValidIBAN(iban), true, iban);
  }
});

Deno.test("FR and MC: a RIB key of 00 is rejected (ISO 7064 keys run 01..97), ibantools accepts it", () => {
  for (const cc of ["FR", "MC"]) {
    const body = "0".repeat(21);
    assert.equal(hasValidNationalCheckDigits(cc, body + "97"), true, cc);
    const iban = composeIban(cc, body + "00");
    assert.equal(errorOf(iban), `national check digit wrong for ${cc}`, iban);
    assert.equal(ibantools.isValidIBAN(iban), true, iban);
  }
});

Deno.test("MK: letters in the 10!c account count as 10..35 (ISO 7064); ibantools rejects them", () => {
  const bban = withNationalCheckDigits("MK", "250" + "ABCDE00058" + "00") as string;
  const iban = composeIban("MK", bban);
  assert.equal(errorOf(iban), null, iban);
  assert.equal(ibantools.isValidIBAN(iban), false, iban);
});
