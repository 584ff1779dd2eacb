/**
 * Balance sweeps: manual sweeps (with Idempotency-Key replay), automatic sweeps of the excess over
 * each account's threshold, and the reads behind the list, detail and ISO 20022 views.
 *
 * Every sweep is written inside one transaction that plans with the pure rules of
 * src/domain/sweep.ts on balances read inside that transaction, books both sides through the
 * shared journal (`moveBalances`, which also stamps lastSweepDate), inserts the sweep row with the
 * before/after balances of both accounts and writes the sweep's single audit row. A manual sweep
 * moves first and plans on the balances the journal's UPDATE read back, rolling back if the plan
 * rejects; automatic runs read every account first. Write transactions are serialised (one writer
 * per process behind a mutex, BEGIN IMMEDIATE across processes), so a plan is never made on stale
 * balances.
 */
import { createHash } from "node:crypto";
import { and, asc, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import {
  balanceSweeps,
  institutions,
  ledgerAccounts,
  nationalRoutingRegistry,
  swiftCodes,
  users,
} from "../../../../db/schema.ts";
import { formatMoney } from "../../../domain/money.ts";
import { fillBuckets, lastDays } from "../../../domain/time_buckets.ts";
import {
  type ApprovedAutoSweepMove,
  planApprovedAutoSweeps,
  planAutoSweeps,
  planManualSweep,
  type SweepAccount,
  type SweepPlan,
} from "../../../domain/sweep.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import {
  type Database,
  inSavepoint,
  type Queryable,
  statementsOf,
  type Writer,
} from "../../db/database.ts";
import type { Statements } from "../../db/statements.ts";
import { AppError, fromDomainError, notFound } from "../../http/errors.ts";
import { databaseInTransaction } from "../approvals/four_eyes.ts";
import {
  type BalanceMoveResult,
  moveBalances,
  MOVED_ACCOUNT_COLUMNS,
  type MovedAccount,
  tryMoveBalances,
} from "../ledger/journal.ts";
import type { CreateSweepInput } from "./schemas.ts";

export const SWEEP_AUDIT_ENTITY = "balance_sweep";
export const SWEEP_AUDIT_ACTION = "execute";
const TRANSACTION_REFERENCE_PREFIX = "SWP";
/** Hex digits of the sweep id in its reference; keeps the reference within ISO 20022 Max35Text. */
const REFERENCE_ID_HEX_DIGITS = 20;

type AccountRow = typeof ledgerAccounts.$inferSelect;
type SweepRow = typeof balanceSweeps.$inferSelect;
export type AutoSweepType = "threshold" | "scheduled";

/** Who executes a sweep, with the names the sweep lists show; `approvedBy` when a second person approved it. */
export interface Executor {
  userId: string;
  firstName: string | null;
  lastName: string | null;
  /** Shown where the user has no name. */
  email: string;
  approvedBy?: string | null;
}

export interface SweepDto {
  id: string;
  sweepType: SweepRow["sweepType"];
  sourceAccountId: string;
  targetAccountId: string;
  currency: string;
  sweepAmount: string;
  sourceBalanceBefore: string;
  sourceBalanceAfter: string;
  targetBalanceBefore: string;
  targetBalanceAfter: string;
  sweepStatus: SweepRow["sweepStatus"];
  sweepReason: string | null;
  transactionReference: string | null;
  settlementDate: string | null;
  executedAt: string;
  executedBy: string | null;
  approvedBy: string | null;
  metadata: unknown;
  sourceAccount: { accountName: string; accountNumber: string };
  targetAccount: { accountName: string; accountNumber: string };
  executedByUser: { firstName: string | null; lastName: string | null; email: string } | null;
}

/** The response of a sweep request: what the client gets now and on every retry with its key. */
export interface SweepOutcome {
  /** 202: the sweep needs a second person and was filed as an approval request. */
  status: 201 | 202 | 400 | 404 | 422;
  /** The JSON body exactly as first sent, so a replay is byte-identical. */
  bodyJson: string;
  replayed: boolean;
}

const money = (minor: number) => formatMoney(BigInt(minor));

function toSweepAccount(row: MovedAccount): SweepAccount {
  return {
    id: row.id,
    accountType: row.accountType,
    currency: row.currency,
    accountStatus: row.accountStatus,
    currentBalanceMinor: BigInt(row.currentBalanceMinor),
    availableBalanceMinor: BigInt(row.availableBalanceMinor),
    sweepThresholdMinor: row.sweepThresholdMinor === null ? null : BigInt(row.sweepThresholdMinor),
    targetLiquidAccountId: row.targetLiquidAccount,
  };
}

function toSweepDto(
  row: SweepRow,
  source: Pick<AccountRow, "accountName" | "accountNumber" | "currency">,
  target: Pick<AccountRow, "accountName" | "accountNumber">,
  executor: { firstName: string | null; lastName: string | null; email: string } | null,
): SweepDto {
  return {
    id: row.id,
    sweepType: row.sweepType,
    sourceAccountId: row.sourceAccountId,
    targetAccountId: row.targetAccountId,
    currency: source.currency,
    sweepAmount: money(row.sweepAmountMinor),
    sourceBalanceBefore: money(row.sourceBalanceBeforeMinor),
    sourceBalanceAfter: money(row.sourceBalanceAfterMinor),
    targetBalanceBefore: money(row.targetBalanceBeforeMinor),
    targetBalanceAfter: money(row.targetBalanceAfterMinor),
    sweepStatus: row.sweepStatus,
    sweepReason: row.sweepReason,
    transactionReference: row.transactionReference,
    settlementDate: row.settlementDate,
    executedAt: row.executedAt,
    executedBy: row.executedBy,
    approvedBy: row.approvedBy,
    metadata: row.metadata,
    sourceAccount: { accountName: source.accountName, accountNumber: source.accountNumber },
    targetAccount: { accountName: target.accountName, accountNumber: target.accountNumber },
    executedByUser: executor
      ? { firstName: executor.firstName, lastName: executor.lastName, email: executor.email }
      : null,
  };
}

/** "SWP-20250107-3F2B8C1E6A7D4E2F9B1A": unique (the sweep id's digits) and at most 35 characters. */
export function transactionReferenceFor(sweepId: string, executedAt: string): string {
  const day = executedAt.slice(0, 10).replaceAll("-", "");
  const digits = sweepId.replaceAll("-", "").slice(0, REFERENCE_ID_HEX_DIGITS).toUpperCase();
  return `${TRANSACTION_REFERENCE_PREFIX}-${day}-${digits}`;
}

interface SweepDetails {
  sweepType: SweepRow["sweepType"];
  sweepReason: string | null;
}

function sweepMoves(id: string, actor: Actor, sourceId: string, targetId: string, amountMinor: number) {
  const move = { referenceType: "sweep" as const, referenceId: id, performedBy: actor.userId };
  return [
    { ...move, accountId: sourceId, amountMinor: -amountMinor, entryType: "sweep_out" as const },
    { ...move, accountId: targetId, amountMinor, entryType: "sweep_in" as const },
  ];
}

/**
 * Books a planned sweep: both journal entries (which stamp lastSweepDate on both accounts), the
 * sweep row and the audit row.
 */
async function recordSweep(
  statements: Statements,
  actor: Actor,
  executor: Executor,
  plan: SweepPlan,
  source: MovedAccount,
  target: MovedAccount,
  details: SweepDetails,
): Promise<SweepDto> {
  const id = crypto.randomUUID();
  const executedAt = new Date().toISOString();
  const [out, into] = await moveBalances(
    statements,
    sweepMoves(id, actor, plan.sourceId, plan.targetId, Number(plan.amountMinor)),
    { at: executedAt, stampLastSweepDate: true },
  );
  return await writeSweep(statements, actor, executor, {
    id,
    executedAt,
    plan,
    out,
    into,
    source,
    target,
    details,
  });
}

/**
 * Writes the sweep row and its audit row for moves already journaled. Throws if the journal
 * disagrees with the plan, which would mean the balances changed under the caller's transaction:
 * a broken invariant, never a user error.
 */
async function writeSweep(statements: Statements, actor: Actor, executor: Executor, booked: {
  id: string;
  executedAt: string;
  plan: SweepPlan;
  out: BalanceMoveResult;
  into: BalanceMoveResult;
  source: MovedAccount;
  target: MovedAccount;
  details: SweepDetails;
}): Promise<SweepDto> {
  const { id, executedAt, plan, out, into, details } = booked;
  if (
    BigInt(out.balanceBeforeMinor) !== plan.sourceBalanceBefore ||
    BigInt(out.balanceAfterMinor) !== plan.sourceBalanceAfter ||
    BigInt(into.balanceBeforeMinor) !== plan.targetBalanceBefore ||
    BigInt(into.balanceAfterMinor) !== plan.targetBalanceAfter
  ) {
    throw new Error(`Sweep ${id}: journal balances differ from the plan made in the same transaction`);
  }
  const row: SweepRow = {
    id,
    sweepType: details.sweepType,
    sourceAccountId: plan.sourceId,
    targetAccountId: plan.targetId,
    sweepAmountMinor: Number(plan.amountMinor),
    sourceBalanceBeforeMinor: out.balanceBeforeMinor,
    sourceBalanceAfterMinor: out.balanceAfterMinor,
    targetBalanceBeforeMinor: into.balanceBeforeMinor,
    targetBalanceAfterMinor: into.balanceAfterMinor,
    sweepStatus: "completed",
    sweepReason: details.sweepReason,
    transactionReference: transactionReferenceFor(id, executedAt),
    settlementDate: executedAt.slice(0, 10),
    executedAt,
    executedBy: executor.userId,
    approvedBy: executor.approvedBy ?? null,
    metadata: { ledgerEntryIds: { sweepOut: out.entryId, sweepIn: into.entryId } },
  };
  await statements.run(
    `INSERT INTO balance_sweeps (id, sweep_type, source_account_id, target_account_id,
      sweep_amount_minor, source_balance_before_minor, source_balance_after_minor,
      target_balance_before_minor, target_balance_after_minor, sweep_status, sweep_reason,
      transaction_reference, settlement_date, executed_at, executed_by, approved_by, metadata)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      row.id,
      row.sweepType,
      row.sourceAccountId,
      row.targetAccountId,
      row.sweepAmountMinor,
      row.sourceBalanceBeforeMinor,
      row.sourceBalanceAfterMinor,
      row.targetBalanceBeforeMinor,
      row.targetBalanceAfterMinor,
      row.sweepStatus,
      row.sweepReason,
      row.transactionReference,
      row.settlementDate,
      row.executedAt,
      row.executedBy,
      row.approvedBy,
      JSON.stringify(row.metadata),
    ],
  );
  const dto = toSweepDto(row, booked.source, booked.target, executor);
  await recordAudit(statements, actor, {
    entityType: SWEEP_AUDIT_ENTITY,
    entityId: id,
    action: SWEEP_AUDIT_ACTION,
    changes: {
      before: {
        source: { accountId: plan.sourceId, currentBalance: dto.sourceBalanceBefore },
        target: { accountId: plan.targetId, currentBalance: dto.targetBalanceBefore },
      },
      after: dto,
    },
  });
  return dto;
}

/** The journal refused a move of a manual sweep: the attempt rolls back and is planned from a fresh read. */
class MoveRefused extends Error {}

/** The account as it was just before `move` changed it by `amountMinor`. */
function accountBefore(move: BalanceMoveResult, amountMinor: number): SweepAccount {
  const account = toSweepAccount(move.account);
  return {
    ...account,
    currentBalanceMinor: BigInt(move.balanceBeforeMinor),
    availableBalanceMinor: account.availableBalanceMinor - BigInt(amountMinor),
  };
}

/**
 * A manual sweep without a separate read: the journal's one guarded UPDATE moves both balances and
 * reads both accounts back, and the plan is made on the balances they held just before, in the
 * same transaction. A rejected plan throws, so the caller's rollback undoes the moves; a refused
 * move throws MoveRefused for `planAndBookManualSweep` to explain.
 */
async function bookManualSweep(
  statements: Statements,
  actor: Actor,
  executor: Executor,
  input: CreateSweepInput,
) {
  const amountMinor = Number(input.sweepAmount);
  if (
    input.sourceAccountId === input.targetAccountId || !Number.isSafeInteger(amountMinor) || amountMinor <= 0
  ) {
    throw new MoveRefused();
  }
  const id = crypto.randomUUID();
  const executedAt = new Date().toISOString();
  const moved = await tryMoveBalances(
    statements,
    sweepMoves(id, actor, input.sourceAccountId, input.targetAccountId, amountMinor),
    { at: executedAt, stampLastSweepDate: true },
  );
  if (!moved.ok) throw new MoveRefused();
  const [out, into] = moved.results;
  const planned = planManualSweep({
    source: accountBefore(out, -amountMinor),
    target: accountBefore(into, amountMinor),
    amountMinor: input.sweepAmount,
  });
  if (!planned.ok) throw fromDomainError(planned.error);
  return await writeSweep(statements, actor, executor, {
    id,
    executedAt,
    plan: planned.value,
    out,
    into,
    source: out.account,
    target: into.account,
    details: { sweepType: input.sweepType, sweepReason: input.sweepReason },
  });
}

/** Reads both accounts, plans, and books the sweep or throws the plan's rejection. */
async function planAndBookManualSweep(
  statements: Statements,
  actor: Actor,
  executor: Executor,
  input: CreateSweepInput,
) {
  const rows = await statements.all<MovedAccount>(
    `SELECT ${MOVED_ACCOUNT_COLUMNS} FROM ledger_accounts WHERE id IN (?, ?)`,
    [input.sourceAccountId, input.targetAccountId],
  );
  const source = rows.find((row) => row.id === input.sourceAccountId);
  const target = rows.find((row) => row.id === input.targetAccountId);
  if (!source) throw fieldNotFound("sourceAccountId", "Source account");
  if (!target) throw fieldNotFound("targetAccountId", "Target account");
  const planned = planManualSweep({
    source: toSweepAccount(source),
    target: toSweepAccount(target),
    amountMinor: input.sweepAmount,
  });
  if (!planned.ok) throw fromDomainError(planned.error);
  return await recordSweep(statements, actor, executor, planned.value, source, target, {
    sweepType: input.sweepType,
    sweepReason: input.sweepReason,
  });
}

/** Runs `fn` in a transaction or savepoint that rolls back when `fn` throws. */
type Atomic = <T>(fn: (statements: Statements) => Promise<T>) => Promise<T>;

async function performManualSweep(atomic: Atomic, actor: Actor, executor: Executor, input: CreateSweepInput) {
  try {
    return await atomic((statements) => bookManualSweep(statements, actor, executor, input));
  } catch (error) {
    if (!(error instanceof MoveRefused)) throw error;
  }
  // Nothing of the attempt is left; if the balances changed since, the sweep may now be booked.
  return await atomic((statements) => planAndBookManualSweep(statements, actor, executor, input));
}

/**
 * What an automatic run would sweep now, planned on the balances as they stand (the run itself plans
 * again inside its own transaction): for the four-eyes decision and the approval queue.
 */
export async function previewAutoSweep(db: Database): Promise<{
  planId: string;
  sweeps: (ApprovedAutoSweepMove & { currency: string; sourceNumber: string; targetNumber: string })[];
}> {
  const rows = await db.statements.all<MovedAccount>(
    `SELECT ${MOVED_ACCOUNT_COLUMNS} FROM ledger_accounts ORDER BY account_number`,
    [],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const plans = planAutoSweeps(rows.map(toSweepAccount));
  return {
    planId: autoSweepPlanId(plans),
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

/**
 * The currency of a requested sweep and what it would do to both balances as they stand, for the
 * four-eyes decision and the approval queue; null when an account does not exist (the sweep
 * itself then answers 404).
 */
export async function describeManualSweep(
  db: Queryable,
  input: CreateSweepInput,
): Promise<{ currency: string; summary: Record<string, unknown> } | null> {
  const rows = await db.select().from(ledgerAccounts)
    .where(inArray(ledgerAccounts.id, [input.sourceAccountId, input.targetAccountId])).all();
  const source = rows.find((row) => row.id === input.sourceAccountId);
  const target = rows.find((row) => row.id === input.targetAccountId);
  if (!source || !target) return null;
  const amount = Number(input.sweepAmount);
  const side = (row: AccountRow, delta: number) => ({
    accountId: row.id,
    accountNumber: row.accountNumber,
    accountName: row.accountName,
    balanceBefore: money(row.currentBalanceMinor),
    balanceAfter: money(Math.max(0, row.currentBalanceMinor + delta)),
  });
  return {
    currency: source.currency,
    summary: {
      description: `Sweep ${money(amount)} ${source.currency} from ${source.accountNumber} to ${target.accountNumber}`,
      source: side(source, -amount),
      target: side(target, amount),
    },
  };
}

function fieldNotFound(field: string, what: string): AppError {
  const message = `${what} not found`;
  return new AppError("not_found", message, { field, fields: { [field]: message } });
}

/** SHA-256 over the normalised request, so "10" and "10.00" are the same request. */
export function hashSweepRequest(input: CreateSweepInput): string {
  const canonical = JSON.stringify([
    input.sourceAccountId,
    input.targetAccountId,
    input.sweepAmount.toString(),
    input.sweepType,
    input.sweepReason,
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}

const RECORDED_REJECTIONS = new Set([400, 404, 422]);

/**
 * Executes a manual sweep. With an idempotency key, the first outcome (success or rejection) is
 * stored in the same transaction and replayed for every later request with that key; the same key
 * with a different body is refused with 422. A rejected sweep runs inside a savepoint that is
 * rolled back, so it changes nothing but the stored outcome.
 */
export async function executeManualSweep(
  db: Database,
  actor: Actor,
  executor: Executor,
  input: CreateSweepInput,
  idempotencyKey: string | null,
): Promise<SweepOutcome> {
  if (idempotencyKey === null) {
    const dto = await performManualSweep((fn) => db.transaction((tx) => fn(statementsOf(tx))), actor, executor, input);
    return { status: 201, bodyJson: JSON.stringify(dto), replayed: false };
  }
  const requestHash = hashSweepRequest(input);
  return await db.transaction(async (tx) => {
    const statements = statementsOf(tx);
    const prior = await priorOutcome(statements, actor, idempotencyKey, requestHash);
    if (prior) return prior;
    let outcome: SweepOutcome;
    let sweepId: string | null = null;
    try {
      const atomic: Atomic = (fn) => inSavepoint(statements, () => fn(statements));
      const dto = await performManualSweep(atomic, actor, executor, input);
      sweepId = dto.id;
      outcome = { status: 201, bodyJson: JSON.stringify(dto), replayed: false };
    } catch (error) {
      if (!(error instanceof AppError) || !RECORDED_REJECTIONS.has(error.status)) throw error;
      outcome = {
        status: error.status as SweepOutcome["status"],
        bodyJson: JSON.stringify(error.toBody()),
        replayed: false,
      };
    }
    await storeOutcome(statements, actor, idempotencyKey, requestHash, outcome, sweepId);
    return outcome;
  });
}

/**
 * A keyed manual sweep that needs a second person: `file` files the approval request on the
 * database it is given (this transaction), and its 202 answer is stored under the key in the same
 * transaction, so a retry with the key replays that answer instead of filing a second request.
 * A key first used for a sweep that executed replays that sweep's answer instead.
 */
export async function fileManualSweepOnce(
  db: Database,
  actor: Actor,
  input: CreateSweepInput,
  idempotencyKey: string,
  file: (db: Database) => Promise<unknown>,
): Promise<SweepOutcome> {
  const requestHash = hashSweepRequest(input);
  return await db.transaction(async (tx) => {
    const statements = statementsOf(tx);
    const prior = await priorOutcome(statements, actor, idempotencyKey, requestHash);
    if (prior) return prior;
    const outcome: SweepOutcome = {
      status: 202,
      bodyJson: JSON.stringify(await file(databaseInTransaction(db, tx))),
      replayed: false,
    };
    await storeOutcome(statements, actor, idempotencyKey, requestHash, outcome, null);
    return outcome;
  });
}

/** The stored answer for this user's key; the same key with a different body is refused with 422. */
async function priorOutcome(
  statements: Statements,
  actor: Actor,
  idempotencyKey: string,
  requestHash: string,
): Promise<SweepOutcome | null> {
  const prior = await statements.get<{ requestHash: string; responseStatus: number; responseBody: string }>(
    `SELECT request_hash AS requestHash, response_status AS responseStatus, response_body AS responseBody
      FROM sweep_idempotency_keys WHERE user_id = ? AND idempotency_key = ?`,
    [actor.userId, idempotencyKey],
  );
  if (!prior) return null;
  if (prior.requestHash !== requestHash) {
    throw new AppError(
      "unprocessable",
      "Idempotency-Key was already used with a different request body",
      {
        extra: { reason: "idempotency_mismatch" },
      },
    );
  }
  return {
    status: prior.responseStatus as SweepOutcome["status"],
    bodyJson: prior.responseBody,
    replayed: true,
  };
}

async function storeOutcome(
  statements: Statements,
  actor: Actor,
  idempotencyKey: string,
  requestHash: string,
  outcome: SweepOutcome,
  sweepId: string | null,
): Promise<void> {
  await statements.run(
    `INSERT INTO sweep_idempotency_keys
      (user_id, idempotency_key, request_hash, response_status, response_body, sweep_id, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [
      actor.userId,
      idempotencyKey,
      requestHash,
      outcome.status,
      outcome.bodyJson,
      sweepId,
      new Date().toISOString(),
    ],
  );
}

/**
 * Plans and books one automatic run inside the caller's transaction: every active account whose
 * balance exceeds its threshold sweeps exactly the excess to its target liquid account. Accounts
 * are read here, inside the transaction, so two runs can never sweep the same excess twice.
 */
export async function autoSweepInTransaction(
  writer: Writer,
  actor: Actor,
  executor: Executor,
  sweepType: AutoSweepType,
): Promise<SweepDto[]> {
  const statements = statementsOf(writer);
  const rows = await statements.all<MovedAccount>(
    `SELECT ${MOVED_ACCOUNT_COLUMNS} FROM ledger_accounts ORDER BY account_number`,
    [],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const plans = planAutoSweeps(rows.map(toSweepAccount));
  const label = sweepType === "scheduled" ? "Scheduled" : "Automatic";
  const sweeps: SweepDto[] = [];
  for (const plan of plans) {
    const source = byId.get(plan.sourceId)!;
    const threshold = source.sweepThresholdMinor ?? 0;
    sweeps.push(
      await recordSweep(statements, actor, executor, plan, source, byId.get(plan.targetId)!, {
        sweepType,
        sweepReason: `${label} sweep of the balance above the threshold of ${
          money(threshold)
        } ${source.currency}`,
      }),
    );
  }
  return sweeps;
}

export const AUTO_SWEEP_CHANGED_SINCE_REQUEST =
  "The accounts changed since this run was requested, so it can no longer make the moves approved; reject it and request a new run";

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
  return await db.transaction(async (tx) => {
    const statements = statementsOf(tx);
    const rows = await statements.all<MovedAccount>(
      `SELECT ${MOVED_ACCOUNT_COLUMNS} FROM ledger_accounts ORDER BY account_number`,
      [],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    const plans = planApprovedAutoSweeps(rows.map(toSweepAccount), moves);
    if (plans === null) {
      throw new AppError("unprocessable", AUTO_SWEEP_CHANGED_SINCE_REQUEST, { extra: { reason: "plan_changed" } });
    }
    const sweeps: SweepDto[] = [];
    for (const plan of plans) {
      const source = byId.get(plan.sourceId)!;
      sweeps.push(
        await recordSweep(statements, actor, executor, plan, source, byId.get(plan.targetId)!, {
          sweepType: "threshold",
          sweepReason: `Automatic sweep of the balance above the threshold of ${
            money(source.sweepThresholdMinor ?? 0)
          } ${source.currency}`,
        }),
      );
    }
    return sweeps;
  });
}

export const AUTO_SWEEP_PLAN_CHANGED =
  "The balances changed since this plan was shown; review the new plan before sweeping";

/** The fingerprint of a run's moves: which account sends how much where, in order. */
function autoSweepPlanId(plans: readonly SweepPlan[]): string {
  const text = plans.map((plan) => `${plan.sourceId}>${plan.targetId}:${plan.amountMinor}`).join("\n");
  return createHash("sha256").update(text).digest("hex");
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
 * What an automatic run would move now, without moving anything: the same planner over the same
 * accounts in the same order as the run itself. Confirming sends back `planId`, and the run
 * refuses if its own plan has changed in between.
 */
export async function autoSweepPlan(db: Queryable): Promise<AutoSweepPlanDto> {
  const rows = await db.all<MovedAccount>(
    sql.raw(`SELECT ${MOVED_ACCOUNT_COLUMNS} FROM ledger_accounts ORDER BY account_number`),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const plans = planAutoSweeps(rows.map(toSweepAccount));
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
    planId: autoSweepPlanId(plans),
    sweeps,
    totals: [...totals].sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, minor]) => ({ currency, amount: formatMoney(minor) })),
  };
}

const sourceAccount = alias(ledgerAccounts, "source_account");
const targetAccount = alias(ledgerAccounts, "target_account");

function sweepsWithNames(db: Queryable) {
  return db.select({
    sweep: balanceSweeps,
    sourceName: sourceAccount.accountName,
    sourceNumber: sourceAccount.accountNumber,
    currency: sourceAccount.currency,
    targetName: targetAccount.accountName,
    targetNumber: targetAccount.accountNumber,
    executorId: users.id,
    executorFirstName: users.firstName,
    executorLastName: users.lastName,
    executorEmail: users.email,
  }).from(balanceSweeps)
    .innerJoin(sourceAccount, eq(sourceAccount.id, balanceSweeps.sourceAccountId))
    .innerJoin(targetAccount, eq(targetAccount.id, balanceSweeps.targetAccountId))
    .leftJoin(users, eq(users.id, balanceSweeps.executedBy));
}

type JoinedSweep = Awaited<ReturnType<ReturnType<typeof sweepsWithNames>["all"]>>[number];

function joinedToDto(row: JoinedSweep): SweepDto {
  return toSweepDto(
    row.sweep,
    { accountName: row.sourceName, accountNumber: row.sourceNumber, currency: row.currency },
    { accountName: row.targetName, accountNumber: row.targetNumber },
    row.executorId === null || row.executorEmail === null
      ? null
      : { firstName: row.executorFirstName, lastName: row.executorLastName, email: row.executorEmail },
  );
}

/** Newest first; rowid breaks ties between sweeps of the same millisecond. */
export async function listSweeps(
  db: Queryable,
  page: { limit: number; offset: number },
): Promise<SweepDto[]> {
  const rows = await sweepsWithNames(db)
    .orderBy(desc(balanceSweeps.executedAt), desc(sql`${balanceSweeps}.rowid`))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(joinedToDto);
}

export async function getSweep(db: Queryable, id: string): Promise<SweepDto> {
  const row = await sweepsWithNames(db).where(eq(balanceSweeps.id, id)).get();
  if (!row) throw notFound("Balance sweep");
  return joinedToDto(row);
}

export async function countSweepsSince(db: Queryable, sinceIso: string): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)` }).from(balanceSweeps)
    .where(and(eq(balanceSweeps.sweepStatus, "completed"), gte(balanceSweeps.executedAt, sinceIso)));
  return row?.count ?? 0;
}

/** An account as the ISO 20022 message names it: number, name, type and its institution's identity. */
export interface MessageAccount {
  accountNumber: string;
  accountName: string;
  accountType: string;
  currency: string;
  bic: string | null;
  institutionName: string | null;
}

async function messageAccount(db: Queryable, account: AccountRow): Promise<MessageAccount> {
  let bic: string | null = null;
  let institutionName: string | null = null;
  if (account.nationalRoutingId !== null) {
    const entry = await db.select({
      bic: nationalRoutingRegistry.swiftBicCode,
      name: nationalRoutingRegistry.institutionName,
    }).from(nationalRoutingRegistry).where(eq(nationalRoutingRegistry.id, account.nationalRoutingId)).get();
    bic = entry?.bic ?? null;
    institutionName = entry?.name ?? null;
  }
  if (account.institutionId !== null) {
    const institution = await db.select({ name: institutions.name }).from(institutions)
      .where(eq(institutions.id, account.institutionId)).get();
    institutionName ??= institution?.name ?? null;
    if (bic === null) {
      const code = await db.select({ bic: swiftCodes.bicCode }).from(swiftCodes)
        .where(and(eq(swiftCodes.institutionId, account.institutionId), eq(swiftCodes.status, "active")))
        .orderBy(asc(swiftCodes.createdAt)).limit(1).get();
      bic = code?.bic ?? null;
    }
  }
  return {
    accountNumber: account.accountNumber,
    accountName: account.accountName,
    accountType: account.accountType,
    currency: account.currency,
    bic,
    institutionName,
  };
}

export interface SweepMessageData {
  sweep: SweepRow;
  debtor: MessageAccount;
  creditor: MessageAccount;
}

/** What the camt.050 message needs; only completed sweeps moved liquidity, so only they have one. */
export async function loadSweepMessageData(db: Queryable, id: string): Promise<SweepMessageData> {
  const sweep = await db.select().from(balanceSweeps).where(eq(balanceSweeps.id, id)).get();
  if (!sweep) throw notFound("Balance sweep");
  if (sweep.sweepStatus !== "completed") {
    throw new AppError(
      "conflict",
      `Balance sweep is ${sweep.sweepStatus}; only completed sweeps have a message`,
    );
  }
  const accounts = await db.select().from(ledgerAccounts)
    .where(inArray(ledgerAccounts.id, [sweep.sourceAccountId, sweep.targetAccountId]));
  const source = accounts.find((row) => row.id === sweep.sourceAccountId);
  const target = accounts.find((row) => row.id === sweep.targetAccountId);
  if (!source || !target) throw new Error(`Sweep ${id} references a missing account`);
  return { sweep, debtor: await messageAccount(db, source), creditor: await messageAccount(db, target) };
}

/** The Balance Sweep Management charts cover this many days, today included. */
export const SWEEP_CHART_DAYS = 30;

export interface SweepChartsDto {
  /** "YYYY-MM-DD" (UTC), oldest first. */
  days: string[];
  /** Sweeps executed per day. */
  sweepsPerDay: number[];
  /** Per currency, the summed closing balance of ledger and of liquid accounts per day, as decimal strings. */
  liquidity: { currency: string; ledger: string[]; liquid: string[] }[];
}

/**
 * The screen's charts, aggregated here: sweeps per day, and per currency the ledger and liquid
 * totals at each day's close, read from the ledger journal (each account's last balance_after
 * before the next midnight UTC), so the history is what the books said, not a reconstruction.
 */
export async function sweepCharts(db: Queryable, now = new Date()): Promise<SweepChartsDto> {
  const days = lastDays(now, SWEEP_CHART_DAYS);
  const [sweeps, closings] = await Promise.all([
    db.all<{ bucket: string; count: number }>(sql`SELECT substr(executed_at, 1, 10) AS bucket, count(*) AS count
      FROM balance_sweeps WHERE executed_at >= ${days[0]} GROUP BY bucket`),
    db.all<{ day: string; currency: string; accountType: string; balanceMinor: number }>(sql`
      WITH RECURSIVE chart_days(day) AS (
        SELECT ${days[0]} UNION ALL SELECT date(day, '+1 day') FROM chart_days WHERE day < ${days.at(-1)}
      )
      SELECT d.day AS day, a.currency AS currency, a.account_type AS accountType,
        sum(coalesce((SELECT e.balance_after_minor FROM ledger_entries e
          WHERE e.account_id = a.id AND e.created_at < date(d.day, '+1 day')
          ORDER BY e.seq DESC LIMIT 1), 0)) AS balanceMinor
      FROM chart_days d CROSS JOIN ledger_accounts a
      WHERE a.account_type IN ('ledger', 'liquid')
      GROUP BY d.day, a.currency, a.account_type`),
  ]);
  const dayIndex = new Map(days.map((day, index) => [day, index]));
  const byCurrency = new Map<string, { ledger: bigint[]; liquid: bigint[] }>();
  for (const row of closings) {
    const index = dayIndex.get(row.day);
    if (index === undefined) continue;
    let entry = byCurrency.get(row.currency);
    if (!entry) {
      entry = { ledger: days.map(() => 0n), liquid: days.map(() => 0n) };
      byCurrency.set(row.currency, entry);
    }
    entry[row.accountType === "ledger" ? "ledger" : "liquid"][index] = BigInt(row.balanceMinor);
  }
  return {
    days,
    sweepsPerDay: fillBuckets(days, sweeps),
    liquidity: [...byCurrency].sort(([a], [b]) => a.localeCompare(b)).map(([currency, entry]) => ({
      currency,
      ledger: entry.ledger.map(formatMoney),
      liquid: entry.liquid.map(formatMoney),
    })),
  };
}
