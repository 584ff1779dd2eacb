/**
 * Request shapes of the fintech endpoints (spec 7). Shape only: the rules on the values (ABA
 * checksum, Luhn, amounts, currencies) are the domain's, applied by the service with reasons.
 */
import { z } from "zod";
import { CENTRAL_BANK_MERCHANT_NAME, MAX_MERCHANT_NAME_LENGTH } from "../../../domain/fintech.ts";
import { decimalInput, requiredText } from "../../http/validation.ts";

/** Long enough for any account number, routing number or card number with separators typed in. */
const MAX_NUMBER_INPUT_LENGTH = 40;
/** Plaid account ids are opaque strings of a few dozen characters. */
export const MAX_PROVIDER_ACCOUNT_ID_LENGTH = 100;
/** Visa Direct's senderAccountNumber holds at most 34 characters. */
export const MAX_SENDER_ACCOUNT_ID_LENGTH = 34;
export const DEFAULT_CURRENCY = "USD";
export const DEFAULT_MERCHANT_NAME = CENTRAL_BANK_MERCHANT_NAME;
const ACCOUNT_ID = /^[A-Za-z0-9_-]+$/;

const accountId = (max: number) =>
  requiredText(max).regex(ACCOUNT_ID, "Must contain only letters, digits, '-' and '_'");

const amountInput = decimalInput("Amount");

const currency = z.string().trim().default(DEFAULT_CURRENCY);

/** `merchantInfo` as a label or as `{ name }`; blank means the default label. */
const merchantInfo = z.preprocess(
  (value) => {
    const name = value !== null && typeof value === "object" && "name" in value ? value.name : value;
    return name === null || name === "" ? DEFAULT_MERCHANT_NAME : name;
  },
  requiredText(MAX_MERCHANT_NAME_LENGTH),
).default(DEFAULT_MERCHANT_NAME);

export const verifyAccountSchema = z.object({
  accountNumber: requiredText(MAX_NUMBER_INPUT_LENGTH),
  routingNumber: requiredText(MAX_NUMBER_INPUT_LENGTH),
});
export type VerifyAccountInput = z.infer<typeof verifyAccountSchema>;

export const checkBalanceSchema = z.object({
  accountId: accountId(MAX_PROVIDER_ACCOUNT_ID_LENGTH),
});
export type CheckBalanceInput = z.infer<typeof checkBalanceSchema>;

export const directTransferSchema = z.object({
  recipientCard: requiredText(MAX_NUMBER_INPUT_LENGTH),
  amount: amountInput,
  currency,
});
export type DirectTransferInput = z.infer<typeof directTransferSchema>;

export const pushPaymentSchema = z.object({
  accountId: accountId(MAX_SENDER_ACCOUNT_ID_LENGTH),
  cardNumber: requiredText(MAX_NUMBER_INPUT_LENGTH),
  amount: amountInput,
  currency,
  merchantInfo,
});
export type PushPaymentInput = z.infer<typeof pushPaymentSchema>;
