/** Request bodies of the card endpoints (spec 3 forms, 5 rules, 9 defaults). */
import { z } from "zod";
import { CARD_BRANDS, CARD_TYPES, DISTRIBUTION_METHODS, FUNDING_SOURCES } from "../../../../db/schema.ts";
import { parseNonNegativeMoney, parsePositiveMoney } from "../../../domain/money.ts";
import { decimalInput, type MoneyRule, requiredText, resultValue } from "../../http/validation.ts";
import { DEFAULT_FUNDING_SOURCE } from "./funding_sources.ts";

export const MAX_CARDHOLDER_NAME_LENGTH = 255;
export const MAX_EMAIL_LENGTH = 255;
/** Limits are 32-bit integers (spec 5). */
export const MAX_CARD_LIMIT = 2_147_483_647;
export const DEFAULT_SPENDING_LIMIT = 10_000;
export const DEFAULT_DAILY_LIMIT = 1_000;
export const DISTRIBUTION_CARD_TYPES = ["prepaid", "debit"] as const satisfies readonly (typeof CARD_TYPES)[number][];
export const MAX_CARD_ID_LENGTH = 64;

const isBlank = (value: unknown) => value === null || value === "";

/** A whole, non-negative limit; blank ("" or null) becomes 0, a missing field the form's default. */
const cardLimit = (fallback: number) =>
  z.preprocess(
    (value) => {
      if (isBlank(value)) return 0;
      if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) return Number(value);
      return value;
    },
    z.number().int().min(0).max(MAX_CARD_LIMIT),
  ).default(fallback);

/** Decimal money (string or number) parsed exactly into minor units. */
function money(rule: MoneyRule, label: string) {
  return decimalInput(label).transform((value, ctx) => Number(resultValue(rule(value, label), ctx)));
}

/** An optional funding amount: missing or blank means no funding. */
const optionalFunding = (label: string) =>
  z.preprocess((value) => (isBlank(value) ? undefined : value), money(parseNonNegativeMoney, label).optional())
    .transform((minor) => minor ?? 0);

export const issueCardSchema = z.object({
  cardholderName: requiredText(MAX_CARDHOLDER_NAME_LENGTH),
  cardType: z.enum(CARD_TYPES).default("prepaid"),
  cardBrand: z.enum(CARD_BRANDS).default("visa"),
  spendingLimit: cardLimit(DEFAULT_SPENDING_LIMIT),
  dailyLimit: cardLimit(DEFAULT_DAILY_LIMIT),
  initialBalance: optionalFunding("Initial balance"),
});
export type IssueCardInput = z.infer<typeof issueCardSchema>;

export const distributeCardSchema = z.object({
  recipientInfo: z.object({
    name: requiredText(MAX_CARDHOLDER_NAME_LENGTH),
    email: z.string().trim().max(MAX_EMAIL_LENGTH).pipe(z.email()),
  }),
  cardType: z.enum(DISTRIBUTION_CARD_TYPES).default("prepaid"),
  cardBrand: z.enum(CARD_BRANDS).default("visa"),
  distributionMethod: z.enum(DISTRIBUTION_METHODS).default("digital"),
  loadAmount: optionalFunding("Load amount"),
});
export type DistributeCardInput = z.infer<typeof distributeCardSchema>;

export const loadCardSchema = z.object({
  amount: money(parsePositiveMoney, "Amount"),
  fundingSource: z.enum(FUNDING_SOURCES).default(DEFAULT_FUNDING_SOURCE),
});
export type LoadCardInput = z.infer<typeof loadCardSchema>;

export const cardIdParam = z.object({ cardId: z.string().min(1).max(MAX_CARD_ID_LENGTH) });
