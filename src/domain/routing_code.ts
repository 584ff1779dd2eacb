/**
 * National routing codes: a 3-letter prefix, a 6-digit serial and two check digits by
 * ISO 7064 MOD 97-10 over the whole code, e.g. "ABC000123" followed by its check pair.
 * Letters count as A=10 … Z=35, as in IBANs. Pure module: no I/O.
 *
 * MOD 97-10 detects every single-character substitution and every transposition of
 * adjacent characters: the difference such an error makes is a non-zero number below 97
 * (or 99 for a letter pair, 99 ≡ 2) times a power of ten, and 97 is prime.
 */
import { asciiUpperCase } from "./ascii.ts";

export const ROUTING_PREFIX_LENGTH = 3;
export const ROUTING_SERIAL_LENGTH = 6;
export const ROUTING_CHECK_DIGITS_LENGTH = 2;
export const ROUTING_CODE_LENGTH = ROUTING_PREFIX_LENGTH + ROUTING_SERIAL_LENGTH +
  ROUTING_CHECK_DIGITS_LENGTH;
/** Serial numbering starts at 1 for every prefix. */
export const ROUTING_SERIAL_MIN = 1;
export const ROUTING_SERIAL_MAX = 999999;

const CODE_0 = 48;
const CODE_9 = 57;
/** A..Z become 10..35: char code minus 55. */
const LETTER_VALUE_OFFSET = 55;

const PREFIX_PATTERN = /^[A-Z]{3}$/;
const SERIAL_PATTERN = /^\d{6}$/;
const CHECK_DIGITS_PATTERN = /^\d{2}$/;

export interface RoutingCodeParts {
  code: string;
  prefix: string;
  serial: number;
  checkDigits: string;
}

export type RoutingCodeErrorCode =
  | "LENGTH"
  | "PREFIX"
  | "SERIAL"
  | "CHECK_DIGITS"
  | "WRONG_CHECK_DIGITS";

export type RoutingCodeResult =
  | { ok: true; value: RoutingCodeParts }
  | { ok: false; error: { code: RoutingCodeErrorCode; message: string } };

export type NextRoutingCodeResult =
  | { ok: true; value: { code: string; serial: number } }
  | { ok: false; error: { code: "INVALID_PREFIX" | "SERIAL_EXHAUSTED"; message: string } };

/** What people type: surrounding spaces and lower case a-z are accepted. */
export function normalizeRoutingPrefix(p: string): string {
  return asciiUpperCase(p.trim());
}

/** Exactly three upper-case letters A-Z. */
export function isValidRoutingPrefix(p: string): boolean {
  return PREFIX_PATTERN.test(p);
}

function padSerial(serial: number): string {
  return String(serial).padStart(ROUTING_SERIAL_LENGTH, "0");
}

function mod97(s: string): number {
  let r = 0;
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    r = code <= CODE_9 ? (r * 10 + code - CODE_0) % 97 : (r * 100 + code - LETTER_VALUE_OFFSET) % 97;
  }
  return r;
}

function checkPair(body: string): string {
  return String(98 - (mod97(body) * 100) % 97).padStart(ROUTING_CHECK_DIGITS_LENGTH, "0");
}

function assertValidParts(prefix: string, serial: number): void {
  if (!isValidRoutingPrefix(prefix)) {
    throw new RangeError(`routing prefix must be three upper-case letters, got "${prefix}"`);
  }
  if (!Number.isInteger(serial) || serial < 0 || serial > ROUTING_SERIAL_MAX) {
    throw new RangeError(`routing serial must be an integer from 0 to ${ROUTING_SERIAL_MAX}, got ${serial}`);
  }
}

/** The two ISO 7064 MOD 97-10 check digits (02..98) of prefix + zero-padded serial. */
export function computeRoutingCheckDigits(prefix: string, serial: number): string {
  assertValidParts(prefix, serial);
  return checkPair(prefix + padSerial(serial));
}

/** The full 11-character code, e.g. formatRoutingCode("ABC", 123) → "ABC000123" + check pair. */
export function formatRoutingCode(prefix: string, serial: number): string {
  assertValidParts(prefix, serial);
  const body = prefix + padSerial(serial);
  return body + checkPair(body);
}

function fail(code: RoutingCodeErrorCode, message: string): RoutingCodeResult {
  return { ok: false, error: { code, message } };
}

/** Validates a code exactly as given (no trimming or upper-casing: codes are identifiers). */
export function validateRoutingCode(code: string): RoutingCodeResult {
  if (code.length !== ROUTING_CODE_LENGTH) {
    return fail("LENGTH", `routing code must be ${ROUTING_CODE_LENGTH} characters, got ${code.length}`);
  }
  const prefix = code.slice(0, ROUTING_PREFIX_LENGTH);
  if (!isValidRoutingPrefix(prefix)) {
    return fail(
      "PREFIX",
      `routing code prefix (characters 1-3) must be three upper-case letters, got "${prefix}"`,
    );
  }
  const serialText = code.slice(ROUTING_PREFIX_LENGTH, ROUTING_PREFIX_LENGTH + ROUTING_SERIAL_LENGTH);
  if (!SERIAL_PATTERN.test(serialText)) {
    return fail("SERIAL", `routing code serial (characters 4-9) must be six digits, got "${serialText}"`);
  }
  const checkDigits = code.slice(ROUTING_PREFIX_LENGTH + ROUTING_SERIAL_LENGTH);
  if (!CHECK_DIGITS_PATTERN.test(checkDigits)) {
    return fail(
      "CHECK_DIGITS",
      `routing code check digits (characters 10-11) must be two digits, got "${checkDigits}"`,
    );
  }
  if (checkPair(prefix + serialText) !== checkDigits) {
    return fail("WRONG_CHECK_DIGITS", `wrong check digits in routing code ${code}`);
  }
  // Checked after the check digits so that a mistyped digit is still reported as one; a code whose
  // check pair fits serial 000000 was made up, since no prefix ever assigns it.
  const serial = Number(serialText);
  if (serial < ROUTING_SERIAL_MIN) {
    return fail(
      "SERIAL",
      `routing code serial (characters 4-9) must be from 000001 to 999999 (serials start at 1), got "${serialText}"`,
    );
  }
  return { ok: true, value: { code, prefix, serial, checkDigits } };
}

/**
 * The code after the highest serial already used for this prefix (null: none used yet).
 * The prefix must already be normalised; an exhausted serial space is an expected outcome.
 */
export function nextRoutingCode(prefix: string, highestSerialUsed: number | null): NextRoutingCodeResult {
  if (!isValidRoutingPrefix(prefix)) {
    return {
      ok: false,
      error: {
        code: "INVALID_PREFIX",
        message: `routing prefix must be three upper-case letters, got "${prefix}"`,
      },
    };
  }
  if (
    highestSerialUsed !== null &&
    (!Number.isInteger(highestSerialUsed) || highestSerialUsed < 0 ||
      highestSerialUsed > ROUTING_SERIAL_MAX)
  ) {
    throw new RangeError(
      `highest routing serial used must be an integer from 0 to ${ROUTING_SERIAL_MAX}, got ${highestSerialUsed}`,
    );
  }
  if (highestSerialUsed === ROUTING_SERIAL_MAX) {
    return {
      ok: false,
      error: {
        code: "SERIAL_EXHAUSTED",
        message: `all ${ROUTING_SERIAL_MAX} routing codes for prefix ${prefix} are assigned`,
      },
    };
  }
  const serial = highestSerialUsed === null ? ROUTING_SERIAL_MIN : highestSerialUsed + 1;
  return { ok: true, value: { code: formatRoutingCode(prefix, serial), serial } };
}
