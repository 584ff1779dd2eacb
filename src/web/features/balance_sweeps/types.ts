/** Shapes of the ledger and sweep API as the screen reads them, and the exact money helpers it uses. */
import type { QueryClient } from "@tanstack/react-query";
import { parseMoney } from "../../../domain/money.ts";
import { formatCurrency, titleCase } from "../../lib/format.ts";

export const ACCOUNTS_KEY = "/api/ledger-accounts";
export const SWEEPS_PATH = "/api/balance-sweeps";
/** Spec 2.10 and 9: the Recent Balance Sweeps table shows the 10 newest. */
export const RECENT_SWEEPS_SHOWN = 10;
export const RECENT_SWEEPS_KEY = `${SWEEPS_PATH}?limit=${RECENT_SWEEPS_SHOWN}`;
export const AUTO_SWEEP_PATH = `${SWEEPS_PATH}/auto-sweep`;
export const MONEY_STEP = "0.01";

export const ACCOUNT_TYPES = ["ledger", "liquid", "settlement", "reserve"] as const;
export const CURRENCIES = ["USD", "EUR", "GBP", "JPY"] as const;

export const ACCOUNT_TYPE_OPTIONS = ACCOUNT_TYPES.map((value) => ({ value, label: titleCase(value) }));
export const CURRENCY_OPTIONS = CURRENCIES.map((value) => ({ value, label: value }));

import type { AccountDto as LedgerAccount } from "../../../server/features/ledger/service.ts";
export type { LedgerAccount };
import type { SweepDto as BalanceSweep } from "../../../server/features/sweeps/booking.ts";
export type { BalanceSweep };

/** Minor units of an API amount; the API only sends valid decimal strings, so a failure is a bug. */
export function toMinor(amount: string): bigint {
  const parsed = parseMoney(amount);
  if (!parsed.ok) throw new Error(`The API sent an invalid amount: ${parsed.error.message}`);
  return parsed.value;
}

/**
 * Total current balance of one account type, per currency, summed exactly in BigInt minor units
 * (spec 2.10: summed in the browser by account type). USD first, then alphabetical.
 */
export function totalsByCurrency(
  accounts: readonly LedgerAccount[],
  accountType: string,
): [string, bigint][] {
  const totals = new Map<string, bigint>();
  for (const account of accounts) {
    if (account.accountType !== accountType) continue;
    totals.set(account.currency, (totals.get(account.currency) ?? 0n) + toMinor(account.currentBalance));
  }
  if (totals.size === 0) totals.set("USD", 0n);
  return [...totals.entries()].sort(([a], [b]) => (a === "USD" ? -1 : b === "USD" ? 1 : a.localeCompare(b)));
}

export function formatTotals(totals: [string, bigint][]): string {
  return totals.map(([currency, minor]) => formatCurrency(minor, currency)).join(" · ");
}

export function accountLabel(account: Pick<LedgerAccount, "accountName" | "accountNumber">): string {
  return `${account.accountName} (${account.accountNumber})`;
}

export function executorName(sweep: BalanceSweep): string {
  const user = sweep.executedByUser;
  return [user?.firstName, user?.lastName].filter(Boolean).join(" ") || user?.email || "—";
}

/** The local midnight that starts "today" for the Today's Sweeps card, as an ISO instant. */
export function startOfTodayIso(now = new Date()): string {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate()).toISOString();
}

export function todayCountKey(now = new Date()): string {
  return `${SWEEPS_PATH}/count?since=${encodeURIComponent(startOfTodayIso(now))}`;
}

/** After any sweep or new account: balances, the recent list and today's count all change. */
export function invalidateSweepData(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: (query) => {
      const key = query.queryKey[0];
      return typeof key === "string" && (key === ACCOUNTS_KEY || key.startsWith(SWEEPS_PATH));
    },
  });
}
