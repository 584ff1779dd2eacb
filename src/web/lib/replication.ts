/**
 * Where this node stands in the replicated topology (docs/deployment.md), from
 * GET /api/system/replication; signed out, the answer is null.
 */
import { useQuery } from "@tanstack/react-query";
import type { ReplicationState } from "../../server/features/system/service.ts";
import { ApiError, getQueryFn } from "./api.ts";
import { useAuth } from "./auth.ts";

export type { ReplicationState };

/** How often the screens ask: the badge's "synced N s ago" stays within this of the truth. */
const REFRESH_MS = 5_000;

/**
 * While the node rebuilds its replica every call answers 503 "re-synchronising", this one too:
 * the screens then show that state, with the server's message, instead of an error.
 */
function resynchronisingState(error: unknown): ReplicationState | null {
  if (!(error instanceof ApiError) || error.status !== 503) return null;
  try {
    const body = JSON.parse(error.bodyText) as { reason?: string; message?: string };
    if (body.reason !== "resynchronising") return null;
    return { ...RESYNCHRONISING, pausedMessage: body.message ?? null };
  } catch {
    return null;
  }
}

const RESYNCHRONISING: ReplicationState = {
  role: "regional",
  region: null,
  syncIntervalMs: null,
  resynchronising: true,
  lastDivergence: null,
  lastSyncAt: null,
  secondsBehind: null,
  primaryReachable: true,
  headquartersReachable: true,
  frameNo: null,
  lastError: null,
  changesAccepted: false,
  pausedMessage: null,
  clockOffsetMs: null,
  clockWarning: null,
};

const readState = getQueryFn<ReplicationState | null>({ on401: "returnNull" });

export function useReplicationState() {
  return useQuery<ReplicationState | null>({
    queryKey: ["/api/system/replication"],
    queryFn: async (context) => {
      try {
        return await readState(context);
      } catch (error) {
        const resynchronising = resynchronisingState(error);
        if (resynchronising === null) throw error;
        return resynchronising;
      }
    },
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
