/**
 * The sidebar's badge of pending requests, apart from the rest of lib/approval.ts: the shell loads it
 * with the first page, the forms and queue that describe requests (and format their amounts) later.
 */
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "./api.ts";

export const APPROVALS_KEY = "/api/approvals";
export const PENDING_APPROVALS_KEY = "/api/approvals?status=pending&limit=1";

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
