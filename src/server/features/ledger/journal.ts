/**
 * The one writer of `ledger_entries` and ledger balances: every change to a ledger account's
 * balance goes through `moveBalance` / `moveBalances` inside the caller's transaction, whose
 * guarded UPDATE decides in SQL whether the balance may move (never below zero, never past the
 * limit), moves it and reads the account back, and whose INSERT appends the journal entries that
 * explain the moves. Sweeps (two moves in one call), opening balances and card funding (one move)
 * use it, so reconciliation has one journal to read.
 */
import type { LEDGER_ENTRY_TYPES, ledgerAccounts } from "../../../../db/schema.ts";
import { statementsOf, type Tx } from "../../db/database.ts";
import type { Statements } from "../../db/statements.ts";
import { AppError } from "../../http/errors.ts";

export type LedgerEntryType = (typeof LEDGER_ENTRY_TYPES)[number];

export interface BalanceMove {
  accountId: string;
  /** Signed: positive credits the account, negative debits it. */
  amountMinor: number;
  entryType: LedgerEntryType;
  referenceType: "account" | "sweep" | "card";
  referenceId: string;
  performedBy: string;
}

type AccountRow = typeof ledgerAccounts.$inferSelect;

/** The account as the move left it, read by the UPDATE that moved it. */
export type MovedAccount = Pick<
  AccountRow,
  | "id"
  | "accountNumber"
  | "accountName"
  | "accountType"
  | "currency"
  | "accountStatus"
  | "currentBalanceMinor"
  | "availableBalanceMinor"
  | "sweepThresholdMinor"
  | "targetLiquidAccount"
>;

/** The columns of a `MovedAccount`, aliased to its field names, for any query that reads one. */
export const MOVED_ACCOUNT_COLUMNS = `id, account_number AS accountNumber, account_name AS accountName,
  account_type AS accountType, currency, account_status AS accountStatus,
  current_balance_minor AS currentBalanceMinor, available_balance_minor AS availableBalanceMinor,
  sweep_threshold_minor AS sweepThresholdMinor, target_liquid_account AS targetLiquidAccount`;

export interface BalanceMoveResult {
  entryId: string;
  balanceBeforeMinor: number;
  balanceAfterMinor: number;
  account: MovedAccount;
}

/** When moves happen and what else their UPDATE stamps on the account. */
export interface MoveOptions {
  /** The accounts' updated_at and the entries' created_at; now when omitted. */
  at?: string;
  /** Also sets the accounts' last_sweep_date to `at`, in the UPDATE that moves the balance. */
  stampLastSweepDate?: boolean;
}

/** Moves applied, or the first move the guard refused (the others may stay applied until rollback). */
type MoveOutcome =
  | { ok: true; results: BalanceMoveResult[] }
  | { ok: false; refused: BalanceMove };

const MAX_BALANCE_MINOR = 999_999_999_999_999;
/** A sweep moves two accounts; more in one call would only multiply the SQL texts kept. */
const MAX_MOVES = 2;

export async function moveBalance(tx: Tx, move: BalanceMove): Promise<BalanceMoveResult> {
  const [result] = await moveBalances(tx, [move]);
  return result;
}

/**
 * Applies the moves (each on a different account) and journals them with consecutive seqs in the
 * order given; throws the reason (not found, insufficient funds, balance limit) for the first
 * refused move. The caller's transaction must then roll back, as it does on any throw, to undo the
 * moves the UPDATE did apply.
 */
export async function moveBalances(
  tx: Tx,
  moves: readonly BalanceMove[],
  options: MoveOptions = {},
): Promise<BalanceMoveResult[]> {
  const outcome = await tryMoveBalances(tx, moves, options);
  if (!outcome.ok) throw await whyNotMoved(statementsOf(tx), outcome.refused);
  return outcome.results;
}

/** `?, ?, ...`: one placeholder per value. */
const placeholders = (count: number) => Array.from({ length: count }, () => "?").join(", ");

/**
 * The guarded UPDATE for `count` moves: checks, moves and reads back every account, so callers need
 * no separate read. The CASE gives each row its own amount.
 */
function moveSql(count: number): string {
  const amount = `CASE id ${Array.from({ length: count }, () => "WHEN ? THEN ?").join(" ")} END`;
  return `UPDATE ledger_accounts
    SET current_balance_minor = current_balance_minor + ${amount},
        available_balance_minor = available_balance_minor + ${amount},
        updated_at = ?,
        last_sweep_date = coalesce(?, last_sweep_date)
    WHERE id IN (${placeholders(count)})
      AND current_balance_minor + ${amount} BETWEEN 0 AND ${MAX_BALANCE_MINOR}
      AND available_balance_minor + ${amount} >= 0
    RETURNING ${MOVED_ACCOUNT_COLUMNS}`;
}

/**
 * All entries in one INSERT: each seq is the journal's top seq plus the move's position. The
 * created_at placeholder comes first in the text, so its argument comes first too.
 */
function journalSql(count: number): string {
  const rows = Array.from({ length: count }, () => `(${placeholders(10)})`).join(", ");
  return `INSERT INTO ledger_entries (id, seq, account_id, entry_type, amount_minor,
      balance_before_minor, balance_after_minor, reference_type, reference_id, created_at, created_by)
    SELECT entry.column1, top.seq + entry.column2, entry.column3, entry.column4, entry.column5,
      entry.column6, entry.column7, entry.column8, entry.column9, ?, entry.column10
    FROM (SELECT coalesce(max(seq), 0) AS seq FROM ledger_entries) AS top, (VALUES ${rows}) AS entry`;
}

/** The SQL texts by count of moves (index 0: one move), built once. */
const MOVE_SQL = Array.from({ length: MAX_MOVES }, (_, i) => moveSql(i + 1));
const JOURNAL_SQL = Array.from({ length: MAX_MOVES }, (_, i) => journalSql(i + 1));

/** The moves, or the first one the guard refused; nothing is journaled unless every move applied. */
async function tryMoveBalances(
  tx: Tx,
  moves: readonly BalanceMove[],
  options: MoveOptions = {},
): Promise<MoveOutcome> {
  if (moves.length === 0) return { ok: true, results: [] };
  if (moves.length > MAX_MOVES) throw new Error(`at most ${MAX_MOVES} moves at once`);
  for (const move of moves) {
    if (!Number.isSafeInteger(move.amountMinor)) throw new Error("amountMinor must be a safe integer");
  }
  const statements = statementsOf(tx);
  const now = options.at ?? new Date().toISOString();
  // coalesce keeps one SQL text for both kinds of move; NULL leaves last_sweep_date as it was.
  const sweptAt = options.stampLastSweepDate ? now : null;
  const ids = moves.map((move) => move.accountId);
  if (new Set(ids).size !== moves.length) throw new Error("each move must be on a different account");
  const amountArgs = moves.flatMap((move) => [move.accountId, move.amountMinor]);
  const moved = await statements.all<MovedAccount>(MOVE_SQL[moves.length - 1], [
    ...amountArgs,
    ...amountArgs,
    now,
    sweptAt,
    ...ids,
    ...amountArgs,
    ...amountArgs,
  ]);
  const byId = new Map(moved.map((account) => [account.id, account]));
  const refused = moves.find((move) => !byId.has(move.accountId));
  if (refused) return { ok: false, refused };
  const results = moves.map((move): BalanceMoveResult => {
    const account = byId.get(move.accountId)!;
    return {
      entryId: crypto.randomUUID(),
      balanceBeforeMinor: account.currentBalanceMinor - move.amountMinor,
      balanceAfterMinor: account.currentBalanceMinor,
      account,
    };
  });
  await statements.run(JOURNAL_SQL[moves.length - 1], [
    now,
    ...moves.flatMap((move, i) => [
      results[i].entryId,
      i + 1,
      move.accountId,
      move.entryType,
      move.amountMinor,
      results[i].balanceBeforeMinor,
      results[i].balanceAfterMinor,
      move.referenceType,
      move.referenceId,
      move.performedBy,
    ]),
  ]);
  return { ok: true, results };
}

async function whyNotMoved(statements: Statements, move: BalanceMove): Promise<AppError> {
  const account = await statements.get<{ current: number }>(
    "SELECT current_balance_minor AS current FROM ledger_accounts WHERE id = ?",
    [move.accountId],
  );
  if (!account) return new AppError("not_found", "Ledger account not found");
  if (account.current + move.amountMinor > MAX_BALANCE_MINOR) {
    return new AppError("unprocessable", "The balance would exceed 9999999999999.99", {
      extra: { reason: "balance_limit_exceeded" },
    });
  }
  return new AppError("unprocessable", "Insufficient funds", { extra: { reason: "insufficient_funds" } });
}
