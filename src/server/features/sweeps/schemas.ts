/** Request shapes of the balance-sweep endpoints (spec 3 balance_sweeps, 5 "Sweep", 7). */
import { z } from "zod";
import { type Minor, parsePositiveMoney } from "../../../domain/money.ts";
import { optionalText, paginationQuery } from "../../validation.ts";

export const MAX_ID_LENGTH = 64;
export const MAX_SWEEP_REASON_LENGTH = 1_000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Visible ASCII only, so a key survives proxies and logs unchanged. */
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]+$/;

const accountId = z.string().trim().min(1, "Required").max(MAX_ID_LENGTH);

/**
 * A manual sweep. Only "manual" is accepted as sweepType: "threshold" and "scheduled" sweeps are
 * recorded by the server's own automatic runs, so a client cannot label a hand-made sweep as one.
 */
export const createSweepSchema = z.object({
  sourceAccountId: accountId,
  targetAccountId: accountId,
  sweepAmount: z.union([z.string(), z.number()]).transform((value, ctx): Minor => {
    const parsed = parsePositiveMoney(value, "sweepAmount");
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: parsed.error.message });
      return z.NEVER;
    }
    return parsed.value;
  }),
  sweepType: z.literal("manual").default("manual"),
  sweepReason: optionalText(MAX_SWEEP_REASON_LENGTH),
});

export type CreateSweepInput = z.output<typeof createSweepSchema>;

export const idempotencyKeySchema = z.string().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH).regex(
  IDEMPOTENCY_KEY_PATTERN,
  "Idempotency-Key must be visible ASCII characters",
);

export const sweepIdParam = z.object({ id: z.string().min(1).max(MAX_ID_LENGTH) });

export const listSweepsQuery = paginationQuery;

export const countSweepsQuery = z.object({
  since: z.iso.datetime({ offset: true }),
});

/** A plan's fingerprint: the SHA-256 (hex) of its moves, as GET /balance-sweeps/auto-sweep/plan answers it. */
const PLAN_ID_PATTERN = /^[0-9a-f]{64}$/;

/**
 * The automatic sweep's optional body. With `planId` the run goes ahead only if it would make
 * exactly the moves of that plan (the one the user confirmed); without it, it sweeps as planned now.
 */
export const autoSweepBodySchema = z.object({
  planId: z.string().regex(PLAN_ID_PATTERN, "Not a plan id from the auto-sweep plan").optional(),
});
