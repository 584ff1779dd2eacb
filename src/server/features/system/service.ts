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
}

export function replicationState(deps: AppDeps): ReplicationState {
  const { config, db } = deps;
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
  };
}
