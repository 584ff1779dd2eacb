/** The approval queue's data: pages of requests, decisions, withdrawals and the approval settings. */
import { keepPreviousData, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApprovalKind } from "../../../domain/approval.ts";
import { apiFetch, apiJson, apiPage, type Page } from "../../lib/api.ts";
import { type ApprovalRequest, APPROVALS_KEY, type PendingApproval, withRequestReason } from "../../lib/approval.ts";
import { useSubmission } from "../../lib/idempotency.ts";
import { invalidateAll, useApiMutation, useApprovableMutation } from "../../lib/mutation.ts";
import type { ApprovalSettings } from "../../../server/features/approvals/service.ts";

export type { ApprovalSettings };

export const SETTINGS_KEY = "/api/approval-settings";

export type Decision = "approve" | "reject";

export const useApprovalPage = (key: string) =>
  useQuery<Page<ApprovalRequest>>({
    queryKey: [key],
    queryFn: () => apiPage<ApprovalRequest>(key),
    placeholderData: keepPreviousData,
  });

/** The decided request; approving a new user or a password reset also hands out the one-time password, once. */
export type DecidedRequest = ApprovalRequest & { initialPassword?: string };

export function useDecide(
  decision: Decision,
  reason: string,
  onDecided: (decided: DecidedRequest) => void,
  onError: (error: Error) => void,
) {
  const queryClient = useQueryClient();
  // A decision executes the request: a resubmit after a lost answer must not decide it twice.
  const submission = useSubmission();
  return useApiMutation({
    mutationFn: (id: string) => submission.send<DecidedRequest>("POST", `${APPROVALS_KEY}/${id}/${decision}`, { reason }),
    submission,
    errorTitle: decision === "approve" ? "Approval failed" : "Rejection failed",
    onError,
    onSuccess: (decided) => {
      onDecided(decided);
      // Approval moves money: every screen's figures may have changed.
      queryClient.invalidateQueries();
    },
  });
}

export const useWithdraw = (onWithdrawn: () => void) =>
  useApiMutation({
    mutationFn: (id: string) => apiJson<ApprovalRequest>("POST", `${APPROVALS_KEY}/${id}/cancel`),
    invalidatesPrefixes: [APPROVALS_KEY],
    errorTitle: "Withdrawal failed",
    onSuccess: onWithdrawn,
  });

export const useApprovalSettings = () => useQuery<ApprovalSettings>({ queryKey: [SETTINGS_KEY] });

/** Under dual control the change is a request for a second administrator (202), and the settings stay as they are. */
export const useSaveApprovalSettings = (
  onDone: (saved: ApprovalSettings | null) => void,
  onError: (error: Error) => void,
) =>
  useApprovableMutation({
    mutationFn: ({ requestReason, ...body }: ApprovalSettings & { requestReason: string }) =>
      apiJson<ApprovalSettings | PendingApproval>("PUT", SETTINGS_KEY, withRequestReason(body, requestReason)),
    errorTitle: "Failed to save approval settings",
    onDone,
    onError,
    refresh: (queryClient) => invalidateAll(queryClient, [SETTINGS_KEY]),
  });

/** Requests listed per kind; the heading counts them all. */
const SHOWN_PER_KIND = 5;
const REFRESH_MS = 30_000;

export interface PendingOfKind {
  items: ApprovalRequest[];
  total: number;
}

async function pendingOfKind(kind: ApprovalKind): Promise<PendingOfKind> {
  const res = await apiFetch(`${APPROVALS_KEY}?status=pending&kind=${kind}&limit=${SHOWN_PER_KIND}`);
  if (!res.ok) {
    await res.body?.cancel();
    return { items: [], total: 0 };
  }
  return { items: await res.json(), total: Number(res.headers.get("x-total-count") ?? 0) };
}

/** The pending requests of each kind, refreshed as the queue changes (under APPROVALS_KEY). */
export const usePendingOfKinds = (kinds: readonly ApprovalKind[]) =>
  useQueries({
    queries: kinds.map((kind) => ({
      // Under APPROVALS_KEY, so a new request (useOnPendingApproval) refreshes it at once.
      queryKey: [`${APPROVALS_KEY}?status=pending&kind=${kind}`],
      queryFn: () => pendingOfKind(kind),
      refetchInterval: REFRESH_MS,
    })),
  });
