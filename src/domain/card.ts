/**
 * Card numbers (PANs): Luhn check digits, generation from an issuer prefix, masking for display
 * and log redaction; and the ABA routing number checksum used when verifying bank accounts.
 *
 * Generation takes its randomness as a parameter so this module stays pure; the caller passes a
 * cryptographically secure source and enforces uniqueness in the store.
 *
 * @module
 */

import { err, ok, type Result } from "./result.ts";

export const CARD_NUMBER_LENGTH = 16;
/** ISO/IEC 7812 PAN lengths, used when recognising card numbers from other issuers. */
export const MIN_CARD_NUMBER_LENGTH = 13;
export const MAX_CARD_NUMBER_LENGTH = 19;
/** ISO/IEC 7812 issuer identification numbers have 6 or 8 digits. */
export const MIN_ISSUER_PREFIX_LENGTH = 6;
export const MAX_ISSUER_PREFIX_LENGTH = 8;
/** The longest prefix generateCardNumber accepts still leaves one random digit before the check digit. */
const MAX_GENERATION_PREFIX_LENGTH = CARD_NUMBER_LENGTH - 2;

export const MASK_CHARACTER = "*";
/** The most a masked card number reveals (PCI DSS display rule): the first six and the last four digits. */
export const MASK_VISIBLE_LEADING_DIGITS = 6;
export const MASK_VISIBLE_TRAILING_DIGITS = 4;

export const CARD_BRANDS = ["visa", "soln_bank"] as const;
export type CardBrand = typeof CARD_BRANDS[number];

const VISA_MAJOR_INDUSTRY_IDENTIFIER = "4";

/**
 * Defaults for when no prefix is configured. The visa value is a placeholder inside Visa's "4"
 * range and must be replaced by the BIN Visa assigns. soln_bank defaults to MII 9 ("national
 * assignment" under ISO/IEC 7812), which no international network routes.
 */
export const DEFAULT_ISSUER_PREFIXES: Readonly<Record<CardBrand, string>> = {
  visa: "453201",
  soln_bank: "990001",
};

const ABA_ROUTING_NUMBER_LENGTH = 9;
const ABA_WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const;

const DIGITS_ONLY = /^\d+$/;
const isDigitCode = (code: number) => code >= 48 && code <= 57;
const isGroupSeparatorCode = (code: number) => code === 32 || code === 45;

/** Luhn's sum over the digits of `text` from `start` to `end`; other characters (separators) are skipped. */
function luhnSum(text: string, doubleRightmost: boolean, start = 0, end = text.length): number {
  let sum = 0;
  let double = doubleRightmost;
  for (let index = end - 1; index >= start; index--) {
    const code = text.charCodeAt(index);
    if (!isDigitCode(code)) continue;
    let digit = code - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum;
}

/** The Luhn digit to append to `partial`. Throws unless `partial` is one or more ASCII digits. */
export function luhnCheckDigit(partial: string): string {
  if (!DIGITS_ONLY.test(partial)) throw new TypeError("luhnCheckDigit() needs a string of digits");
  return String((10 - (luhnSum(partial, true) % 10)) % 10);
}

/** True for two or more ASCII digits whose last digit is the Luhn check digit of the rest. */
export function isValidLuhn(number: string): boolean {
  return number.length >= 2 && DIGITS_ONLY.test(number) && luhnSum(number, false) % 10 === 0;
}

/** Removes the spaces and dashes people type between digit groups. */
export function normalizeCardNumber(input: string): string {
  return input.replace(/[ -]/g, "");
}

/** A plausible card number from any issuer: 13 to 19 digits, not all zeros, passing Luhn. */
export function isValidCardNumber(number: string): boolean {
  return number.length >= MIN_CARD_NUMBER_LENGTH && number.length <= MAX_CARD_NUMBER_LENGTH &&
    isValidLuhn(number) && !/^0+$/.test(number);
}

/** Validates a configured issuer prefix for a brand; for use when reading configuration at startup. */
export function validateIssuerPrefix(brand: CardBrand, prefix: string): Result<string> {
  if (!DIGITS_ONLY.test(prefix)) {
    return err("invalid_issuer_prefix", `The ${brand} issuer prefix must contain digits only`);
  }
  if (prefix.length < MIN_ISSUER_PREFIX_LENGTH || prefix.length > MAX_ISSUER_PREFIX_LENGTH) {
    return err(
      "invalid_issuer_prefix",
      `The ${brand} issuer prefix must have ${MIN_ISSUER_PREFIX_LENGTH} to ${MAX_ISSUER_PREFIX_LENGTH} digits`,
    );
  }
  if (brand === "visa" && !prefix.startsWith(VISA_MAJOR_INDUSTRY_IDENTIFIER)) {
    return err("invalid_issuer_prefix", "The visa issuer prefix must start with 4");
  }
  return ok(prefix);
}

/**
 * Builds a 16-digit card number: the prefix, random digits from `randomDigits`, and the Luhn
 * check digit. Throws when the prefix is not 1 to 14 digits or `randomDigits` does not return
 * exactly the requested number of digits, both programming or configuration errors.
 */
export function generateCardNumber(
  issuerPrefix: string,
  randomDigits: (count: number) => string,
): string {
  if (!DIGITS_ONLY.test(issuerPrefix) || issuerPrefix.length > MAX_GENERATION_PREFIX_LENGTH) {
    throw new RangeError(
      `Issuer prefix must be 1 to ${MAX_GENERATION_PREFIX_LENGTH} digits, got ${issuerPrefix.length} characters`,
    );
  }
  const bodyLength = CARD_NUMBER_LENGTH - 1 - issuerPrefix.length;
  const body = randomDigits(bodyLength);
  if (body.length !== bodyLength || !DIGITS_ONLY.test(body)) {
    throw new RangeError(`randomDigits(${bodyLength}) must return exactly ${bodyLength} digits`);
  }
  const partial = issuerPrefix + body;
  return partial + luhnCheckDigit(partial);
}

/** How many leading and trailing digits a number with `digitCount` digits may reveal. */
function visibleDigits(digitCount: number): { leading: number; trailing: number } {
  if (digitCount === CARD_NUMBER_LENGTH) {
    return { leading: MASK_VISIBLE_LEADING_DIGITS, trailing: MASK_VISIBLE_TRAILING_DIGITS };
  }
  // Other lengths never reveal more than half of their digits, so short inputs stay secret.
  const visible = Math.min(
    MASK_VISIBLE_LEADING_DIGITS + MASK_VISIBLE_TRAILING_DIGITS,
    Math.floor(digitCount / 2),
  );
  const trailing = Math.min(MASK_VISIBLE_TRAILING_DIGITS, visible);
  return { leading: Math.min(MASK_VISIBLE_LEADING_DIGITS, visible - trailing), trailing };
}

/**
 * Replaces the hidden digits with "*", keeping the length and any separators, e.g.
 * "4532015112830366" → "453201******0366", "4532 0151 1283 0366" → "4532 01** **** 0366".
 * A 16-digit number shows its first six and last four digits; any other number shows at most
 * half of its digits (the last four first), so the function is safe on any input.
 */
export function maskCardNumber(cardNumber: string): string {
  let digitCount = 0;
  for (const character of cardNumber) if (character >= "0" && character <= "9") digitCount++;
  const { leading, trailing } = visibleDigits(digitCount);

  let digitIndex = 0;
  let masked = "";
  for (const character of cardNumber) {
    if (character >= "0" && character <= "9") {
      const visible = digitIndex < leading || digitIndex >= digitCount - trailing;
      masked += visible ? character : MASK_CHARACTER;
      digitIndex++;
    } else {
      masked += character;
    }
  }
  return masked;
}

/** Digit groups joined by single spaces or dashes, as card numbers are written. */
const DIGIT_RUN = /\d+(?:[ -]\d+)*/g;

const isRunCode = (text: string, index: number) =>
  isDigitCode(text.charCodeAt(index)) ||
  (isGroupSeparatorCode(text.charCodeAt(index)) && index > 0 && index + 1 < text.length &&
    isDigitCode(text.charCodeAt(index - 1)) && isDigitCode(text.charCodeAt(index + 1)));

/** Where each digit group of `text` between `from` and `to` starts and ends. */
function digitGroups(text: string, from: number, to: number): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  for (let index = from; index < to; index++) {
    if (!isDigitCode(text.charCodeAt(index))) continue;
    starts.push(index);
    while (index < to && isDigitCode(text.charCodeAt(index))) index++;
    ends.push(index);
  }
  return { starts, ends };
}

/**
 * Visits every span of whole consecutive groups with a card's 13 to 19 digits, by where it starts
 * and ends, until `visit` returns true; answers whether it did. A card number can sit next to other
 * numbers in the same run ("4532015112830366 123"), so every such span counts, not only the run.
 */
function someCardLengthSpan(
  { starts, ends }: { starts: number[]; ends: number[] },
  visit: (start: number, end: number, digits: number) => boolean,
): boolean {
  for (let first = 0; first < starts.length; first++) {
    let digits = 0;
    for (let last = first; last < starts.length; last++) {
      digits += ends[last] - starts[last];
      if (digits > MAX_CARD_NUMBER_LENGTH) break;
      if (digits >= MIN_CARD_NUMBER_LENGTH && visit(starts[first], ends[last], digits)) return true;
    }
  }
  return false;
}

const isSpan = () => true;

/**
 * For the run of digit groups that holds `index`: -1 when some span of its whole groups has a
 * card's 13 to 19 digits, else the index just past the run.
 */
function endOfRunWithoutCardLengthSpan(text: string, index: number): number {
  let start = index;
  while (start > 0 && isRunCode(text, start - 1)) start--;
  let end = index;
  while (end < text.length && isRunCode(text, end)) end++;
  return someCardLengthSpan(digitGroups(text, start, end), isSpan) ? -1 : end;
}

/**
 * False when `text` holds no span of whole digit groups (runs grouped by single spaces or dashes,
 * as DIGIT_RUN finds them) with a card's 13 to 19 digits: one pass that spares most text (dates,
 * amounts, codes, IBANs of 20 digits and more) the work of {@linkcode maskCardNumbersInText}.
 */
export function mayHoldCardNumber(text: string): boolean {
  // A loop, not a regular expression: /\d(?:[ -]?\d){12}/ backtracks over every date and id.
  let digits = 0;
  let afterDigit = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isDigitCode(code)) {
      afterDigit = true;
      if (++digits < MIN_CARD_NUMBER_LENGTH) continue;
      // Rarely reached (most runs are dates, amounts and codes): the run's groups decide.
      const end = endOfRunWithoutCardLengthSpan(text, index);
      if (end === -1) return true;
      index = end;
      digits = 0;
      afterDigit = false;
    } else if (isGroupSeparatorCode(code) && afterDigit) {
      afterDigit = false;
    } else {
      digits = 0;
      afterDigit = false;
    }
  }
  return false;
}

function maskCardNumbersInRun(run: string): string {
  // Too short to hold a card's digits, whatever its separators: most runs (dates, amounts, codes).
  if (run.length < MIN_CARD_NUMBER_LENGTH) return run;
  let hidden: Uint8Array | undefined;
  someCardLengthSpan(digitGroups(run, 0, run.length), (start, end, digits) => {
    if (luhnSum(run, false, start, end) % 10 !== 0) return false;
    // The digits maskCardNumber() would hide in this span.
    const { leading, trailing } = visibleDigits(digits);
    hidden ??= new Uint8Array(run.length);
    let digitIndex = 0;
    for (let index = start; index < end; index++) {
      if (!isDigitCode(run.charCodeAt(index))) continue;
      if (digitIndex >= leading && digitIndex < digits - trailing) hidden[index] = 1;
      digitIndex++;
    }
    return false;
  });
  if (hidden === undefined) return run;
  let masked = "";
  for (let index = 0; index < run.length; index++) masked += hidden[index] ? MASK_CHARACTER : run[index];
  return masked;
}

/**
 * Masks every card number in free text (log lines, error messages): any 13 to 19 digits,
 * contiguous or in groups separated by single spaces or dashes, that pass the Luhn check.
 * A Luhn-invalid number (a mistyped card) is left as is, so fields known to hold card numbers
 * should be masked with {@linkcode maskCardNumber} regardless of validity.
 */
export function maskCardNumbersInText(text: string): string {
  return mayHoldCardNumber(text) ? text.replace(DIGIT_RUN, maskCardNumbersInRun) : text;
}

/** A US ABA routing transit number: 9 digits, not all zeros, with a valid 3-7-1 checksum. */
export function isValidAbaRoutingNumber(routingNumber: string): boolean {
  if (routingNumber.length !== ABA_ROUTING_NUMBER_LENGTH || !DIGITS_ONLY.test(routingNumber)) {
    return false;
  }
  if (/^0+$/.test(routingNumber)) return false;
  let sum = 0;
  for (let index = 0; index < ABA_ROUTING_NUMBER_LENGTH; index++) {
    sum += (routingNumber.charCodeAt(index) - 48) * ABA_WEIGHTS[index];
  }
  return sum % 10 === 0;
}
