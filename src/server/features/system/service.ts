import type { NodeRole } from "../../config.ts";
import type { AppDeps } from "../../http/context.ts";
import {
  changesPausedMessage,
  type ReplicaStatus,
  RESYNCHRONISING_MESSAGE,
} from "../../topology/replication.ts";
import type { LostChangeReport, LostSweep } from "./lost_changes.ts";

export interface ReplicationState extends ReplicaStatus {
  role: NodeRole;
  /** null for a standalone node. */
  region: string | null;
  syncIntervalMs: number | null;
  /**
   * Whether headquarters answers this node (a regional node asks it every sync interval); true at
   * headquarters and on a standalone node, which execute their own changes.
   */
  headquartersReachable: boolean;
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

/** What a regional node knows of headquarters' own state (topology/headquarters_link.ts). */
export interface HeadquartersView {
  reachable: boolean;
  changesAccepted: boolean;
}

const STANDALONE: Omit<ReplicationState, "role" | "clockOffsetMs" | "clockWarning"> = {
  region: null,
  syncIntervalMs: null,
  resynchronising: false,
  lastDivergence: null,
  lastSyncAt: null,
  secondsBehind: 0,
  primaryReachable: true,
  headquartersReachable: true,
  frameNo: null,
  lastError: null,
  changesAccepted: true,
  pausedMessage: null,
};

function pausedMessageOf(status: ReplicaStatus, headquarters: HeadquartersView): string | null {
  if (status.resynchronising) return RESYNCHRONISING_MESSAGE;
  if (!status.primaryReachable || !headquarters.reachable || !headquarters.changesAccepted) {
    return changesPausedMessage(status.lastSyncAt);
  }
  return null;
}

export function replicationState(deps: AppDeps, headquarters: HeadquartersView | null): ReplicationState {
  const { config, db } = deps;
  const clock = deps.clock.status();
  const clockFields = { clockOffsetMs: clock.offsetMs, clockWarning: clock.warning };
  if (config.replication === null || db.replica === null) return { role: config.role, ...STANDALONE, ...clockFields };
  const status = db.replica.status();
  const view = headquarters ?? { reachable: true, changesAccepted: true };
  const pausedMessage = pausedMessageOf(status, view);
  return {
    role: config.role,
    region: config.replication.region,
    syncIntervalMs: config.replication.syncIntervalMs,
    ...status,
    headquartersReachable: view.reachable,
    changesAccepted: pausedMessage === null,
    pausedMessage,
    ...clockFields,
  };
}

/** A lost sweep, and the sweep a retry with its Idempotency-Key made after the restore, if any. */
export interface ReportedSweep extends LostSweep {
  reExecutedAs: string | null;
}

export interface DivergenceReport extends Omit<LostChangeReport, "sweeps"> {
  id: string;
  sweeps: ReportedSweep[];
}

/** How many reports the System screen lists, newest first. */
export const DIVERGENCE_REPORTS_LISTED = 20;

export async function divergenceReports(deps: AppDeps): Promise<DivergenceReport[]> {
  const rows = await deps.db.statements.all<{ id: string; report: string }>(
    "SELECT id, report FROM divergence_reports ORDER BY detected_at DESC LIMIT ?",
    [DIVERGENCE_REPORTS_LISTED],
  );
  const reports: DivergenceReport[] = [];
  for (const row of rows) {
    const report = JSON.parse(row.report) as LostChangeReport;
    const sweeps: ReportedSweep[] = [];
    for (const sweep of report.sweeps) sweeps.push({ ...sweep, reExecutedAs: await reExecution(deps, sweep) });
    reports.push({ ...report, id: row.id, sweeps });
  }
  return reports;
}

/** The sweep that now holds the lost sweep's Idempotency-Key: a retry executed it again after the restore. */
async function reExecution(deps: AppDeps, sweep: LostSweep): Promise<string | null> {
  if (sweep.idempotencyKey === null || sweep.executedBy === null) return null;
  const row = await deps.db.statements.get<{ sweepId: string | null }>(
    `SELECT json_extract(response_body, '$.id') AS sweepId FROM idempotency_keys
      WHERE user_id = ? AND idempotency_key = ? AND route = 'balance_sweep'`,
    [sweep.executedBy, sweep.idempotencyKey],
  );
  return row?.sweepId ?? null;
}
