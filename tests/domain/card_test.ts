import assert from "node:assert/strict";
import fc from "fast-check";
import {
  CARD_NUMBER_LENGTH,
  DEFAULT_ISSUER_PREFIXES,
  generateCardNumber,
  isValidAbaRoutingNumber,
  isValidCardNumber,
  isValidLuhn,
  luhnCheckDigit,
  maskCardNumber,
  maskCardNumbersInText,
  mayHoldCardNumber,
  normalizeCardNumber,
  validateIssuerPrefix,
} from "../../src/domain/card.ts";

/** mulberry32: a small seeded PRNG, so the generated numbers are the same on every run. */
function seededRandomDigits(seed: number): (count: number) => string {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (count) => Array.from({ length: count }, () => String(Math.floor(next() * 10))).join("");
}

const GENERATED_COUNT = 10_000;

Deno.test("luhnCheckDigit() computes the check digit of known numbers", () => {
  assert.equal(luhnCheckDigit("7992739871"), "3");
  assert.equal(luhnCheckDigit("453201511283036"), "6");
  assert.equal(luhnCheckDigit("411111111111111"), "1");
  assert.equal(luhnCheckDigit("0"), "0");
});

Deno.test("luhnCheckDigit() throws on anything but digits", () => {
  for (const partial of ["", "12a4", "1234 5678", "１２"]) {
    assert.throws(() => luhnCheckDigit(partial), TypeError, JSON.stringify(partial));
  }
});

Deno.test("isValidLuhn() accepts valid numbers and rejects a changed digit or a non-digit", () => {
  for (
    const number of ["79927398713", "4532015112830366", "4111111111111111", "5555555555554444"]
  ) {
    assert.equal(isValidLuhn(number), true, number);
  }
  for (
    const number of [
      "79927398710",
      "4532015112830367",
      "4532 0151 1283 0366",
      "",
      "0",
      "45320151128303x6",
    ]
  ) {
    assert.equal(isValidLuhn(number), false, number);
  }
});

Deno.test("isValidLuhn() rejects every single-digit change of a valid number", () => {
  fc.assert(
    fc.property(
      fc.stringMatching(/^\d{15}$/),
      fc.nat({ max: 15 }),
      fc.integer({ min: 1, max: 9 }),
      (partial, position, delta) => {
        const valid = partial + luhnCheckDigit(partial);
        assert.equal(isValidLuhn(valid), true);
        const changedDigit = String((Number(valid[position]) + delta) % 10);
        const changed = valid.slice(0, position) + changedDigit + valid.slice(position + 1);
        assert.equal(isValidLuhn(changed), false);
      },
    ),
  );
});

Deno.test("isValidLuhn() rejects adjacent swaps of distinct digits other than 09 and 90", () => {
  fc.assert(
    fc.property(fc.stringMatching(/^\d{15}$/), fc.nat({ max: 14 }), (partial, position) => {
      const valid = partial + luhnCheckDigit(partial);
      const pair = valid[position] + valid[position + 1];
      fc.pre(pair[0] !== pair[1] && pair !== "09" && pair !== "90");
      const swapped = valid.slice(0, position) + pair[1] + pair[0] + valid.slice(position + 2);
      assert.equal(isValidLuhn(swapped), false);
    }),
  );
});

Deno.test("isValidCardNumber() requires 13 to 19 digits passing Luhn, not all zeros", () => {
  assert.equal(isValidCardNumber("4532015112830366"), true);
  assert.equal(isValidCardNumber("4222222222222"), true);
  assert.equal(isValidCardNumber("6011111111111117"), true);
  assert.equal(isValidCardNumber("79927398713"), false);
  assert.equal(isValidCardNumber("0000000000000000"), false);
  assert.equal(isValidCardNumber("4532015112830367"), false);
  assert.equal(isValidCardNumber("4532 0151 1283 0366"), false);
  assert.equal(isValidCardNumber(normalizeCardNumber("4532 0151-1283 0366")), true);
});

Deno.test("generateCardNumber() builds prefix, random body and check digit", () => {
  const cardNumber = generateCardNumber("453201", () => "511283036");
  assert.equal(cardNumber, "4532015112830366");
  let requested = 0;
  generateCardNumber("4", (count) => {
    requested = count;
    return "0".repeat(count);
  });
  assert.equal(requested, 14);
});

Deno.test(`generateCardNumber() yields ${GENERATED_COUNT} valid, unique 16-digit numbers per default prefix`, () => {
  for (const [brand, prefix] of Object.entries(DEFAULT_ISSUER_PREFIXES)) {
    const randomDigits = seededRandomDigits(brand.length * 7919);
    const numbers = new Set<string>();
    for (let i = 0; i < GENERATED_COUNT; i++) {
      const cardNumber = generateCardNumber(prefix, randomDigits);
      assert.equal(cardNumber.length, CARD_NUMBER_LENGTH);
      assert.ok(cardNumber.startsWith(prefix), cardNumber);
      assert.ok(isValidLuhn(cardNumber), cardNumber);
      assert.ok(isValidCardNumber(cardNumber), cardNumber);
      numbers.add(cardNumber);
    }
    assert.equal(numbers.size, GENERATED_COUNT, `${brand} numbers must be unique`);
  }
});

Deno.test("generateCardNumber() throws on a malformed prefix or a wrong random body", () => {
  const random = seededRandomDigits(1);
  for (const prefix of ["", "45a201", "4".repeat(15), " 453201"]) {
    assert.throws(() => generateCardNumber(prefix, random), RangeError, JSON.stringify(prefix));
  }
  assert.throws(() => generateCardNumber("453201", () => "12345678"), RangeError);
  assert.throws(() => generateCardNumber("453201", () => "1234567890"), RangeError);
  assert.throws(() => generateCardNumber("453201", () => "12345678x"), RangeError);
});

Deno.test("DEFAULT_ISSUER_PREFIXES start visa with 4 and pass validateIssuerPrefix()", () => {
  assert.ok(DEFAULT_ISSUER_PREFIXES.visa.startsWith("4"));
  assert.ok(validateIssuerPrefix("visa", DEFAULT_ISSUER_PREFIXES.visa).ok);
  assert.ok(validateIssuerPrefix("soln_bank", DEFAULT_ISSUER_PREFIXES.soln_bank).ok);
});

Deno.test("validateIssuerPrefix() rejects non-digits, wrong lengths and a visa prefix outside 4", () => {
  const rejected: Array<[Parameters<typeof validateIssuerPrefix>[0], string]> = [
    ["visa", "553201"],
    ["visa", "4532"],
    ["visa", "453201234"],
    ["soln_bank", "99000a"],
    ["soln_bank", ""],
  ];
  for (const [brand, prefix] of rejected) {
    const result = validateIssuerPrefix(brand, prefix);
    assert.equal(result.ok ? "" : result.error.code, "invalid_issuer_prefix", `${brand} ${prefix}`);
  }
  assert.ok(validateIssuerPrefix("soln_bank", "55320112").ok);
});

Deno.test("maskCardNumber() shows only the first six and last four of a 16-digit number", () => {
  assert.equal(maskCardNumber("4532015112830366"), "453201******0366");
  assert.equal(maskCardNumber("4532 0151 1283 0366"), "4532 01** **** 0366");
  assert.equal(maskCardNumber("4532-0151-1283-0366"), "4532-01**-****-0366");
});

Deno.test("maskCardNumber() never reveals more than half the digits of other lengths", () => {
  assert.equal(maskCardNumber("4222222222222"), "42*******2222");
  assert.equal(maskCardNumber("4532015112830366123"), "45320**********6123");
  assert.equal(maskCardNumber("12345678"), "****5678");
  assert.equal(maskCardNumber("123"), "**3");
  assert.equal(maskCardNumber("1"), "*");
  assert.equal(maskCardNumber(""), "");
  fc.assert(
    fc.property(fc.stringMatching(/^\d{0,40}$/), (digits) => {
      const masked = maskCardNumber(digits);
      assert.equal(masked.length, digits.length);
      const revealed = [...masked].filter((character) => character !== "*").length;
      const limit = digits.length === CARD_NUMBER_LENGTH ? 10 : Math.floor(digits.length / 2);
      assert.ok(revealed <= Math.min(10, limit), `${digits} -> ${masked}`);
    }),
  );
});

Deno.test("maskCardNumbersInText() masks Luhn-valid card numbers in free text", () => {
  const cases: Array<[string, string]> = [
    ["card 4532015112830366 charged", "card 453201******0366 charged"],
    ['{"cardNumber":"4111111111111111"}', '{"cardNumber":"411111******1111"}'],
    ["pan=4532 0151 1283 0366;", "pan=4532 01** **** 0366;"],
    ["pan=4532-0151-1283-0366", "pan=4532-01**-****-0366"],
    ["4532015112830366 and 5555555555554444", "453201******0366 and 555555******4444"],
    ["short 4222222222222 pan", "short 42*******2222 pan"],
  ];
  for (const [input, expected] of cases) assert.equal(maskCardNumbersInText(input), expected);
});

Deno.test("maskCardNumbersInText() still masks a card number followed by another number", () => {
  assert.equal(maskCardNumbersInText("PAN 4532015112830366 123"), "PAN 453201******0366 123");
  assert.equal(maskCardNumbersInText("2025 4532 0151 1283 0366"), "2025 4532 01** **** 0366");
  // "0151 1283 0366 2023" happens to pass Luhn too; overlapping matches only ever hide more.
  assert.equal(maskCardNumbersInText("4532 0151 1283 0366 2023"), "4532 01** **** **** 2023");
});

Deno.test("maskCardNumbersInText() leaves amounts, dates, ids and Luhn-invalid numbers alone", () => {
  const untouched = [
    "amount 1250.00 USD",
    "at 2024-05-01 10:00:00",
    "routing 021000021 account 123456789012",
    "typo 4532015112830367",
    "id 45320151128303661234567",
    "",
  ];
  for (const text of untouched) assert.equal(maskCardNumbersInText(text), text);
});

Deno.test("maskCardNumbersInText() never leaves a generated card number readable", () => {
  fc.assert(
    fc.property(
      fc.stringMatching(/^\d{9}$/),
      fc.string({ maxLength: 20 }),
      fc.string({ maxLength: 20 }),
      (body, before, after) => {
        const cardNumber = generateCardNumber(DEFAULT_ISSUER_PREFIXES.visa, () => body);
        const text = `${before.replace(/[\d -]/g, "")} ${cardNumber} ${after.replace(/[\d -]/g, "")}`;
        const masked = maskCardNumbersInText(text);
        assert.ok(!masked.includes(cardNumber), masked);
        assert.ok(masked.includes(maskCardNumber(cardNumber)), masked);
      },
    ),
  );
});

Deno.test("isValidAbaRoutingNumber() accepts numbers with a valid 3-7-1 checksum", () => {
  for (const routingNumber of ["021000021", "011000015", "122105155", "011401533", "091000019"]) {
    assert.equal(isValidAbaRoutingNumber(routingNumber), true, routingNumber);
  }
});

Deno.test("isValidAbaRoutingNumber() rejects a bad checksum, wrong length, non-digits and all zeros", () => {
  const invalid = [
    "021000022",
    "122105156",
    "123456789",
    "000000000",
    "02100002",
    "0210000210",
    "02100002a",
    " 21000021",
    "",
  ];
  for (const routingNumber of invalid) {
    assert.equal(isValidAbaRoutingNumber(routingNumber), false, JSON.stringify(routingNumber));
  }
});

/** Runs of digit groups joined by single spaces or dashes, as card numbers are written. */
const DIGIT_RUN = /\d+(?:[ -]\d+)*/g;
/** The digit counts of every span of whole consecutive groups in each run of `text`. */
function spanDigitCounts(text: string): number[] {
  const counts: number[] = [];
  for (const [run] of text.matchAll(DIGIT_RUN)) {
    const groups = run.match(/\d+/g)!.map((group) => group.length);
    for (let first = 0; first < groups.length; first++) {
      let digits = 0;
      for (let last = first; last < groups.length; last++) counts.push(digits += groups[last]);
    }
  }
  return counts;
}

/** Digit groups of 1 to 20 digits, each followed by a separator, a doubled one or another character. */
const digitText = (maxGroups: number) =>
  fc.array(
    fc.tuple(fc.stringMatching(/^\d{1,20}$/), fc.constantFrom(" ", "-", "", "  ", "- ", "a", ":", '"')),
    { maxLength: maxGroups },
  ).map((groups) => groups.map(([digits, after]) => digits + after).join(""));

Deno.test("mayHoldCardNumber() is true exactly when some span of whole digit groups has 13 to 19 digits", () => {
  fc.assert(
    fc.property(
      digitText(8),
      (sample) =>
        mayHoldCardNumber(sample) === spanDigitCounts(sample).some((count) => count >= 13 && count <= 19),
    ),
    { numRuns: 5_000 },
  );
  assert.equal(mayHoldCardNumber("4532 0151 1283 0366"), true);
  assert.equal(mayHoldCardNumber("DE89 3704 0044 0532 0130 00"), true);
  assert.equal(mayHoldCardNumber("2026-11-25T09:17:57.530Z"), false);
  assert.equal(mayHoldCardNumber("453201511283"), false);
  assert.equal(mayHoldCardNumber("4532-0151  11283 0366"), false);
  // An IBAN's 20 digits in one group are too many for a card, and no part of a group is checked.
  assert.equal(mayHoldCardNumber("DE89370400440532013000"), false);
});

/** The masking as first written (regular expressions, a string per span): the oracle for the loop. */
function referenceMaskCardNumbersInText(text: string): string {
  return text.replace(DIGIT_RUN, (run) => {
    const groups = [...run.matchAll(/\d+/g)].map((match) => ({
      start: match.index,
      end: match.index + match[0].length,
      digits: match[0],
    }));
    const hidden = new Set<number>();
    for (let first = 0; first < groups.length; first++) {
      let digits = "";
      for (let last = first; last < groups.length; last++) {
        digits += groups[last].digits;
        if (digits.length > 19) break;
        if (digits.length < 13 || !isValidLuhn(digits)) continue;
        const span = run.slice(groups[first].start, groups[last].end);
        const maskedSpan = maskCardNumber(span);
        for (let offset = 0; offset < span.length; offset++) {
          if (maskedSpan[offset] !== span[offset]) hidden.add(groups[first].start + offset);
        }
      }
    }
    return [...run].map((character, index) => hidden.has(index) ? "*" : character).join("");
  });
}

Deno.test("maskCardNumbersInText() masks exactly as the regular-expression reference does", () => {
  const cardLike = fc.tuple(fc.stringMatching(/^\d{9}$/), fc.constantFrom("", " ", "-"), digitText(2)).map(
    ([body, separator, rest]) => {
      const card = generateCardNumber(DEFAULT_ISSUER_PREFIXES.visa, () => body);
      return card.match(/\d{4}/g)!.join(separator) + rest;
    },
  );
  fc.assert(
    fc.property(digitText(6), cardLike, digitText(3), (before, card, after) => {
      for (const text of [before, `${before}${card}${after}`]) {
        assert.equal(maskCardNumbersInText(text), referenceMaskCardNumbersInText(text), text);
        if (maskCardNumbersInText(text) !== text) assert.ok(mayHoldCardNumber(text), text);
      }
    }),
    { numRuns: 5_000 },
  );
});
