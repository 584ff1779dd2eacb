/** Request shapes of the balance-sweep endpoints (spec 3 balance_sweeps, 5 "Sweep", 7). */
import { z } from "zod";
import { parsePositiveMoney } from "../../../domain/money.ts";
import { moneyAmount, optionalText, paginationQuery } from "../../http/validation.ts";

export const MAX_ID_LENGTH = 64;
export const MAX_SWEEP_REASON_LENGTH = 1_000;

const accountId = z.string().trim().min(1, "Required").max(MAX_ID_LENGTH);

/**
 * A manual sweep. Only "manual" is accepted as sweepType: "threshold" and "scheduled" sweeps are
 * recorded by the server's own automatic runs, so a client cannot label a hand-made sweep as one.
 */
export const createSweepSchema = z.object({
  sourceAccountId: accountId,
  targetAccountId: accountId,
  sweepAmount: moneyAmount(parsePositiveMoney, "sweepAmount"),
  sweepType: z.literal("manual").default("manual"),
  sweepReason: optionalText(MAX_SWEEP_REASON_LENGTH),
});

export type CreateSweepInput = z.output<typeof createSweepSchema>;

export const sweepIdParam = z.object({ id: z.string().min(1).max(MAX_ID_LENGTH) });

export const listSweepsQuery = paginationQuery;

export const countSweepsQuery = z.object({
  since: z.iso.datetime({ offset: true }),
});

/** A plan's fingerprint: the SHA-256 (hex) of its moves, as GET /balance-sweeps/auto-sweep/plan answers it. */
const PLAN_ID_PATTERN = /^[0-9a-f]{64}$/;

const planIdSchema = z.string().regex(PLAN_ID_PATTERN, "Not a plan id from the auto-sweep plan");

/**
 * The automatic sweep's optional body. Every run with moves is filed for approval with a plan: with
 * `planId`, the one the user confirmed; without it, the plan as it stands now. The run at approval
 * goes ahead only if it would make exactly that plan's moves.
 */
export const autoSweepBodySchema = z.object({ planId: planIdSchema.optional() });

/** At most this many moves in one automatic run's request (one per account that can sweep). */
export const MAX_AUTO_SWEEP_MOVES = 10_000;

/** An automatic run's stored approval request: the moves the approver is shown and approves. */
export const autoSweepRequestSchema = z.object({
  moves: z.array(z.object({
    sourceAccountId: accountId,
    targetAccountId: accountId,
    amount: moneyAmount(parsePositiveMoney, "amount"),
  })).min(1).max(MAX_AUTO_SWEEP_MOVES),
});
