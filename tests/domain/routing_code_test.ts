import assert from "node:assert/strict";
import {
  computeRoutingCheckDigits,
  formatRoutingCode,
  isValidRoutingPrefix,
  nextRoutingCode,
  normalizeRoutingPrefix,
  ROUTING_CODE_LENGTH,
  ROUTING_PREFIX_LENGTH,
  ROUTING_SERIAL_MAX,
  validateRoutingCode,
} from "../../src/domain/routing_code.ts";

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";
const ALPHABET = LETTERS + DIGITS;

/** Independent reference: the whole code as one big decimal number must be 1 mod 97. */
function bigintMod97(code: string): bigint {
  const digits = [...code].map((c) => parseInt(c, 36).toString()).join("");
  return BigInt(digits) % 97n;
}

function errorCode(code: string): string | null {
  const result = validateRoutingCode(code);
  return result.ok ? null : result.error.code;
}

Deno.test("routing code constants describe a 3-letter prefix within an 11-character code", () => {
  assert.equal(ROUTING_PREFIX_LENGTH, 3);
  assert.equal(ROUTING_CODE_LENGTH, 11);
  assert.equal(ROUTING_SERIAL_MAX, 999999);
});

Deno.test("computeRoutingCheckDigits() gives ISO 7064 MOD 97-10 check digits over the whole code", () => {
  assert.equal(computeRoutingCheckDigits("ABC", 123), "46");
  assert.equal(formatRoutingCode("ABC", 123), "ABC00012346");
  for (const [prefix, serial] of [["ABC", 0], ["ZZZ", 999999], ["CBR", 1], ["NBX", 424242]] as const) {
    const code = formatRoutingCode(prefix, serial);
    assert.equal(code.length, 11);
    assert.equal(bigintMod97(code), 1n, code);
    const check = Number(computeRoutingCheckDigits(prefix, serial));
    assert.ok(check >= 2 && check <= 98, code);
  }
});

Deno.test("computeRoutingCheckDigits() throws on a broken prefix or serial (callers validate first)", () => {
  assert.throws(() => computeRoutingCheckDigits("AB", 1), RangeError);
  assert.throws(() => computeRoutingCheckDigits("abc", 1), RangeError);
  assert.throws(() => computeRoutingCheckDigits("ABC", -1), RangeError);
  assert.throws(() => computeRoutingCheckDigits("ABC", 1.5), RangeError);
  assert.throws(() => formatRoutingCode("ABC", 1000000), RangeError);
});

Deno.test("validateRoutingCode() accepts a generated code and reports its parts", () => {
  assert.deepEqual(validateRoutingCode("ABC00012346"), {
    ok: true,
    value: { code: "ABC00012346", prefix: "ABC", serial: 123, checkDigits: "46" },
  });
});

Deno.test("validateRoutingCode() names the precise reason for each malformed code", () => {
  const cases: [string, string, string][] = [
    ["ABC0001234", "LENGTH", "routing code must be 11 characters, got 10"],
    ["ABC000123460", "LENGTH", "routing code must be 11 characters, got 12"],
    ["", "LENGTH", "routing code must be 11 characters, got 0"],
    [
      "AB100012346",
      "PREFIX",
      'routing code prefix (characters 1-3) must be three upper-case letters, got "AB1"',
    ],
    [
      "abc00012346",
      "PREFIX",
      'routing code prefix (characters 1-3) must be three upper-case letters, got "abc"',
    ],
    [
      "ABC0001A346",
      "SERIAL",
      'routing code serial (characters 4-9) must be six digits, got "0001A3"',
    ],
    [
      "ABC0001234X",
      "CHECK_DIGITS",
      'routing code check digits (characters 10-11) must be two digits, got "4X"',
    ],
    ["ABC00012344", "WRONG_CHECK_DIGITS", "wrong check digits in routing code ABC00012344"],
    [
      "ABC00000027",
      "SERIAL",
      'routing code serial (characters 4-9) must be from 000001 to 999999 (serials start at 1), got "000000"',
    ],
    [
      formatRoutingCode("ZZZ", 0),
      "SERIAL",
      'routing code serial (characters 4-9) must be from 000001 to 999999 (serials start at 1), got "000000"',
    ],
  ];
  for (const [code, expectedCode, message] of cases) {
    assert.deepEqual(validateRoutingCode(code), {
      ok: false,
      error: { code: expectedCode, message },
    }, code);
  }
});

Deno.test("validateRoutingCode() detects every single-character substitution, by check digits when the layout survives (exhaustive)", () => {
  for (const valid of ["ABC00012346", formatRoutingCode("ZZZ", 999999), formatRoutingCode("QXA", 7)]) {
    let mutants = 0;
    for (let i = 0; i < valid.length; i++) {
      for (const c of ALPHABET) {
        if (c === valid[i]) continue;
        const mutant = valid.slice(0, i) + c + valid.slice(i + 1);
        if ((i < ROUTING_PREFIX_LENGTH) === LETTERS.includes(c)) {
          assert.equal(errorCode(mutant), "WRONG_CHECK_DIGITS", mutant);
        } else {
          assert.notEqual(errorCode(mutant), null, mutant);
        }
        mutants++;
      }
    }
    assert.equal(mutants, 11 * 35);
  }
});

Deno.test("validateRoutingCode() detects every adjacent transposition (exhaustive)", () => {
  const codes = [
    "ABC00012346",
    formatRoutingCode("XYZ", 123456),
    formatRoutingCode("ZAZ", 908172),
    formatRoutingCode("MNO", 10),
  ];
  for (const valid of codes) {
    for (let i = 0; i + 1 < valid.length; i++) {
      if (valid[i] === valid[i + 1]) continue;
      const swapped = valid.slice(0, i) + valid[i + 1] + valid[i] + valid.slice(i + 2);
      const keepsLayout = i !== ROUTING_PREFIX_LENGTH - 1;
      assert.equal(errorCode(swapped), keepsLayout ? "WRONG_CHECK_DIGITS" : "PREFIX", swapped);
    }
  }
});

Deno.test("every layout-preserving substitution and transposition breaks MOD 97 (big-integer cross-check)", () => {
  // Independent of our implementation: the whole code read as one decimal number is no
  // longer 1 mod 97 after any letter-for-letter or digit-for-digit error, over ~100 serials.
  for (let serial = 0; serial < 100000; serial += 997) {
    const code = formatRoutingCode("KLM", serial);
    for (let i = 0; i < code.length; i++) {
      const pool = i < 3 ? LETTERS : DIGITS;
      for (const c of pool) {
        if (c === code[i]) continue;
        assert.notEqual(bigintMod97(code.slice(0, i) + c + code.slice(i + 1)), 1n);
      }
      const sameClass = i + 1 < code.length && (i + 1 < 3 || i >= 3);
      if (sameClass && code[i] !== code[i + 1]) {
        const swapped = code.slice(0, i) + code[i + 1] + code[i] + code.slice(i + 2);
        assert.notEqual(bigintMod97(swapped), 1n, swapped);
      }
    }
  }
});

Deno.test("isValidRoutingPrefix() accepts exactly three upper-case letters", () => {
  assert.equal(isValidRoutingPrefix("ABC"), true);
  for (const p of ["AB", "ABCD", "abc", "Abc", "AB1", "A C", "", "ÄBC"]) {
    assert.equal(isValidRoutingPrefix(p), false, p);
  }
});

Deno.test("normalizeRoutingPrefix() upper-cases and trims what people type", () => {
  assert.equal(normalizeRoutingPrefix("abc"), "ABC");
  assert.equal(normalizeRoutingPrefix(" aBc "), "ABC");
  assert.equal(isValidRoutingPrefix(normalizeRoutingPrefix("xyz")), true);
});

Deno.test("nextRoutingCode() starts at serial 1 and continues after the highest serial used", () => {
  assert.deepEqual(nextRoutingCode("ABC", null), {
    ok: true,
    value: { code: formatRoutingCode("ABC", 1), serial: 1 },
  });
  assert.deepEqual(nextRoutingCode("ABC", 122), {
    ok: true,
    value: { code: "ABC00012346", serial: 123 },
  });
  assert.deepEqual(nextRoutingCode("ABC", 999998), {
    ok: true,
    value: { code: formatRoutingCode("ABC", 999999), serial: 999999 },
  });
});

Deno.test("nextRoutingCode() reports an exhausted serial space as a typed error", () => {
  assert.deepEqual(nextRoutingCode("ABC", ROUTING_SERIAL_MAX), {
    ok: false,
    error: {
      code: "SERIAL_EXHAUSTED",
      message: "all 999999 routing codes for prefix ABC are assigned",
    },
  });
});

Deno.test("nextRoutingCode() rejects a prefix that is not three upper-case letters", () => {
  assert.deepEqual(nextRoutingCode("abc", null), {
    ok: false,
    error: {
      code: "INVALID_PREFIX",
      message: 'routing prefix must be three upper-case letters, got "abc"',
    },
  });
});

Deno.test("nextRoutingCode() throws on an impossible highest serial (a broken invariant)", () => {
  assert.throws(() => nextRoutingCode("ABC", -1), RangeError);
  assert.throws(() => nextRoutingCode("ABC", 1000000), RangeError);
  assert.throws(() => nextRoutingCode("ABC", 2.5), RangeError);
});

Deno.test("consecutive next codes are distinct and valid", () => {
  const seen = new Set<string>();
  let highest: number | null = null;
  for (let i = 0; i < 50; i++) {
    const next = nextRoutingCode("DEF", highest);
    assert.ok(next.ok);
    assert.equal(validateRoutingCode(next.value.code).ok, true);
    seen.add(next.value.code);
    highest = next.value.serial;
  }
  assert.equal(seen.size, 50);
});
