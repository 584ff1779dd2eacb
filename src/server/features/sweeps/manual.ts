/**
 * Manual sweeps. One path books them: in one transaction, both accounts are read, the domain's
 * `planManualSweep` plans (or rejects with its reason), and `bookSweep` makes the guarded move and
 * writes the sweep row and its audit row. A sweep its maker makes alone is first counted towards the
 * maker's day total and the source's day outflow (ledger/movement_limits.ts) in that transaction;
 * over either bound it throws `ApprovalRequired` and the route files it for a second person.
 */
import { inArray } from "drizzle-orm";
import { ledgerAccounts } from "../../../../db/schema.ts";
import { formatCurrencyEnUs } from "../../../domain/money.ts";
import { planManualSweep } from "../../../domain/sweep.ts";
import type { Actor } from "../../audit/trail.ts";
import { type Database, type Queryable, statementsOf, type Tx } from "../../db/database.ts";
import { AppError, fromDomainError } from "../../http/errors.ts";
import { MOVED_ACCOUNT_COLUMNS, type MovedAccount } from "../ledger/journal.ts";
import { countMovement, type MovementControl } from "../ledger/movement_limits.ts";
import { bookSweep, type Executor, money, type SweepDto, toSweepAccount } from "./booking.ts";
import type { CreateSweepInput } from "./schemas.ts";

type AccountRow = typeof ledgerAccounts.$inferSelect;

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
      description: `Sweep ${
        formatCurrencyEnUs(input.sweepAmount, source.currency)
      } from ${source.accountNumber} to ${target.accountNumber}`,
      source: side(source, -amount),
      target: side(target, amount),
    },
  };
}

function fieldNotFound(field: string, what: string): AppError {
  const message = `${what} not found`;
  return new AppError("not_found", message, { field, fields: { [field]: message } });
}

/**
 * Reads both accounts, plans with the domain's rules, counts the sweep when its maker makes it
 * alone (which may throw `ApprovalRequired`) and books it, all in `tx`.
 */
async function bookManualSweep(
  tx: Tx,
  actor: Actor,
  executor: Executor,
  input: CreateSweepInput,
  control: MovementControl,
  atMs: number,
) {
  const rows = await statementsOf(tx).all<MovedAccount>(
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
  await countMovement(tx, control, {
    makerId: actor.userId,
    currency: source.currency,
    amountMinor: input.sweepAmount,
    sourceAccountId: source.id,
    atMs,
  });
  return await bookSweep(tx, actor, executor, planned.value, { source, target }, {
    sweepType: input.sweepType,
    sweepReason: input.sweepReason,
  });
}

/**
 * Executes a manual sweep in one transaction; a rejection throws its AppError, and a sweep its maker
 * may not make alone throws `ApprovalRequired`, both changing nothing. `atMs` is when, by the app's
 * clock (topology/clock.ts): the day the movement limits count it in.
 */
export async function executeManualSweep(
  db: Database,
  actor: Actor,
  executor: Executor,
  input: CreateSweepInput,
  atMs: number,
  control: MovementControl = "alone",
): Promise<SweepDto> {
  return await db.transaction((tx) => bookManualSweep(tx, actor, executor, input, control, atMs));
}
