import type { NodeRole } from "../../config.ts";
import type { AppDeps } from "../../http/context.ts";
import { changesPausedMessage, type ReplicaStatus } from "../../topology/replication.ts";

export interface ReplicationState extends ReplicaStatus {
  role: NodeRole;
  /** null for a standalone node. */
  region: string | null;
  syncIntervalMs: number | null;
  /** Whether this node accepts changes now (a regional node forwards them to headquarters). */
  changesAccepted: boolean;
  /** What staff are told while changes are paused; null while they are accepted. */
  pausedMessage: string | null;
  /**
   * This node's clock minus the primary's, in whole milliseconds (topology/clock.ts); null for a
   * standalone node and before the first measurement.
   */
  clockOffsetMs: number | null;
  /** Set while that offset is past CLOCK_SKEW_WARN_MS: what administrators are told; otherwise null. */
  clockWarning: string | null;
}

export function replicationState(deps: AppDeps): ReplicationState {
  const { config, db } = deps;
  const clock = deps.clock.status();
  const clockFields = { clockOffsetMs: clock.offsetMs, clockWarning: clock.warning };
  if (config.replication === null || db.replica === null) {
    return {
      role: config.role,
      region: null,
      syncIntervalMs: null,
      lastSyncAt: null,
      secondsBehind: 0,
      primaryReachable: true,
      frameNo: null,
      lastError: null,
      changesAccepted: true,
      pausedMessage: null,
      ...clockFields,
    };
  }
  const status = db.replica.status();
  return {
    role: config.role,
    region: config.replication.region,
    syncIntervalMs: config.replication.syncIntervalMs,
    ...status,
    changesAccepted: status.primaryReachable,
    pausedMessage: status.primaryReachable ? null : changesPausedMessage(status.lastSyncAt),
    ...clockFields,
  };
}
