/**
 * Money as integer minor units (cents) in `bigint`, matching the schema's decimal(15,2).
 *
 * Parsing is exact and strict: an input either denotes an amount exactly or is rejected with a
 * reason; nothing is ever rounded. Accepted text is `-?DIGITS(.D|.DD)?` with 1 to 13 integer
 * digits. Deliberately rejected, because each has a plausible wrong reading: surrounding or inner
 * whitespace (no trimming), a leading "+", exponents ("1e3"), thousands separators ("1,000"),
 * a bare or dangling point (".", ".5", "1."), more than 2 decimals, more than 13 integer digits.
 * Leading zeros are accepted ("007.50" is 7.50) but count towards the 13 integer digits.
 *
 * Error messages never echo the input: an amount field can receive a pasted card number, and
 * these messages end up in API responses and logs.
 *
 * @module
 */

import { err, ok, type Result } from "./result.ts";

export type Minor = bigint;

export const MAX_INTEGER_DIGITS = 13;
export const MINOR_DIGITS = 2;
export const MINOR_PER_MAJOR = 10n ** BigInt(MINOR_DIGITS);
/** Largest magnitude a decimal(15,2) column holds: 9999999999999.99. */
export const MAX_MONEY_MINOR: Minor = 10n ** BigInt(MAX_INTEGER_DIGITS + MINOR_DIGITS) - 1n;

export type MoneyErrorCode =
  | "money_required"
  | "money_format"
  | "money_precision"
  | "money_range"
  | "money_negative"
  | "money_not_positive";

const DEFAULT_FIELD_LABEL = "Amount";
const EXACT_AMOUNT = /^-?(\d+)(?:\.(\d+))?$/;

/**
 * Parses a signed amount. For internal use (adjustments, test fixtures); amounts coming from
 * users go through {@linkcode parseNonNegativeMoney} or {@linkcode parsePositiveMoney}.
 *
 * A JS number is accepted only when its shortest decimal form (`String(n)`) passes the same
 * rules, so `1250.5` is 125050n but `0.1 + 0.2` (0.30000000000000004) is rejected.
 */
export function parseMoney(input: string | number, field?: string): Result<Minor> {
  const label = field ?? DEFAULT_FIELD_LABEL;
  let text: string;
  if (typeof input === "number") {
    if (!Number.isFinite(input)) {
      return err("money_format", `${label} must be a finite number`, field);
    }
    text = String(input);
  } else if (typeof input === "string") {
    text = input;
  } else {
    return err("money_format", `${label} must be a decimal string like 1250.00`, field);
  }

  if (text.trim() === "") return err("money_required", `${label} is required`, field);
  if (/\s/.test(text)) return err("money_format", `${label} must not contain spaces`, field);
  if (/[eE]/.test(text)) {
    return err("money_format", `${label} must not use exponent notation`, field);
  }
  if (/[,_']/.test(text)) {
    return err("money_format", `${label} must not contain thousands separators`, field);
  }
  if (text.startsWith("+")) return err("money_format", `${label} must not start with "+"`, field);

  const match = EXACT_AMOUNT.exec(text);
  if (match === null) {
    return err(
      "money_format",
      `${label} must be digits with an optional point and 1 or 2 decimals, like 1250.00`,
      field,
    );
  }
  const [, integerDigits, decimalDigits = ""] = match;
  if (decimalDigits.length > MINOR_DIGITS) {
    return err("money_precision", `${label} must have at most ${MINOR_DIGITS} decimals`, field);
  }
  if (integerDigits.length > MAX_INTEGER_DIGITS) {
    return err(
      "money_range",
      `${label} must have at most ${MAX_INTEGER_DIGITS} digits before the decimal point`,
      field,
    );
  }
  const magnitude = BigInt(integerDigits) * MINOR_PER_MAJOR +
    BigInt(decimalDigits.padEnd(MINOR_DIGITS, "0"));
  return ok(text.startsWith("-") ? -magnitude : magnitude);
}

/** Parses an amount that may be zero but not negative (opening balances, card limits, load amounts). */
export function parseNonNegativeMoney(input: string | number, field?: string): Result<Minor> {
  const parsed = parseMoney(input, field);
  if (parsed.ok && parsed.value < 0n) {
    return err("money_negative", `${field ?? DEFAULT_FIELD_LABEL} must not be negative`, field);
  }
  return parsed;
}

/** Parses an amount that must be above zero (sweep amounts, transfers, card loads). */
export function parsePositiveMoney(input: string | number, field?: string): Result<Minor> {
  const parsed = parseNonNegativeMoney(input, field);
  if (parsed.ok && parsed.value === 0n) {
    return err(
      "money_not_positive",
      `${field ?? DEFAULT_FIELD_LABEL} must be greater than 0`,
      field,
    );
  }
  return parsed;
}

/** The API's decimal string: "1250.00", "-3.05", "0.00". */
export function formatMoney(minor: Minor): string {
  const magnitude = minor < 0n ? -minor : minor;
  const integerPart = magnitude / MINOR_PER_MAJOR;
  const fractionPart = (magnitude % MINOR_PER_MAJOR).toString().padStart(MINOR_DIGITS, "0");
  return `${minor < 0n ? "-" : ""}${integerPart}.${fractionPart}`;
}

/**
 * Thousands separators in the integer part of a decimal text, the rest kept as it is: "1200000.07"
 * as "1,200,000.07", and a half-typed "1200." as "1,200.", so an amount field can group as one types.
 */
export function groupDigits(decimal: string): string {
  const [, sign, whole, rest] = /^(-?)(\d*)(.*)$/s.exec(decimal)!;
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${rest}`;
}

export function isWithinMoneyRange(minor: Minor): boolean {
  return minor >= -MAX_MONEY_MINOR && minor <= MAX_MONEY_MINOR;
}

function assertWithinMoneyRange(minor: Minor, operation: string): Minor {
  if (!isWithinMoneyRange(minor)) {
    throw new RangeError(`${operation} left the decimal(15,2) range: ${minor} minor units`);
  }
  return minor;
}

/**
 * Adds two amounts. Throws when an operand or the sum is outside decimal(15,2): callers are
 * expected to have validated amounts first, so reaching that point is a broken invariant.
 */
export function addMoney(a: Minor, b: Minor): Minor {
  assertWithinMoneyRange(a, "addMoney operand");
  assertWithinMoneyRange(b, "addMoney operand");
  return assertWithinMoneyRange(a + b, "addMoney");
}

/** Subtracts `b` from `a`, with the same range guarantee as {@linkcode addMoney}. */
export function subMoney(a: Minor, b: Minor): Minor {
  assertWithinMoneyRange(a, "subMoney operand");
  assertWithinMoneyRange(b, "subMoney operand");
  return assertWithinMoneyRange(a - b, "subMoney");
}

/**
 * en-US currency display, e.g. "$1,250.00". The decimal string goes to Intl directly, never
 * through a float, so amounts beyond 2^53 minor units stay exact. Currencies without minor
 * units (JPY) show no decimals unless the amount has a fraction, which is shown rather than
 * rounded away. Throws a RangeError for a malformed currency code.
 */
export function formatCurrencyEnUs(minor: Minor, currency: string): string {
  const hasFraction = minor % MINOR_PER_MAJOR !== 0n;
  const formatter = new Intl.NumberFormat("en-US", {
    style: "currency",
    currency,
    maximumFractionDigits: MINOR_DIGITS,
    ...(hasFraction ? { minimumFractionDigits: MINOR_DIGITS } : {}),
  });
  return formatter.format(formatMoney(minor) as Intl.StringNumericLiteral);
}
