/**
 * Where this node stands in the replicated topology (docs/deployment.md), from
 * GET /api/system/replication; signed out, the answer is null.
 */
import { useQuery } from "@tanstack/react-query";
import type { ReplicationState } from "../../server/features/system/service.ts";
import { getQueryFn } from "./api.ts";
import { useAuth } from "./auth.ts";

export type { ReplicationState };

/** How often the screens ask: the badge's "synced N s ago" stays within this of the truth. */
const REFRESH_MS = 5_000;

export function useReplicationState() {
  return useQuery<ReplicationState | null>({
    queryKey: ["/api/system/replication"],
    queryFn: getQueryFn({ on401: "returnNull" }),
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });
}

export interface ClockWarning {
  /** The sentence the server words (clockWarning). */
  warning: string;
  /** This node's clock minus the primary's, in milliseconds. */
  offsetMs: number;
}

/**
 * The warning that this node's clock is far from the primary's, for administrators, who can have it
 * corrected; null for everyone else and while the clock is close enough.
 */
export function useClockWarning(): ClockWarning | null {
  const { data } = useReplicationState();
  const { user } = useAuth();
  if (!data?.clockWarning || data.clockOffsetMs === null) return null;
  if (!(user?.roles ?? []).includes("administrator")) return null;
  return { warning: data.clockWarning, offsetMs: data.clockOffsetMs };
}
