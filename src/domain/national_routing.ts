/**
 * National routing registry rules: the central bank code assigned to each entry and the default
 * connection details of spec section 5. Pure module: no I/O.
 *
 * Central bank codes: the console sends one fixed code on every registration (spec 5 and 9) while
 * the column is unique. Only the code's 3-letter issuer prefix is used; the server assigns
 * PREFIX + a 3-digit sequence per prefix ("CBR001", "CBR002", … "CBR999"). When a prefix's
 * sequence is used up, registration under that prefix is refused.
 *
 * @module
 */

import { err, ok, type Result } from "./result.ts";
import { asciiUpperCase } from "./ascii.ts";

export const CENTRAL_BANK_CODE_LENGTH = 6;
export const ISSUER_PREFIX_LENGTH = 3;
export const CENTRAL_BANK_CODE_SEQUENCE_DIGITS = CENTRAL_BANK_CODE_LENGTH - ISSUER_PREFIX_LENGTH;
export const MAX_CENTRAL_BANK_CODE_SEQUENCE = 10 ** CENTRAL_BANK_CODE_SEQUENCE_DIGITS - 1;
/** Issuer prefix used when a request carries no central bank code. */
export const DEFAULT_ISSUER_PREFIX = "CBR";
/** The fixed code the console sends; the server keeps only its issuer prefix. */
export const CONSOLE_CENTRAL_BANK_CODE = `${DEFAULT_ISSUER_PREFIX}001`;

const ISSUER_PREFIX = /^[A-Z]{3}$/;

/** The issuer prefix of a submitted central bank code: its first 3 characters, upper-cased, letters only. */
export function issuerPrefixOf(code: string): Result<string> {
  const prefix = asciiUpperCase(code.trim().slice(0, ISSUER_PREFIX_LENGTH));
  if (!ISSUER_PREFIX.test(prefix)) {
    return err(
      "central_bank_code_prefix",
      `centralBankCode must start with a ${ISSUER_PREFIX_LENGTH}-letter issuer prefix`,
      "centralBankCode",
    );
  }
  return ok(prefix);
}

/** PREFIX + zero-padded sequence; a sequence past the 3-digit space is a conflict, not a bug. */
export function centralBankCodeFor(prefix: string, sequence: number): Result<string> {
  if (!ISSUER_PREFIX.test(prefix)) throw new RangeError(`invalid issuer prefix "${prefix}"`);
  if (!Number.isInteger(sequence) || sequence < 1) throw new RangeError(`invalid sequence ${sequence}`);
  if (sequence > MAX_CENTRAL_BANK_CODE_SEQUENCE) {
    return err(
      "central_bank_code_exhausted",
      `All central bank codes ${prefix}${"1".padStart(CENTRAL_BANK_CODE_SEQUENCE_DIGITS, "0")}` +
        `–${prefix}${MAX_CENTRAL_BANK_CODE_SEQUENCE} are assigned; register under another issuer prefix`,
      "centralBankCode",
    );
  }
  return ok(`${prefix}${String(sequence).padStart(CENTRAL_BANK_CODE_SEQUENCE_DIGITS, "0")}`);
}

export interface DefaultConnectionDetails {
  messageFormats: string[];
  currencies: string[];
  settlementFrequency: string;
  swiftIntegration: boolean;
  ibanCompliant: boolean;
}

export const DEFAULT_MESSAGE_FORMATS: readonly string[] = ["iso20022", "swift_mt103"];
export const DEFAULT_CONNECTION_CURRENCIES: readonly string[] = ["USD", "EUR"];
export const DEFAULT_SETTLEMENT_FREQUENCY = "real-time";

/** Spec 5: what a registration carries when its connection details are left blank. */
export function defaultConnectionDetails(
  entry: { swiftBicCode?: string | null; ibanPrefix?: string | null },
): DefaultConnectionDetails {
  return {
    messageFormats: [...DEFAULT_MESSAGE_FORMATS],
    currencies: [...DEFAULT_CONNECTION_CURRENCIES],
    settlementFrequency: DEFAULT_SETTLEMENT_FREQUENCY,
    swiftIntegration: Boolean(entry.swiftBicCode?.trim()),
    ibanCompliant: Boolean(entry.ibanPrefix?.trim()),
  };
}
