/** The balance sweeps' data: accounts, recent sweeps, charts, the auto-sweep plan, and the three actions. */
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../lib/api.ts";
import type { PendingApproval } from "../../lib/approval.ts";
import { useSubmission } from "../../lib/idempotency.ts";
import { useApprovableMutation } from "../../lib/mutation.ts";
import {
  ACCOUNTS_KEY,
  AUTO_SWEEP_PATH,
  type BalanceSweep,
  invalidateSweepData,
  type LedgerAccount,
  RECENT_SWEEPS_KEY,
  SWEEPS_PATH,
  todayCountKey,
} from "./types.ts";

export const AUTO_SWEEP_PLAN_KEY = `${AUTO_SWEEP_PATH}/plan`;
export const SWEEP_CHARTS_KEY = `${SWEEPS_PATH}/charts`;

import type { AutoSweepPlanDto as AutoSweepPlan } from "../../../server/features/sweeps/automatic.ts";
export type { AutoSweepPlan };
import type { SweepChartsDto as SweepCharts } from "../../../server/features/sweeps/queries.ts";
export type { SweepCharts };

export const useLedgerAccounts = () => useQuery<LedgerAccount[]>({ queryKey: [ACCOUNTS_KEY] });

export const useRecentSweeps = () => useQuery<BalanceSweep[]>({ queryKey: [RECENT_SWEEPS_KEY] });

export const useTodaySweepCount = () => useQuery<{ count: number }>({ queryKey: [todayCountKey()] });

export const useSweepCharts = () => useQuery<SweepCharts>({ queryKey: [SWEEP_CHARTS_KEY] });

/** Fetched only on demand (refetch), since a plan from an earlier visit is no promise. */
export const useAutoSweepPlan = () => useQuery<AutoSweepPlan>({ queryKey: [AUTO_SWEEP_PLAN_KEY], enabled: false });

/** An opening balance moves money once approved: each submission carries an Idempotency-Key. */
export function useCreateLedgerAccount(
  onDone: (account: LedgerAccount | null) => void,
  onError: (error: Error) => void,
) {
  const submission = useSubmission();
  return useApprovableMutation({
    mutationFn: (body: Record<string, unknown>) =>
      submission.send<LedgerAccount | PendingApproval>("POST", ACCOUNTS_KEY, body),
    submission,
    errorTitle: "Failed to create ledger account",
    onDone,
    onError,
    refresh: invalidateSweepData,
  });
}

/** Each submission carries an Idempotency-Key, so a resubmit after a lost answer never moves the money twice. */
export function useManualSweep(onDone: (sweep: BalanceSweep | null) => void) {
  const submission = useSubmission();
  return useApprovableMutation({
    mutationFn: (body: Record<string, unknown>) =>
      submission.send<BalanceSweep | PendingApproval>("POST", SWEEPS_PATH, body),
    submission,
    errorTitle: "Failed to execute balance sweep",
    onDone,
    refresh: invalidateSweepData,
  });
}

/** The administrator sets (decimal string) or removes (null) an account's daily outflow limit. */
export const useSetDailyOutflowLimit = (
  accountId: string,
  onDone: (account: LedgerAccount | null) => void,
  onError: (error: Error) => void,
) =>
  useApprovableMutation({
    mutationFn: (dailyOutflowLimit: string | null) =>
      apiJson<LedgerAccount | PendingApproval>(
        "PUT",
        `${ACCOUNTS_KEY}/${encodeURIComponent(accountId)}/daily-outflow-limit`,
        { dailyOutflowLimit },
      ),
    errorTitle: "Daily outflow limit not saved",
    onDone,
    onError,
    refresh: invalidateSweepData,
  });

/** Failures are the caller's: a conflict means the balances changed since the plan. Each request carries its key. */
export function useAutoSweep(
  onDone: (result: { sweepsExecuted: number } | null) => void,
  onError: (error: Error) => void,
) {
  const submission = useSubmission();
  return useApprovableMutation({
    mutationFn: (planId: string) =>
      submission.send<{ sweepsExecuted: number } | PendingApproval>("POST", AUTO_SWEEP_PATH, { planId }),
    submission,
    onDone,
    onError,
    refresh: invalidateSweepData,
  });
}
