/**
 * Four-eyes answers: an action above its approval threshold answers 202 with a pending
 * request instead of its result. Screens show that it waits for a second person, never that it happened.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApprovalRequestDto } from "../../server/features/approvals/four_eyes.ts";
import { apiFetch } from "./api.ts";
import { type ToastInput, useToast } from "./toast.ts";

export const APPROVALS_KEY = "/api/approvals";
export const PENDING_APPROVALS_KEY = "/api/approvals?status=pending&limit=1";

export interface ApprovalFigures {
  accountNumber?: string;
  accountName?: string;
  balanceBefore?: string | null;
  balanceAfter?: string | null;
}

/** The server's request, with the summary typed as the screens read it. */
export interface ApprovalRequest extends Omit<ApprovalRequestDto, "summary"> {
  summary: {
    description: string;
    source?: ApprovalFigures | null;
    target?: ApprovalFigures;
    account?: ApprovalFigures;
    institution?: { id: string; name: string; statusBefore: string; statusAfter: string; reason?: string | null };
  };
}

export interface PendingApproval {
  status: "pending_approval";
  message: string;
  approvalRequest: ApprovalRequest;
  /** Why the movement needs a second person: the maker's day total, an account's daily outflow limit. */
  reasons?: string[];
}

export function isPendingApproval(body: unknown): body is PendingApproval {
  return typeof body === "object" && body !== null &&
    (body as { status?: unknown }).status === "pending_approval";
}

export function pendingToast(pending: PendingApproval): ToastInput {
  const why = (pending.reasons ?? []).map((reason) => `${reason}. `).join("");
  return {
    title: "Submitted for approval",
    description:
      `${pending.approvalRequest.summary.description}. ${why}A second person with the approver role must approve it; nothing has moved yet.`,
  };
}

/** The sidebar badge: pending requests, counted by the server. */
export function usePendingApprovalCount(): number {
  const { data } = useQuery<number>({
    queryKey: [PENDING_APPROVALS_KEY],
    queryFn: async () => {
      const res = await apiFetch(PENDING_APPROVALS_KEY);
      if (!res.ok) return 0;
      await res.body?.cancel();
      return Number(res.headers.get("x-total-count") ?? 0);
    },
    refetchInterval: 30_000,
  });
  return data ?? 0;
}

/**
 * For an action's success handler: when the answer is a pending request, says so, refreshes the
 * approval queue and badge, and returns true (the caller then shows no "done" message).
 */
export function useOnPendingApproval(): <T>(result: T | PendingApproval) => result is PendingApproval {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  return <T>(result: T | PendingApproval): result is PendingApproval => {
    if (!isPendingApproval(result)) return false;
    toast(pendingToast(result));
    queryClient.invalidateQueries({
      predicate: (query) => String(query.queryKey[0]).startsWith(APPROVALS_KEY),
    });
    return true;
  };
}
