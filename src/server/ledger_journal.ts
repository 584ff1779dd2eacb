/**
 * The one writer of `ledger_entries` and ledger balances: every change to a ledger account's
 * balance goes through `moveBalance` inside the caller's transaction, which re-reads the balance,
 * refuses to go negative, updates the account and appends the journal entry that explains it.
 * Sweeps (two calls) and card funding (one call) use it, so reconciliation has one journal to read.
 */
import { eq, sql } from "drizzle-orm";
import { type LEDGER_ENTRY_TYPES, ledgerAccounts } from "../../db/schema.ts";
import type { Tx } from "./db.ts";
import { AppError } from "./errors.ts";

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

export interface BalanceMoveResult {
  entryId: string;
  balanceBeforeMinor: number;
  balanceAfterMinor: number;
}

const MAX_BALANCE_MINOR = 999_999_999_999_999;

export async function moveBalance(tx: Tx, move: BalanceMove): Promise<BalanceMoveResult> {
  if (!Number.isSafeInteger(move.amountMinor)) throw new Error("amountMinor must be a safe integer");
  const now = new Date().toISOString();
  // One guarded UPDATE both checks and moves the balance; the failure path alone reads again to
  // say why. Every sweep runs this twice, so statements per call matter.
  const [moved] = await tx.all<{ current: number }>(sql`UPDATE ledger_accounts
    SET current_balance_minor = current_balance_minor + ${move.amountMinor},
        available_balance_minor = available_balance_minor + ${move.amountMinor},
        updated_at = ${now}
    WHERE id = ${move.accountId}
      AND current_balance_minor + ${move.amountMinor} BETWEEN 0 AND ${MAX_BALANCE_MINOR}
      AND available_balance_minor + ${move.amountMinor} >= 0
    RETURNING current_balance_minor AS current`);
  if (!moved) throw await whyNotMoved(tx, move);
  const balanceAfterMinor = moved.current;
  const balanceBeforeMinor = balanceAfterMinor - move.amountMinor;
  const entryId = crypto.randomUUID();
  await tx.run(sql`INSERT INTO ledger_entries (id, seq, account_id, entry_type, amount_minor,
      balance_before_minor, balance_after_minor, reference_type, reference_id, created_at, created_by)
    SELECT ${entryId}, coalesce(max(seq), 0) + 1, ${move.accountId}, ${move.entryType}, ${move.amountMinor},
      ${balanceBeforeMinor}, ${balanceAfterMinor}, ${move.referenceType}, ${move.referenceId}, ${now},
      ${move.performedBy}
    FROM ledger_entries`);
  return { entryId, balanceBeforeMinor, balanceAfterMinor };
}

async function whyNotMoved(tx: Tx, move: BalanceMove): Promise<AppError> {
  const account = await tx.select({ current: ledgerAccounts.currentBalanceMinor }).from(ledgerAccounts)
    .where(eq(ledgerAccounts.id, move.accountId)).get();
  if (!account) return new AppError("not_found", "Ledger account not found");
  if (account.current + move.amountMinor > MAX_BALANCE_MINOR) {
    return new AppError("unprocessable", "The balance would exceed 9999999999999.99", {
      extra: { reason: "balance_limit_exceeded" },
    });
  }
  return new AppError("unprocessable", "Insufficient funds", { extra: { reason: "insufficient_funds" } });
}
