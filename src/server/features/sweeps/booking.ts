/**
 * How every sweep is booked, manual or automatic, once the domain (src/domain/sweep.ts) has planned
 * it on balances read in the same transaction: both moves through the ledger journal's guarded
 * UPDATE (which also stamps lastSweepDate), the sweep row with both accounts' balances before and
 * after, and the sweep's one audit row. Write transactions are serialised (one writer per process
 * behind a mutex, BEGIN IMMEDIATE across processes), so a plan is never made on stale balances.
 */
import type { balanceSweeps, ledgerAccounts } from "../../../../db/schema.ts";
import { formatMoney } from "../../../domain/money.ts";
import type { SweepAccount, SweepPlan } from "../../../domain/sweep.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import { statementsOf, type Tx } from "../../db/database.ts";
import type { Statements } from "../../db/statements.ts";
import { type BalanceMoveResult, moveBalances, type MovedAccount } from "../ledger/journal.ts";

const SWEEP_AUDIT_ENTITY = "balance_sweep";
const SWEEP_AUDIT_ACTION = "execute";
const TRANSACTION_REFERENCE_PREFIX = "SWP";
/** Hex digits of the sweep id in its reference; keeps the reference within ISO 20022 Max35Text. */
const REFERENCE_ID_HEX_DIGITS = 20;

type AccountRow = typeof ledgerAccounts.$inferSelect;
export type SweepRow = typeof balanceSweeps.$inferSelect;

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

/** What a sweep records besides its plan. */
export interface SweepDetails {
  sweepType: SweepRow["sweepType"];
  sweepReason: string | null;
}

export const money = (minor: number) => formatMoney(BigInt(minor));

export function toSweepAccount(row: MovedAccount): SweepAccount {
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

export function toSweepDto(
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
function transactionReferenceFor(sweepId: string, executedAt: string): string {
  const day = executedAt.slice(0, 10).replaceAll("-", "");
  const digits = sweepId.replaceAll("-", "").slice(0, REFERENCE_ID_HEX_DIGITS).toUpperCase();
  return `${TRANSACTION_REFERENCE_PREFIX}-${day}-${digits}`;
}

function sweepMoves(id: string, actor: Actor, plan: SweepPlan) {
  const amountMinor = Number(plan.amountMinor);
  const move = { referenceType: "sweep" as const, referenceId: id, performedBy: actor.userId };
  return [
    { ...move, accountId: plan.sourceId, amountMinor: -amountMinor, entryType: "sweep_out" as const },
    { ...move, accountId: plan.targetId, amountMinor, entryType: "sweep_in" as const },
  ];
}

/**
 * Throws if the journal disagrees with the plan, which would mean the balances changed under the
 * caller's transaction: a broken invariant, never a user error.
 */
function assertJournalMatchesPlan(
  id: string,
  plan: SweepPlan,
  out: BalanceMoveResult,
  into: BalanceMoveResult,
) {
  if (
    BigInt(out.balanceBeforeMinor) !== plan.sourceBalanceBefore ||
    BigInt(out.balanceAfterMinor) !== plan.sourceBalanceAfter ||
    BigInt(into.balanceBeforeMinor) !== plan.targetBalanceBefore ||
    BigInt(into.balanceAfterMinor) !== plan.targetBalanceAfter
  ) {
    throw new Error(`Sweep ${id}: journal balances differ from the plan made in the same transaction`);
  }
}

async function insertSweepRow(statements: Statements, row: SweepRow): Promise<void> {
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
}

/** The two accounts of a plan as read in the booking transaction, for the names the answer shows. */
export interface SweepAccounts {
  source: MovedAccount;
  target: MovedAccount;
}

/**
 * Books a planned sweep in `tx`: both journal moves (the guarded UPDATE decides; a refused move
 * throws its reason and the caller's transaction rolls back), the sweep row and its audit row.
 */
export async function bookSweep(
  tx: Tx,
  actor: Actor,
  executor: Executor,
  plan: SweepPlan,
  accounts: SweepAccounts,
  details: SweepDetails,
): Promise<SweepDto> {
  const id = crypto.randomUUID();
  const executedAt = new Date().toISOString();
  const [out, into] = await moveBalances(tx, sweepMoves(id, actor, plan), {
    at: executedAt,
    stampLastSweepDate: true,
  });
  assertJournalMatchesPlan(id, plan, out, into);
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
  await insertSweepRow(statementsOf(tx), row);
  const dto = toSweepDto(row, accounts.source, accounts.target, executor);
  await recordAudit(tx, actor, {
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
