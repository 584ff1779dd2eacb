/** Request shapes of the approval queue and the approval settings. */
import { z } from "zod";
import { CURRENCIES } from "../../../../db/schema.ts";
import {
  APPROVAL_KINDS,
  MAX_REASON_LENGTH,
  MAX_REQUEST_TTL_MINUTES,
  MIN_REQUEST_TTL_MINUTES,
} from "../../../domain/approval.ts";
import { parseNonNegativeMoney } from "../../../domain/money.ts";
import { sortingFields } from "../../http/list_sorting.ts";
import { moneyAmount, paginationQuery } from "../../http/validation.ts";

/** The currencies accounts are held in: each has its own approval threshold. */
export const CURRENCY_CODES = CURRENCIES;

/** The columns the queue can be ordered by (the sortable table). */
export const APPROVAL_SORT_KEYS = ["requestedAt", "kind", "amount", "requester", "status"] as const;
export type ApprovalSortKey = (typeof APPROVAL_SORT_KEYS)[number];

export const listApprovalsQuery = paginationQuery.extend({
  status: z.enum(["pending", "approved", "rejected", "cancelled", "expired"]).optional(),
  kind: z.enum(APPROVAL_KINDS).optional(),
  /** "me": only the caller's own requests. */
  requestedBy: z.literal("me").optional(),
  /** Ties and the unsorted queue: newest first. */
  ...sortingFields(APPROVAL_SORT_KEYS),
});
export type ListApprovalsQuery = z.output<typeof listApprovalsQuery>;

export const approvalIdParam = z.object({ id: z.string().uuid("Invalid request id") });

export const decisionSchema = z.object({
  reason: z.string({ error: "Required" }).trim().min(1, "Give a reason for the decision").max(
    MAX_REASON_LENGTH,
  ),
});

const thresholdAmount = moneyAmount(parseNonNegativeMoney);

export const updateSettingsSchema = z.object({
  thresholds: z.partialRecord(z.enum(CURRENCY_CODES), thresholdAmount).optional(),
  expiryMinutes: z.number().int().min(MIN_REQUEST_TTL_MINUTES).max(MAX_REQUEST_TTL_MINUTES).optional(),
}).refine((body) => body.thresholds !== undefined || body.expiryMinutes !== undefined, {
  message: "Give thresholds or expiryMinutes",
  path: ["body"],
});
export type UpdateSettingsInput = z.output<typeof updateSettingsSchema>;
