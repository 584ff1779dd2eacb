/**
 * Manual sweeps. One path books them: in one transaction, both accounts are read, the domain's
 * `planManualSweep` plans (or rejects with its reason), and `bookSweep` makes the guarded move and
 * writes the sweep row and its audit row. A sweep its maker makes alone is first counted towards the
 * maker's day total and the source's day outflow (ledger/movement_limits.ts) in that transaction;
 * over either bound it throws `ApprovalRequired` and the route files it for a second person. With an
 * Idempotency-Key the first answer (the sweep, a rejection, or the 202 of a sweep filed for
 * approval) is kept in that same transaction and replayed for every retry with the key.
 */
import { createHash } from "node:crypto";
import { inArray } from "drizzle-orm";
import { ledgerAccounts } from "../../../../db/schema.ts";
import { planManualSweep } from "../../../domain/sweep.ts";
import type { Actor } from "../../audit/trail.ts";
import { type Database, inSavepoint, type Queryable, statementsOf, type Tx } from "../../db/database.ts";
import { AppError, type ErrorBody, fromDomainError } from "../../http/errors.ts";
import { answerOnce, type AnswerStore, type KeyedAnswer } from "../../http/idempotency.ts";
import type { ApprovalGround } from "../../../domain/movement_limits.ts";
import { databaseInTransaction, type pendingBody } from "../approvals/four_eyes.ts";
import { MOVED_ACCOUNT_COLUMNS, type MovedAccount } from "../ledger/journal.ts";
import { ApprovalRequired, countMovement, type MovementControl } from "../ledger/movement_limits.ts";
import { bookSweep, type Executor, money, type SweepDto, toSweepAccount } from "./booking.ts";
import type { CreateSweepInput } from "./schemas.ts";

type AccountRow = typeof ledgerAccounts.$inferSelect;
type PendingBody = ReturnType<typeof pendingBody>;

/** A manual sweep's answer: executed, filed for approval, or rejected (then kept under its key too). */
export type SweepAnswer =
  | { status: 201; body: SweepDto }
  | { status: 202; body: PendingBody }
  | { status: 400 | 404 | 422; body: ErrorBody };

const KEPT_REJECTIONS = new Set([400, 404, 422]);

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
        money(amount)
      } ${source.currency} from ${source.accountNumber} to ${target.accountNumber}`,
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

/**
 * The answers kept per user and key. Their JSON text lives here only: the answer is data
 * everywhere else, and is sent again exactly as it was first sent.
 */
function keptSweepAnswers(tx: Tx, actor: Actor): AnswerStore<SweepAnswer> {
  const statements = statementsOf(tx);
  return {
    async find(key) {
      const row = await statements.get<{ requestHash: string; responseStatus: number; responseBody: string }>(
        `SELECT request_hash AS requestHash, response_status AS responseStatus, response_body AS responseBody
          FROM sweep_idempotency_keys WHERE user_id = ? AND idempotency_key = ?`,
        [actor.userId, key],
      );
      if (!row) return null;
      const answer = { status: row.responseStatus, body: JSON.parse(row.responseBody) } as SweepAnswer;
      return { requestHash: row.requestHash, answer };
    },
    async keep(key, { requestHash, answer }) {
      await statements.run(
        `INSERT INTO sweep_idempotency_keys
          (user_id, idempotency_key, request_hash, response_status, response_body, sweep_id, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [
          actor.userId,
          key,
          requestHash,
          answer.status,
          JSON.stringify(answer.body),
          answer.status === 201 ? answer.body.id : null,
          new Date().toISOString(),
        ],
      );
    },
  };
}

/** One transaction: the answer kept under the user's key, or else `produce`'s, then kept. */
async function answerSweepOnce(
  db: Database,
  actor: Actor,
  input: CreateSweepInput,
  key: string,
  produce: (tx: Tx) => Promise<SweepAnswer>,
): Promise<KeyedAnswer<SweepAnswer>> {
  return await db.transaction((tx) =>
    answerOnce(keptSweepAnswers(tx, actor), key, hashSweepRequest(input), () => produce(tx))
  );
}

/** Files a sweep for a second person on the database it is given, answering the 202's body. */
export type FileSweep = (db: Database, grounds: readonly ApprovalGround[]) => Promise<PendingBody>;

/**
 * Executes a manual sweep its maker makes alone, under an Idempotency-Key. A rejection is kept as
 * the key's answer too; the sweep runs inside a savepoint that is rolled back on one, so it changes
 * nothing but the kept answer. A sweep over the maker's limits is filed by `file` in this same
 * transaction and its 202 kept under the key, so a retry replays it instead of filing again.
 */
export async function executeManualSweepOnce(
  db: Database,
  actor: Actor,
  executor: Executor,
  input: CreateSweepInput,
  atMs: number,
  key: string,
  file: FileSweep,
): Promise<KeyedAnswer<SweepAnswer>> {
  return await answerSweepOnce(db, actor, input, key, async (tx) => {
    try {
      const sweep = await inSavepoint(
        statementsOf(tx),
        () => bookManualSweep(tx, actor, executor, input, "alone", atMs),
      );
      return { status: 201, body: sweep };
    } catch (error) {
      if (error instanceof ApprovalRequired) {
        return { status: 202, body: await file(databaseInTransaction(db, tx), error.grounds) };
      }
      if (!(error instanceof AppError) || !KEPT_REJECTIONS.has(error.status)) throw error;
      return { status: error.status as 400 | 404 | 422, body: error.toBody() };
    }
  });
}
