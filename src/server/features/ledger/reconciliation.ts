/**
 * Reconciliation of balances against the journal, read in one consistent snapshot.
 *
 * Per account: opening entry + every later entry = current balance, with an unbroken chain
 * (src/domain/journal.ts). Per completed sweep: exactly one matching sweep_out and sweep_in entry
 * and exactly one audit row. Per currency: total of balances = total of opening entries + card
 * funding, and sweeps net to zero. Journal entries pointing at no completed sweep are reported.
 */
import type { Client, Row } from "@libsql/client";
import {
  type JournalEntry,
  type JournalEntryType,
  type SweepJournalEntry,
  type SweepRecord,
  verifyAccountJournal,
  verifySweepEntries,
} from "../../../domain/journal.ts";
import { formatMoney, type Minor } from "../../../domain/money.ts";

/** Bounds the response when a store is badly broken; the counts still cover everything. */
export const MAX_PROBLEMS_REPORTED = 100;

export interface ReconciliationProblem {
  code: string;
  message: string;
  accountId?: string;
  sweepId?: string;
  entryId?: string;
  currency?: string;
}

export interface CurrencyTotals {
  currency: string;
  accounts: number;
  openingTotal: string;
  cardFundingTotal: string;
  sweepNetTotal: string;
  currentTotal: string;
  balanced: boolean;
}

export interface ReconciliationReport {
  ok: boolean;
  checkedAt: string;
  accountsChecked: number;
  entriesChecked: number;
  sweepsChecked: number;
  problemCount: number;
  currencies: CurrencyTotals[];
  problems: ReconciliationProblem[];
}

const big = (value: unknown): Minor => BigInt(value as number);

function toEntry(row: Row): SweepJournalEntry {
  return {
    id: String(row.id),
    accountId: String(row.account_id),
    entryType: String(row.entry_type) as JournalEntryType,
    amountMinor: big(row.amount_minor),
    balanceBeforeMinor: big(row.balance_before_minor),
    balanceAfterMinor: big(row.balance_after_minor),
    referenceId: String(row.reference_id),
  };
}

interface CurrencyAccumulator {
  accounts: number;
  openingMinor: Minor;
  cardFundingMinor: Minor;
  sweepNetMinor: Minor;
  currentMinor: Minor;
}

/** Counts every problem and keeps the first MAX_PROBLEMS_REPORTED of them. */
class ProblemLog {
  readonly problems: ReconciliationProblem[] = [];
  count = 0;

  report(problem: ReconciliationProblem) {
    this.count += 1;
    if (this.problems.length < MAX_PROBLEMS_REPORTED) this.problems.push(problem);
  }
}

/**
 * Runs every query inside one deferred read transaction on the read connection, so concurrent
 * sweeps can neither appear half-applied nor shift balances between two of the queries. (Drizzle's
 * libSQL transaction always begins a write transaction, hence the client's own.)
 */
async function readSnapshot(readClient: Client) {
  const tx = await readClient.transaction("deferred");
  try {
    const accounts = (await tx.execute(
      `SELECT id, currency, opening_balance_minor, current_balance_minor, available_balance_minor
       FROM ledger_accounts ORDER BY id`,
    )).rows;
    const entryRows = (await tx.execute(
      `SELECT id, account_id, entry_type, amount_minor, balance_before_minor, balance_after_minor,
              reference_type, reference_id
       FROM ledger_entries ORDER BY seq`,
    )).rows;
    const sweeps = (await tx.execute(
      `SELECT s.id, s.source_account_id, s.target_account_id, s.sweep_amount_minor,
              s.source_balance_before_minor, s.source_balance_after_minor,
              s.target_balance_before_minor, s.target_balance_after_minor,
              (SELECT count(*) FROM audit_trail a
                WHERE a.entity_type = 'balance_sweep' AND a.entity_id = s.id) AS audit_rows
       FROM balance_sweeps s WHERE s.sweep_status = 'completed'`,
    )).rows;
    await tx.commit();
    return { accounts, entryRows, sweeps };
  } finally {
    tx.close();
  }
}

export async function reconcile(readClient: Client): Promise<ReconciliationReport> {
  const checkedAt = new Date().toISOString();
  const { accounts, entryRows, sweeps } = await readSnapshot(readClient);
  const log = new ProblemLog();
  const { entriesByAccount, entriesBySweep } = groupEntries(entryRows);
  const totals = checkAccounts(accounts, entriesByAccount, log);
  checkSweeps(sweeps, entriesBySweep, log);
  const currencies = currencyTotals(totals, log);
  return {
    ok: log.count === 0,
    checkedAt,
    accountsChecked: accounts.length,
    entriesChecked: entryRows.length,
    sweepsChecked: sweeps.length,
    problemCount: log.count,
    currencies,
    problems: log.problems,
  };
}

/** The journal entries by account, and those of sweeps by sweep, each in journal order. */
function groupEntries(entryRows: Row[]) {
  const entriesByAccount = new Map<string, JournalEntry[]>();
  const entriesBySweep = new Map<string, SweepJournalEntry[]>();
  for (const row of entryRows) {
    const entry = toEntry(row);
    const list = entriesByAccount.get(entry.accountId) ?? [];
    list.push(entry);
    entriesByAccount.set(entry.accountId, list);
    if (row.reference_type === "sweep") {
      const forSweep = entriesBySweep.get(entry.referenceId) ?? [];
      forSweep.push(entry);
      entriesBySweep.set(entry.referenceId, forSweep);
    }
  }
  return { entriesByAccount, entriesBySweep };
}

/** Each account's journal against its balances, and the per-currency sums; entries of unknown accounts are problems. */
function checkAccounts(accounts: Row[], entriesByAccount: Map<string, JournalEntry[]>, log: ProblemLog) {
  const totals = new Map<string, CurrencyAccumulator>();
  const accountIds = new Set<string>();
  for (const row of accounts) {
    const accountId = String(row.id);
    const currency = String(row.currency);
    accountIds.add(accountId);
    const current = big(row.current_balance_minor);
    const result = verifyAccountJournal({
      openingBalanceMinor: big(row.opening_balance_minor),
      currentBalanceMinor: current,
      availableBalanceMinor: big(row.available_balance_minor),
    }, entriesByAccount.get(accountId) ?? []);
    const sum = totals.get(currency) ??
      { accounts: 0, openingMinor: 0n, cardFundingMinor: 0n, sweepNetMinor: 0n, currentMinor: 0n };
    sum.accounts += 1;
    sum.currentMinor += current;
    for (const entry of entriesByAccount.get(accountId) ?? []) {
      if (entry.entryType === "opening") sum.openingMinor += entry.amountMinor;
      else if (entry.entryType === "card_funding") sum.cardFundingMinor += entry.amountMinor;
      else sum.sweepNetMinor += entry.amountMinor;
    }
    totals.set(currency, sum);
    if (!result.ok) {
      log.report({
        code: result.error.code,
        message: result.error.message,
        accountId,
        ...(result.error.entryId ? { entryId: result.error.entryId } : {}),
      });
    }
  }
  for (const accountId of entriesByAccount.keys()) {
    if (!accountIds.has(accountId)) {
      log.report({
        code: "orphan_entry",
        message: `Journal entries exist for unknown account ${accountId}`,
        accountId,
      });
    }
  }
  return totals;
}

/** Each completed sweep against its two entries and its one audit row; sweep entries of no completed sweep are problems. */
function checkSweeps(sweeps: Row[], entriesBySweep: Map<string, SweepJournalEntry[]>, log: ProblemLog) {
  const completedSweepIds = new Set<string>();
  for (const row of sweeps) {
    const sweep: SweepRecord = {
      id: String(row.id),
      sourceAccountId: String(row.source_account_id),
      targetAccountId: String(row.target_account_id),
      amountMinor: big(row.sweep_amount_minor),
      sourceBalanceBeforeMinor: big(row.source_balance_before_minor),
      sourceBalanceAfterMinor: big(row.source_balance_after_minor),
      targetBalanceBeforeMinor: big(row.target_balance_before_minor),
      targetBalanceAfterMinor: big(row.target_balance_after_minor),
    };
    completedSweepIds.add(sweep.id);
    const result = verifySweepEntries(sweep, entriesBySweep.get(sweep.id) ?? []);
    if (!result.ok) log.report({ code: result.error.code, message: result.error.message, sweepId: sweep.id });
    const auditRows = Number(row.audit_rows);
    if (auditRows !== 1) {
      log.report({
        code: "sweep_audit_mismatch",
        message: `Sweep ${sweep.id} has ${auditRows} audit rows; expected exactly 1`,
        sweepId: sweep.id,
      });
    }
  }
  for (const [sweepId, entries] of entriesBySweep) {
    if (!completedSweepIds.has(sweepId)) {
      log.report({
        code: "orphan_sweep_entry",
        message: `${entries.length} journal entries reference sweep ${sweepId}, which is not a completed sweep`,
        sweepId,
        entryId: entries[0].id,
      });
    }
  }
}

/** Per currency, in code order: balances = opening entries + card funding, and sweeps net to zero. */
function currencyTotals(totals: Map<string, CurrencyAccumulator>, log: ProblemLog): CurrencyTotals[] {
  return [...totals.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, sum]) => {
    const balanced = sum.sweepNetMinor === 0n &&
      sum.currentMinor === sum.openingMinor + sum.cardFundingMinor;
    if (!balanced) {
      log.report({
        code: "currency_total_mismatch",
        message: `${currency}: balances total ${formatMoney(sum.currentMinor)}, opening entries ${
          formatMoney(sum.openingMinor)
        } + card funding ${formatMoney(sum.cardFundingMinor)}, sweeps net ${formatMoney(sum.sweepNetMinor)}`,
        currency,
      });
    }
    return {
      currency,
      accounts: sum.accounts,
      openingTotal: formatMoney(sum.openingMinor),
      cardFundingTotal: formatMoney(sum.cardFundingMinor),
      sweepNetTotal: formatMoney(sum.sweepNetMinor),
      currentTotal: formatMoney(sum.currentMinor),
      balanced,
    };
  });
}
