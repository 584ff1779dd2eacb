/**
 * Where this node stands in the replicated topology (docs/deployment.md), from
 * GET /api/system/replication; signed out, the answer is null.
 */
import { useQuery } from "@tanstack/react-query";
import type { ReplicationState } from "../../server/features/system/service.ts";
import { getQueryFn } from "./api.ts";

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
