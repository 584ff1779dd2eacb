import assert from "node:assert/strict";
import fc from "fast-check";
import {
  addMoney,
  formatCurrencyEnUs,
  formatMoney,
  groupDigits,
  isWithinMoneyRange,
  MAX_MONEY_MINOR,
  type MoneyErrorCode,
  parseMoney,
  parseNonNegativeMoney,
  parsePositiveMoney,
  subMoney,
} from "../../src/domain/money.ts";
import type { Result } from "../../src/domain/result.ts";

function assertRejected(result: Result<bigint>, code: MoneyErrorCode, input: unknown): void {
  assert.equal(result.ok, false, `expected ${JSON.stringify(input)} to be rejected`);
  if (!result.ok) {
    assert.equal(result.error.code, code, `code for ${JSON.stringify(input)}`);
    assert.ok(result.error.message.length > 0);
  }
}

function assertParsed(result: Result<bigint>, expected: bigint): void {
  assert.deepEqual(result, { ok: true, value: expected });
}

Deno.test("parseMoney() accepts exact decimal strings of up to 13 integer digits and 2 decimals", () => {
  const cases: Array<[string, bigint]> = [
    ["0", 0n],
    ["0.1", 10n],
    ["0.01", 1n],
    ["1", 100n],
    ["1.5", 150n],
    ["1250.00", 125000n],
    ["1250.5", 125050n],
    ["007.50", 750n],
    ["9999999999999.99", MAX_MONEY_MINOR],
    ["-3.05", -305n],
    ["-9999999999999.99", -MAX_MONEY_MINOR],
  ];
  for (const [input, expected] of cases) assertParsed(parseMoney(input), expected);
});

Deno.test("parseMoney() rejects each malformed input with the reason", () => {
  const cases: Array<[string, MoneyErrorCode]> = [
    ["", "money_required"],
    [" ", "money_required"],
    [" 1.00", "money_format"],
    ["1.00 ", "money_format"],
    ["1 000", "money_format"],
    ["abc", "money_format"],
    ["1O", "money_format"],
    ["--1", "money_format"],
    ["-", "money_format"],
    ["+1", "money_format"],
    ["1e3", "money_format"],
    ["1E3", "money_format"],
    ["1,000.00", "money_format"],
    ["1_000", "money_format"],
    [".", "money_format"],
    [".5", "money_format"],
    ["1.", "money_format"],
    ["1.2.3", "money_format"],
    ["0x10", "money_format"],
    ["Infinity", "money_format"],
    ["NaN", "money_format"],
    ["１２", "money_format"],
    ["1.234", "money_precision"],
    ["0.001", "money_precision"],
    ["12345678901234", "money_range"],
    ["00000000000001", "money_range"],
    ["10000000000000.00", "money_range"],
  ];
  for (const [input, code] of cases) assertRejected(parseMoney(input), code, input);
});

Deno.test("parseMoney() accepts a JS number only when its shortest decimal form is exact", () => {
  assertParsed(parseMoney(1250.5), 125050n);
  assertParsed(parseMoney(0), 0n);
  assertParsed(parseMoney(-0), 0n);
  assertParsed(parseMoney(9999999999999.99), MAX_MONEY_MINOR);
  assertRejected(parseMoney(0.1 + 0.2), "money_precision", 0.1 + 0.2);
  assertRejected(parseMoney(1.005), "money_precision", 1.005);
  assertRejected(parseMoney(1e21), "money_format", 1e21);
  assertRejected(parseMoney(1e-7), "money_format", 1e-7);
  assertRejected(parseMoney(Number.NaN), "money_format", Number.NaN);
  assertRejected(parseMoney(Number.POSITIVE_INFINITY), "money_format", Infinity);
  assertRejected(parseMoney(12345678901234), "money_range", 12345678901234);
});

Deno.test("parseMoney() rejects values that are neither string nor number at runtime", () => {
  for (const input of [null, undefined, 5n, {}, ["1"], true]) {
    assertRejected(parseMoney(input as unknown as string), "money_format", String(input));
  }
});

Deno.test("parseMoney() names the field and never echoes the input in its message", () => {
  const cardNumber = "4532015112830366";
  const result = parseMoney(cardNumber, "sweepAmount");
  assert.equal(result.ok, false);
  if (!result.ok) {
    assert.equal(result.error.field, "sweepAmount");
    assert.equal(result.error.code, "money_range");
    assert.ok(!result.error.message.includes(cardNumber));
    assert.ok(result.error.message.startsWith("sweepAmount"));
  }
});

Deno.test("parseNonNegativeMoney() accepts zero and rejects negative amounts", () => {
  assertParsed(parseNonNegativeMoney("0.00"), 0n);
  assertParsed(parseNonNegativeMoney("0"), 0n);
  assertParsed(parseNonNegativeMoney("12.34"), 1234n);
  assertRejected(parseNonNegativeMoney("-0.01"), "money_negative", "-0.01");
  assertRejected(parseNonNegativeMoney(-5), "money_negative", -5);
  assertRejected(parseNonNegativeMoney("1.234"), "money_precision", "1.234");
});

Deno.test("parsePositiveMoney() rejects zero and negative amounts", () => {
  assertParsed(parsePositiveMoney("0.01"), 1n);
  assertRejected(parsePositiveMoney("0"), "money_not_positive", "0");
  assertRejected(parsePositiveMoney("0.00"), "money_not_positive", "0.00");
  assertRejected(parsePositiveMoney(0), "money_not_positive", 0);
  assertRejected(parsePositiveMoney("-1"), "money_negative", "-1");
  assertRejected(parsePositiveMoney(""), "money_required", "");
});

Deno.test("formatMoney() prints two decimals and a leading minus", () => {
  assert.equal(formatMoney(125000n), "1250.00");
  assert.equal(formatMoney(-305n), "-3.05");
  assert.equal(formatMoney(0n), "0.00");
  assert.equal(formatMoney(1n), "0.01");
  assert.equal(formatMoney(-1n), "-0.01");
  assert.equal(formatMoney(MAX_MONEY_MINOR), "9999999999999.99");
});

Deno.test("formatMoney() and parseMoney() round-trip every amount in range", () => {
  fc.assert(
    fc.property(fc.bigInt({ min: -MAX_MONEY_MINOR, max: MAX_MONEY_MINOR }), (minor) => {
      assertParsed(parseMoney(formatMoney(minor)), minor);
    }),
  );
});

Deno.test("addMoney() and subMoney() are exact inside decimal(15,2)", () => {
  assert.equal(addMoney(10n, 20n), 30n);
  assert.equal(subMoney(10n, 25n), -15n);
  assert.equal(addMoney(MAX_MONEY_MINOR - 1n, 1n), MAX_MONEY_MINOR);
  assert.equal(subMoney(-MAX_MONEY_MINOR + 1n, 1n), -MAX_MONEY_MINOR);
});

Deno.test("addMoney() and subMoney() throw when leaving decimal(15,2)", () => {
  assert.throws(() => addMoney(MAX_MONEY_MINOR, 1n), RangeError);
  assert.throws(() => subMoney(-MAX_MONEY_MINOR, 1n), RangeError);
  assert.throws(() => addMoney(MAX_MONEY_MINOR + 1n, -5n), RangeError);
  assert.throws(() => subMoney(0n, MAX_MONEY_MINOR + 1n), RangeError);
  assert.equal(isWithinMoneyRange(MAX_MONEY_MINOR), true);
  assert.equal(isWithinMoneyRange(MAX_MONEY_MINOR + 1n), false);
});

Deno.test("formatCurrencyEnUs() formats exactly, also beyond float precision", () => {
  assert.equal(formatCurrencyEnUs(125000n, "USD"), "$1,250.00");
  assert.equal(formatCurrencyEnUs(-305n, "USD"), "-$3.05");
  assert.equal(formatCurrencyEnUs(0n, "USD"), "$0.00");
  assert.equal(formatCurrencyEnUs(MAX_MONEY_MINOR, "USD"), "$9,999,999,999,999.99");
  assert.equal(formatCurrencyEnUs(900719925474099n, "EUR"), "€9,007,199,254,740.99");
  assert.equal(formatCurrencyEnUs(100n, "GBP"), "£1.00");
});

Deno.test("formatCurrencyEnUs() shows a JPY fraction instead of rounding it away", () => {
  assert.equal(formatCurrencyEnUs(125000n, "JPY"), "¥1,250");
  assert.equal(formatCurrencyEnUs(125050n, "JPY"), "¥1,250.50");
});

Deno.test("formatCurrencyEnUs() throws on a malformed currency code", () => {
  assert.throws(() => formatCurrencyEnUs(100n, "US"), RangeError);
});

Deno.test("groupDigits() groups the integer part of a decimal text, half-typed ones included, and keeps the rest", () => {
  assert.equal(groupDigits("1200000.07"), "1,200,000.07");
  assert.equal(groupDigits("1200."), "1,200.");
  assert.equal(groupDigits("1200000"), "1,200,000");
  assert.equal(groupDigits("999"), "999");
  assert.equal(groupDigits(""), "");
  assert.equal(groupDigits(".5"), ".5");
  assert.equal(groupDigits("-1234.50"), "-1,234.50");
  assert.equal(groupDigits("9999999999999.99"), "9,999,999,999,999.99");
});
