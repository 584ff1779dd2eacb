/** Request bodies of the ledger-account endpoints (spec 3 ledger_accounts, 5 "Ledger account", 7). */
import { z } from "zod";
import { ACCOUNT_STATUSES, ACCOUNT_TYPES, CURRENCIES } from "../../../../db/schema.ts";
import { parseNonNegativeMoney } from "../../../domain/money.ts";
import { moneyAmount, requiredText } from "../../http/validation.ts";

export const MAX_ACCOUNT_NUMBER_LENGTH = 34;
export const MAX_ACCOUNT_NAME_LENGTH = 255;
export const MAX_ID_LENGTH = 64;

/**
 * Account numbers end up in ISO 20022 messages (Max34Text) and in exports, so they are limited to
 * characters every downstream format carries unchanged.
 */
const ACCOUNT_NUMBER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._/-]*$/;
// deno-lint-ignore no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** Optional reference to another row: blank or null means none. */
const optionalId = z.string().trim().max(MAX_ID_LENGTH).nullish().transform((value) => value || null);

export const createAccountSchema = z.object({
  accountNumber: requiredText(MAX_ACCOUNT_NUMBER_LENGTH).regex(
    ACCOUNT_NUMBER_PATTERN,
    "Account number may contain letters, digits, spaces and . _ / - only",
  ),
  accountType: z.enum(ACCOUNT_TYPES),
  accountName: requiredText(MAX_ACCOUNT_NAME_LENGTH).refine(
    (value) => !CONTROL_CHARACTERS.test(value),
    "Account name must not contain control characters",
  ),
  currency: z.enum(CURRENCIES).default("USD"),
  accountStatus: z.enum(ACCOUNT_STATUSES).default("active"),
  /** The opening balance; absent means 0.00 (the dialog's default). */
  currentBalance: moneyAmount(parseNonNegativeMoney, "currentBalance").default(0n),
  sweepThreshold: z.union([
    z.literal("").transform(() => null),
    z.null().transform(() => null),
    moneyAmount(parseNonNegativeMoney, "sweepThreshold"),
  ]).optional().transform((value) => value ?? null),
  targetLiquidAccount: optionalId,
  institutionId: optionalId,
  nationalRoutingId: optionalId,
});

export type CreateAccountInput = z.output<typeof createAccountSchema>;

export const accountIdParam = z.object({ id: z.string().trim().min(1).max(MAX_ID_LENGTH) });

/** `{"dailyOutflowLimit": "500000.00"}` sets the limit in the account's currency; `null` removes it. */
export const dailyOutflowLimitSchema = z.object({
  dailyOutflowLimit: z.union([z.null(), moneyAmount(parseNonNegativeMoney, "dailyOutflowLimit")]),
});
