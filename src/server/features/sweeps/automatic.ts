/**
 * Automatic sweeps: every active account whose balance exceeds its threshold sweeps exactly the
 * excess to its target liquid account. A run asked for by a person is filed for approval with the
 * moves it would make now (`previewAutoSweep`) and, approved, makes exactly those moves or none
 * (`runApprovedAutoSweep`); the scheduler's runs book at once (`autoSweepInTransaction`). Every run
 * reads the accounts inside its own transaction, so two runs can never sweep the same excess twice.
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { formatMoney } from "../../../domain/money.ts";
import {
  type ApprovedAutoSweepMove,
  planApprovedAutoSweeps,
  planAutoSweeps,
  type SweepAccount,
  type SweepPlan,
} from "../../../domain/sweep.ts";
import type { Actor } from "../../audit/trail.ts";
import type { Database, Queryable, Tx } from "../../db/database.ts";
import { AppError } from "../../http/errors.ts";
import { MOVED_ACCOUNT_COLUMNS, type MovedAccount } from "../ledger/journal.ts";
import { bookSweep, type Executor, money, type SweepDto, toSweepAccount } from "./booking.ts";

export type AutoSweepType = "threshold" | "scheduled";

/** How a run's sweep reason names the run. */
const RUN_LABEL: Record<AutoSweepType, string> = { threshold: "Automatic", scheduled: "Scheduled" };

export const AUTO_SWEEP_CHANGED_SINCE_REQUEST =
  "The accounts changed since this run was requested, so it can no longer make the moves approved; reject it and request a new run";

export const AUTO_SWEEP_PLAN_CHANGED =
  "The balances changed since this plan was shown; review the new plan before sweeping";

/** Every account, in the order the planner considers them (by account number), with its id as key. */
async function accountsInPlanOrder(db: Queryable) {
  const rows = await db.all<MovedAccount>(
    sql.raw(`SELECT ${MOVED_ACCOUNT_COLUMNS} FROM ledger_accounts ORDER BY account_number`),
  );
  return { rows, byId: new Map(rows.map((row) => [row.id, row])) };
}

/** Plans a run on the accounts as they are inside `tx` and books each of its sweeps. */
async function bookRun(
  tx: Tx,
  actor: Actor,
  executor: Executor,
  sweepType: AutoSweepType,
  plan: (accounts: SweepAccount[]) => SweepPlan[],
): Promise<SweepDto[]> {
  const { rows, byId } = await accountsInPlanOrder(tx);
  const sweeps: SweepDto[] = [];
  for (const planned of plan(rows.map(toSweepAccount))) {
    const source = byId.get(planned.sourceId)!;
    const target = byId.get(planned.targetId)!;
    sweeps.push(
      await bookSweep(tx, actor, executor, planned, { source, target }, {
        sweepType,
        sweepReason: `${RUN_LABEL[sweepType]} sweep of the balance above the threshold of ${
          money(source.sweepThresholdMinor ?? 0)
        } ${source.currency}`,
      }),
    );
  }
  return sweeps;
}

/** Plans and books one automatic run inside the caller's transaction (the scheduler's claim). */
export async function autoSweepInTransaction(
  tx: Tx,
  actor: Actor,
  executor: Executor,
  sweepType: AutoSweepType,
): Promise<SweepDto[]> {
  return await bookRun(tx, actor, executor, sweepType, planAutoSweeps);
}

/**
 * Executes the moves of an approved automatic run (domain `planApprovedAutoSweeps`), planned on the
 * accounts as they are inside this transaction; any move that no longer holds refuses the whole
 * run with 422, moving nothing.
 */
export async function runApprovedAutoSweep(
  db: Database,
  actor: Actor,
  executor: Executor,
  moves: readonly ApprovedAutoSweepMove[],
): Promise<SweepDto[]> {
  return await db.transaction((tx) =>
    bookRun(tx, actor, executor, "threshold", (accounts) => {
      const plans = planApprovedAutoSweeps(accounts, moves);
      if (plans === null) {
        throw new AppError("unprocessable", AUTO_SWEEP_CHANGED_SINCE_REQUEST, {
          extra: { reason: "plan_changed" },
        });
      }
      return plans;
    })
  );
}

/** The fingerprint of a run's moves: which account sends how much where, in order. */
function autoSweepPlanId(plans: readonly SweepPlan[]): string {
  const text = plans.map((plan) => `${plan.sourceId}>${plan.targetId}:${plan.amountMinor}`).join("\n");
  return createHash("sha256").update(text).digest("hex");
}

/** What a run would sweep now, planned on the balances as they stand, and its fingerprint. */
async function currentRun(db: Queryable) {
  const { rows, byId } = await accountsInPlanOrder(db);
  const plans = planAutoSweeps(rows.map(toSweepAccount));
  return { planId: autoSweepPlanId(plans), byId, plans };
}

/**
 * What an automatic run would sweep now (the run itself plans again inside its own transaction):
 * for the four-eyes decision and the approval queue.
 */
export async function previewAutoSweep(db: Queryable): Promise<{
  planId: string;
  sweeps: (ApprovedAutoSweepMove & { currency: string; sourceNumber: string; targetNumber: string })[];
}> {
  const { planId, byId, plans } = await currentRun(db);
  return {
    planId,
    sweeps: plans.map((plan) => ({
      sourceId: plan.sourceId,
      targetId: plan.targetId,
      currency: byId.get(plan.sourceId)!.currency,
      amountMinor: plan.amountMinor,
      sourceNumber: byId.get(plan.sourceId)!.accountNumber,
      targetNumber: byId.get(plan.targetId)!.accountNumber,
    })),
  };
}

export interface AutoSweepPlanMove {
  sourceAccountNumber: string;
  sourceAccountName: string;
  targetAccountNumber: string;
  targetAccountName: string;
  currency: string;
  /** Decimal string, e.g. "1250.00". */
  amount: string;
}

export interface AutoSweepPlanDto {
  planId: string;
  sweeps: AutoSweepPlanMove[];
  totals: { currency: string; amount: string }[];
}

/**
 * What an automatic run would move now, without moving anything, for the screen: the same planner
 * over the same accounts in the same order as the run itself. Confirming sends back `planId`, and
 * the request is refused if the plan has changed in between.
 */
export async function autoSweepPlan(db: Queryable): Promise<AutoSweepPlanDto> {
  const { planId, byId, plans } = await currentRun(db);
  const totals = new Map<string, bigint>();
  const sweeps = plans.map((plan) => {
    const source = byId.get(plan.sourceId)!;
    const target = byId.get(plan.targetId)!;
    totals.set(source.currency, (totals.get(source.currency) ?? 0n) + plan.amountMinor);
    return {
      sourceAccountNumber: source.accountNumber,
      sourceAccountName: source.accountName,
      targetAccountNumber: target.accountNumber,
      targetAccountName: target.accountName,
      currency: source.currency,
      amount: formatMoney(plan.amountMinor),
    };
  });
  return {
    planId,
    sweeps,
    totals: [...totals].sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, minor]) => ({ currency, amount: formatMoney(minor) })),
  };
}
