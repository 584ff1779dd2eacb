/**
 * Reconciliation rules over the ledger journal (`ledger_entries`): every change of an account's
 * balance is one entry with a signed amount and the balance before and after it.
 *
 * An account reconciles when its entries, in journal order, start with exactly one opening entry
 * equal to its recorded opening balance, chain without a gap (each entry starts where the previous
 * ended and moves exactly its amount), never go negative, and end at its current balance. A
 * completed sweep reconciles when the journal holds exactly one debit of its source and one credit
 * of its target that match the sweep's amount and before/after balances.
 *
 * @module
 */

import { formatMoney, type Minor } from "./money.ts";
import { type DomainError, ok, type Result } from "./result.ts";

export const JOURNAL_ENTRY_TYPES = ["opening", "sweep_out", "sweep_in", "card_funding"] as const;
export type JournalEntryType = typeof JOURNAL_ENTRY_TYPES[number];

export interface JournalEntry {
  id: string;
  entryType: JournalEntryType;
  /** Signed: positive credits the account, negative debits it. */
  amountMinor: Minor;
  balanceBeforeMinor: Minor;
  balanceAfterMinor: Minor;
  referenceId: string;
}

export interface JournalAccount {
  openingBalanceMinor: Minor;
  currentBalanceMinor: Minor;
  availableBalanceMinor: Minor;
}

export type JournalBreakCode =
  | "missing_opening_entry"
  | "duplicate_opening_entry"
  | "opening_mismatch"
  | "chain_break"
  | "amount_mismatch"
  | "negative_balance"
  | "entry_sign_mismatch"
  | "current_balance_mismatch"
  | "available_balance_mismatch";

export interface JournalBreak extends DomainError {
  code: JournalBreakCode;
  /** The offending entry, or null when the account itself disagrees with its journal. */
  entryId: string | null;
}

export interface JournalSummary {
  entryCount: number;
  openingMinor: Minor;
  sweepInMinor: Minor;
  sweepOutMinor: Minor;
  cardFundingMinor: Minor;
}

type Broken = { ok: false; error: JournalBreak };

function broken(
  code: JournalBreakCode,
  entryId: string | null,
  message: string,
): Broken {
  return { ok: false, error: { code, entryId, message } };
}

/** Checks one account's entries (in journal order) against the account; returns the first break. */
export function verifyAccountJournal(
  account: JournalAccount,
  entries: readonly JournalEntry[],
): Result<JournalSummary, JournalBreak> {
  const [opening] = entries;
  const openingBreak = checkOpening(account, opening);
  if (openingBreak !== null) return openingBreak;

  const summary: JournalSummary = {
    entryCount: entries.length,
    openingMinor: opening.amountMinor,
    sweepInMinor: 0n,
    sweepOutMinor: 0n,
    cardFundingMinor: 0n,
  };
  let balance = 0n;
  for (const [index, entry] of entries.entries()) {
    const entryBreak = checkEntry(entry, index, balance);
    if (entryBreak !== null) return entryBreak;
    balance = entry.balanceAfterMinor;
    addToSummary(summary, entry);
  }
  return checkAccountBalances(account, balance) ?? ok(summary);
}

/** The journal must start with one opening entry that books the account's opening balance from zero. */
function checkOpening(account: JournalAccount, opening: JournalEntry | undefined): Broken | null {
  if (opening === undefined || opening.entryType !== "opening") {
    return broken(
      "missing_opening_entry",
      opening?.id ?? null,
      "The account's journal does not start with an opening entry",
    );
  }
  if (opening.balanceBeforeMinor !== 0n || opening.amountMinor !== account.openingBalanceMinor) {
    return broken(
      "opening_mismatch",
      opening.id,
      `Opening entry books ${formatMoney(opening.amountMinor)} from ${
        formatMoney(opening.balanceBeforeMinor)
      }, but the account opened with ${formatMoney(account.openingBalanceMinor)}`,
    );
  }
  return null;
}

/** One entry against the balance the previous one left: chained, moving its amount, never negative. */
function checkEntry(entry: JournalEntry, index: number, balance: Minor): Broken | null {
  if (index > 0 && entry.entryType === "opening") {
    return broken("duplicate_opening_entry", entry.id, `Entry ${entry.id} is a second opening entry`);
  }
  if (entry.balanceBeforeMinor !== balance) {
    return broken(
      "chain_break",
      entry.id,
      `Entry ${entry.id} starts at ${formatMoney(entry.balanceBeforeMinor)}, but the previous balance was ${
        formatMoney(balance)
      }`,
    );
  }
  const expectedAfter = balance + entry.amountMinor;
  if (entry.balanceAfterMinor !== expectedAfter) {
    return broken(
      "amount_mismatch",
      entry.id,
      `Entry ${entry.id} of ${formatMoney(entry.amountMinor)} ends at ${
        formatMoney(entry.balanceAfterMinor)
      }, expected ${formatMoney(expectedAfter)}`,
    );
  }
  if (entry.balanceAfterMinor < 0n) {
    return broken(
      "negative_balance",
      entry.id,
      `Entry ${entry.id} leaves a negative balance of ${formatMoney(entry.balanceAfterMinor)}`,
    );
  }
  if (
    (entry.entryType === "sweep_out" && entry.amountMinor >= 0n) ||
    (entry.entryType === "sweep_in" && entry.amountMinor <= 0n)
  ) {
    return broken(
      "entry_sign_mismatch",
      entry.id,
      `Entry ${entry.id} of type ${entry.entryType} moves ${formatMoney(entry.amountMinor)}`,
    );
  }
  return null;
}

function addToSummary(summary: JournalSummary, entry: JournalEntry): void {
  if (entry.entryType === "sweep_in") summary.sweepInMinor += entry.amountMinor;
  else if (entry.entryType === "sweep_out") summary.sweepOutMinor -= entry.amountMinor;
  else if (entry.entryType === "card_funding") summary.cardFundingMinor += entry.amountMinor;
}

/** The journal's last balance must be the account's current one, and the available balance within it. */
function checkAccountBalances(account: JournalAccount, balance: Minor): Broken | null {
  if (balance !== account.currentBalanceMinor) {
    return broken(
      "current_balance_mismatch",
      null,
      `Current balance is ${formatMoney(account.currentBalanceMinor)}, but the journal ends at ${
        formatMoney(balance)
      }`,
    );
  }
  if (account.availableBalanceMinor < 0n || account.availableBalanceMinor > account.currentBalanceMinor) {
    return broken(
      "available_balance_mismatch",
      null,
      `Available balance ${formatMoney(account.availableBalanceMinor)} is outside 0..${
        formatMoney(account.currentBalanceMinor)
      }`,
    );
  }
  return null;
}

/** A completed sweep as recorded in balance_sweeps, in minor units. */
export interface SweepRecord {
  id: string;
  sourceAccountId: string;
  targetAccountId: string;
  amountMinor: Minor;
  sourceBalanceBeforeMinor: Minor;
  sourceBalanceAfterMinor: Minor;
  targetBalanceBeforeMinor: Minor;
  targetBalanceAfterMinor: Minor;
}

export interface SweepJournalEntry extends JournalEntry {
  accountId: string;
}

export type SweepJournalBreakCode = "sweep_entries_missing" | "sweep_entries_mismatch";

export interface SweepJournalBreak extends DomainError {
  code: SweepJournalBreakCode;
}

/**
 * Checks that `entries` (all journal entries referencing the sweep) are exactly one debit of the
 * source and one credit of the target, each matching the sweep's amount and balances.
 */
export function verifySweepEntries(
  sweep: SweepRecord,
  entries: readonly SweepJournalEntry[],
): Result<{ outEntryId: string; inEntryId: string }, SweepJournalBreak> {
  const outs = entries.filter((entry) => entry.entryType === "sweep_out");
  const ins = entries.filter((entry) => entry.entryType === "sweep_in");
  if (outs.length !== 1 || ins.length !== 1 || entries.length !== 2) {
    return {
      ok: false,
      error: {
        code: "sweep_entries_missing",
        message:
          `Sweep ${sweep.id} has ${outs.length} sweep_out and ${ins.length} sweep_in entries (${entries.length} in all); expected exactly one of each`,
      },
    };
  }
  const [out] = outs;
  const [into] = ins;
  const mismatches: string[] = [];
  if (out.accountId !== sweep.sourceAccountId) mismatches.push("sweep_out is not on the source account");
  if (into.accountId !== sweep.targetAccountId) mismatches.push("sweep_in is not on the target account");
  if (out.amountMinor !== -sweep.amountMinor) {
    mismatches.push("sweep_out amount differs from the sweep amount");
  }
  if (into.amountMinor !== sweep.amountMinor) {
    mismatches.push("sweep_in amount differs from the sweep amount");
  }
  if (
    out.balanceBeforeMinor !== sweep.sourceBalanceBeforeMinor ||
    out.balanceAfterMinor !== sweep.sourceBalanceAfterMinor
  ) mismatches.push("source balances differ from the sweep_out entry");
  if (
    into.balanceBeforeMinor !== sweep.targetBalanceBeforeMinor ||
    into.balanceAfterMinor !== sweep.targetBalanceAfterMinor
  ) mismatches.push("target balances differ from the sweep_in entry");
  if (mismatches.length > 0) {
    return {
      ok: false,
      error: { code: "sweep_entries_mismatch", message: `Sweep ${sweep.id}: ${mismatches.join("; ")}` },
    };
  }
  return ok({ outEntryId: out.id, inEntryId: into.id });
}
