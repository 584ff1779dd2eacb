/**
 * Input rules shared by the account-data provider (Plaid) and the card network (Visa Direct):
 * US bank account and ABA routing numbers, card numbers to push funds to, ISO 4217 currencies and
 * provider amounts. Both the real adapters and the built-in sandbox sit behind these rules, so
 * nothing the real services would reject for its form ever reaches them or succeeds in the sandbox.
 *
 * Error messages never echo the input: these fields carry account and card numbers.
 *
 * @module
 */

import { isValidAbaRoutingNumber, isValidCardNumber, normalizeCardNumber } from "./card.ts";
import { type Minor, parsePositiveMoney } from "./money.ts";
import { err, ok, type Result } from "./result.ts";

/** NACHA allows DFI account numbers of up to 17 characters; US banks use at least 4 digits. */
export const MIN_BANK_ACCOUNT_NUMBER_DIGITS = 4;
export const MAX_BANK_ACCOUNT_NUMBER_DIGITS = 17;
/** Plaid's `mask` and the console's masked account numbers show the last four digits. */
export const ACCOUNT_MASK_VISIBLE_DIGITS = 4;
export const ACCOUNT_MASK = "****";
/** Visa Direct's cardAcceptor.name is at most 25 characters. */
export const MAX_MERCHANT_NAME_LENGTH = 25;
/** The fixed central-bank merchant label push payments carry unless told otherwise (spec 7). */
export const CENTRAL_BANK_MERCHANT_NAME = "Central Bank Payments";

const DIGITS_ONLY = /^\d+$/;
const CURRENCY_CODE = /^[A-Z]{3}$/;
/** Spaces and dashes people type between digit groups. */
const SEPARATORS = /[ -]/g;

export function validateBankAccountNumber(input: string, field = "accountNumber"): Result<string> {
  const digits = input.replace(SEPARATORS, "");
  if (!DIGITS_ONLY.test(digits)) {
    return err("invalid_account_number", "Account number must contain digits only", field);
  }
  if (digits.length < MIN_BANK_ACCOUNT_NUMBER_DIGITS || digits.length > MAX_BANK_ACCOUNT_NUMBER_DIGITS) {
    return err(
      "invalid_account_number",
      `Account number must have ${MIN_BANK_ACCOUNT_NUMBER_DIGITS} to ${MAX_BANK_ACCOUNT_NUMBER_DIGITS} digits`,
      field,
    );
  }
  if (/^0+$/.test(digits)) {
    return err("invalid_account_number", "Account number must not be all zeros", field);
  }
  return ok(digits);
}

export function validateRoutingNumber(input: string, field = "routingNumber"): Result<string> {
  const digits = input.replace(SEPARATORS, "");
  if (!isValidAbaRoutingNumber(digits)) {
    return err(
      "invalid_routing_number",
      "Routing number must be 9 digits with a valid ABA checksum",
      field,
    );
  }
  return ok(digits);
}

/** A card number to send funds to: 13 to 19 digits (spaces and dashes allowed) passing Luhn. */
export function validateCardNumber(input: string, field = "cardNumber"): Result<string> {
  const digits = normalizeCardNumber(input);
  if (!isValidCardNumber(digits)) {
    return err("invalid_card_number", "Card number must have 13 to 19 digits and pass the Luhn check", field);
  }
  return ok(digits);
}

export interface CurrencyInfo {
  code: string;
  /** ISO 4217 minor unit: 2 for USD, 0 for JPY. */
  minorDigits: number;
}

/** An active ISO 4217 code, as the runtime's ICU data knows them. */
export function validateCurrency(input: string, field = "currency"): Result<CurrencyInfo> {
  if (!CURRENCY_CODE.test(input) || !Intl.supportedValuesOf("currency").includes(input)) {
    return err("invalid_currency", "Currency must be an ISO 4217 code such as USD", field);
  }
  const minorDigits = new Intl.NumberFormat("en-US", { style: "currency", currency: input })
    .resolvedOptions().maximumFractionDigits ?? 2;
  return ok({ code: input, minorDigits });
}

/**
 * A transfer or payment amount: positive, at most 2 decimals, and no more decimals than the
 * currency has (a JPY amount is whole).
 */
export function parseProviderAmount(
  input: string | number,
  currency: CurrencyInfo,
  field = "amount",
): Result<Minor> {
  const parsed = parsePositiveMoney(input, field);
  if (!parsed.ok) return parsed;
  const unitsPerMajor = 10n ** BigInt(2 - Math.min(currency.minorDigits, 2));
  if (parsed.value % unitsPerMajor !== 0n) {
    return err("money_precision", `Amount must be a whole number of ${currency.code}`, field);
  }
  return parsed;
}

/** "123456789" → "****6789"; never reveals more than half of a short number. */
export function maskAccountNumber(accountNumber: string): string {
  const visible = Math.min(ACCOUNT_MASK_VISIBLE_DIGITS, Math.floor(accountNumber.length / 2));
  return ACCOUNT_MASK + (visible > 0 ? accountNumber.slice(-visible) : "");
}

/** Visa Direct pushes funds to Visa cards: their numbers start with the Visa major industry identifier 4. */
export function isVisaCardNumber(cardNumber: string): boolean {
  return cardNumber.startsWith("4");
}

/**
 * What the console can say of a provider: "sandbox" when no credentials are configured (the built-in
 * sandbox answers and no money moves), and for a live provider what its latest call showed:
 * "operational" when the provider answered (an approval or a refusal of the request alike),
 * "unavailable" when it could not be reached or failed, "unverified" before any call.
 */
export const PROVIDER_HEALTHS = ["sandbox", "operational", "unavailable", "unverified"] as const;
export type ProviderHealth = typeof PROVIDER_HEALTHS[number];

export const PROVIDER_HEALTH_LABELS: Readonly<Record<ProviderHealth, string>> = {
  sandbox: "Sandbox",
  operational: "Operational",
  unavailable: "Unavailable",
  unverified: "Not Yet Verified",
};

/** How a provider call ended, as its audit row records it. */
export type ProviderCallOutcome = "succeeded" | "rejected" | "unavailable";

export function providerHealth(
  mode: "sandbox" | "live",
  latestLiveOutcome: ProviderCallOutcome | null,
): ProviderHealth {
  if (mode === "sandbox") return "sandbox";
  if (latestLiveOutcome === null) return "unverified";
  return latestLiveOutcome === "unavailable" ? "unavailable" : "operational";
}
