/**
 * The one writer of `ledger_entries` and ledger balances: every change to a ledger account's
 * balance goes through `moveBalance` inside the caller's transaction, which re-reads the balance,
 * refuses to go negative, updates the account and appends the journal entry that explains it.
 * Sweeps (two calls) and card funding (one call) use it, so reconciliation has one journal to read.
 */
import { eq, sql } from "drizzle-orm";
import { type LEDGER_ENTRY_TYPES, ledgerAccounts, ledgerEntries } from "../../db/schema.ts";
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
  const account = await tx.select({
    current: ledgerAccounts.currentBalanceMinor,
    available: ledgerAccounts.availableBalanceMinor,
  }).from(ledgerAccounts).where(eq(ledgerAccounts.id, move.accountId)).get();
  if (!account) throw new AppError("not_found", "Ledger account not found");
  const balanceAfterMinor = account.current + move.amountMinor;
  const availableAfterMinor = account.available + move.amountMinor;
  if (balanceAfterMinor < 0 || availableAfterMinor < 0) {
    throw new AppError("unprocessable", "Insufficient funds", { extra: { reason: "insufficient_funds" } });
  }
  if (balanceAfterMinor > MAX_BALANCE_MINOR) {
    throw new AppError("unprocessable", "The balance would exceed 9999999999999.99", {
      extra: { reason: "balance_limit_exceeded" },
    });
  }
  const now = new Date().toISOString();
  await tx.update(ledgerAccounts).set({
    currentBalanceMinor: balanceAfterMinor,
    availableBalanceMinor: availableAfterMinor,
    updatedAt: now,
  }).where(eq(ledgerAccounts.id, move.accountId));
  const [last] = await tx.all<{ seq: number }>(sql`SELECT seq FROM ledger_entries ORDER BY seq DESC LIMIT 1`);
  const entryId = crypto.randomUUID();
  await tx.insert(ledgerEntries).values({
    id: entryId,
    seq: (last?.seq ?? 0) + 1,
    accountId: move.accountId,
    entryType: move.entryType,
    amountMinor: move.amountMinor,
    balanceBeforeMinor: account.current,
    balanceAfterMinor,
    referenceType: move.referenceType,
    referenceId: move.referenceId,
    createdAt: now,
    createdBy: move.performedBy,
  });
  return { entryId, balanceBeforeMinor: account.current, balanceAfterMinor };
}
