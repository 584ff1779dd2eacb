/**
 * Where this node stands in the replicated topology (docs/deployment.md), from
 * GET /api/system/replication: the node's badge in the header (with its freshness on a regional node), a banner on
 * every screen while changes are paused, for administrators a badge while the node's clock is far
 * from the primary's, and the full state for the System Information tab.
 */
import { useAtomValue } from "jotai";
import { clockOffsetLabel } from "../../../domain/clock_offset.ts";
import { staleReadAtom } from "../../lib/freshness.ts";
import { useClockWarning, useReplicationState } from "../../lib/replication.ts";

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function ageText(seconds: number | null): string {
  if (seconds === null) return "never synced";
  if (seconds < 60) return `synced ${seconds} s ago`;
  if (seconds < 3_600) return `synced ${Math.floor(seconds / 60)} min ago`;
  return `synced ${Math.floor(seconds / 3_600)} h ago`;
}

const BADGE = "inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-medium";

/** What headquarters and a standalone console call themselves in the header. */
const NODE_NAMES = { headquarters: "Headquarters", standalone: "Standalone" } as const;

/**
 * Which node this is, in the header: "North · synced 2 s ago" on a regional node, "Headquarters" or
 * "Standalone" on a node that executes its own changes.
 */
export function NodeBadge() {
  const { data } = useReplicationState();
  if (!data) return null;
  if (data.role !== "regional") {
    return (
      <span className={`${BADGE} border-slate-300 text-slate-700`} data-testid="node-badge">
        {NODE_NAMES[data.role]}
      </span>
    );
  }
  if (data.region === null) return null;
  const tone = data.primaryReachable ? "border-slate-300 text-slate-700" : "border-amber-400 bg-amber-50 text-amber-900";
  return (
    <span
      className={`${BADGE} ${tone}`}
      title={data.lastSyncAt ? `Last synced with headquarters at ${data.lastSyncAt}` : undefined}
      data-testid="node-badge"
    >
      {capitalised(data.region)} · {ageText(data.secondsBehind)}
    </span>
  );
}

/**
 * "Clock 2 min ahead", for administrators, beside the node badge while this node's clock is further
 * from the primary's than the server's bound; screen readers hear the server's whole sentence.
 */
export function ClockWarningBadge() {
  const clock = useClockWarning();
  if (clock === null) return null;
  return (
    <span
      role="status"
      className={`${BADGE} border-amber-400 bg-amber-50 text-amber-900`}
      title={clock.warning}
      data-testid="clock-warning-badge"
    >
      <span aria-hidden="true">{clockOffsetLabel(clock.offsetMs)}</span>
      <span className="sr-only">{clock.warning}</span>
    </span>
  );
}

/** "+120,034 ms", "−80 ms": the offset as measured, signed. */
function offsetText(offsetMs: number | null): string {
  if (offsetMs === null) return "—";
  return `${offsetMs > 0 ? "+" : offsetMs < 0 ? "−" : ""}${Math.abs(offsetMs).toLocaleString("en-US")} ms`;
}

/** Shown on every screen while this node cannot reach headquarters: changes are refused meanwhile. */
export function ChangesPausedBanner() {
  const { data } = useReplicationState();
  if (!data || data.changesAccepted || data.pausedMessage === null) return null;
  return (
    <div role="alert" className="border-b border-amber-300 bg-amber-50 px-6 py-2 text-sm text-amber-900">
      {data.pausedMessage}
    </div>
  );
}

/** Shown while the last read came from this node's copy before it received the user's own last change. */
export function StaleReadBanner() {
  const stale = useAtomValue(staleReadAtom);
  if (!stale) return null;
  return (
    <div role="status" className="border-b border-sky-300 bg-sky-50 px-6 py-2 text-sm text-sky-900">
      This page may not yet show your last change: this node has not received it from headquarters yet. It
      will appear within seconds.
    </div>
  );
}

const yesNo = (value: boolean) => value ? "Yes" : "No";

/** The full state, for administrators (System Information). */
export function ReplicationDetails() {
  const { data } = useReplicationState();
  const clock = useClockWarning();
  if (!data) return null;
  const rows: [string, string][] = [
    ["Node role", capitalised(data.role)],
    ["Region", data.region === null ? "—" : capitalised(data.region)],
    ["Primary reachable", yesNo(data.primaryReachable)],
    ["Headquarters reachable", yesNo(data.headquartersReachable)],
    ["Re-synchronising after a primary restore", yesNo(data.resynchronising)],
    ["Last successful sync", data.lastSyncAt ?? (data.role === "standalone" ? "Not replicated" : "Never")],
    ["Seconds behind (at most)", data.secondsBehind === null ? "—" : String(data.secondsBehind)],
    ["Replication index (frame)", data.frameNo === null ? "—" : String(data.frameNo)],
    ["Sync interval", data.syncIntervalMs === null ? "—" : `${data.syncIntervalMs} ms`],
    ["Changes", data.changesAccepted ? "Accepted" : "Paused"],
    ["Clock offset from the primary", offsetText(data.clockOffsetMs)],
  ];
  return (
    <>
      {clock && (
        <p
          role="status"
          className="mb-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="clock-warning"
        >
          {clock.warning}
        </p>
      )}
      <dl className="grid gap-3 text-sm sm:grid-cols-2" aria-label="Replication">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt className="font-medium text-slate-800">{term}</dt>
            <dd className="text-slate-700">{value}</dd>
          </div>
        ))}
        {data.lastDivergence && (
          <div className="sm:col-span-2">
            <dt className="font-medium text-slate-800">Last primary restore found</dt>
            <dd className="break-words text-slate-700">
              {data.lastDivergence.detectedAt}: {data.lastDivergence.reason}
            </dd>
          </div>
        )}
        {data.lastError && (
          <div className="sm:col-span-2">
            <dt className="font-medium text-slate-800">Last sync error</dt>
            <dd className="break-words text-slate-700">{data.lastError}</dd>
          </div>
        )}
      </dl>
    </>
  );
}
