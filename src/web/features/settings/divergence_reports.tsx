/**
 * System Information: what each node found that a primary restore lost (docs/deployment.md,
 * "After a restore"). Each report names the node, why it rebuilt its replica, where the diverged
 * copy is kept, and the lost sweeps, with the sweep a retry under the same key executed since.
 */
import { formatCurrency } from "../../lib/format.ts";
import { type DivergenceReport, useDivergenceReports } from "./api.ts";

const CATEGORY_LABELS: Record<keyof DivergenceReport["counts"], string> = {
  sweeps: "sweeps",
  cardMovements: "card movements",
  approvals: "approvals",
  registrations: "registrations",
  other: "other changes",
};

function countsText(counts: DivergenceReport["counts"]): string {
  const parts = (Object.keys(CATEGORY_LABELS) as (keyof DivergenceReport["counts"])[])
    .filter((key) => counts[key] > 0)
    .map((key) => `${counts[key]} ${CATEGORY_LABELS[key]}`);
  return parts.length === 0 ? "nothing" : parts.join(", ");
}

function Report({ report }: { report: DivergenceReport }) {
  return (
    <li className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="font-medium">
        {report.node} · {report.detectedAt.slice(0, 19).replace("T", " ")} UTC: lost {countsText(report.counts)}
        {report.moreAuditRows > 0 ? ` (and ${report.moreAuditRows} more audit rows)` : ""}
      </p>
      <p className="mt-1 break-words">{report.reason}. The diverged copy is kept at {report.setAsidePath}.</p>
      {report.sweeps.length > 0 && (
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {report.sweeps.map((sweep) => (
            <li key={sweep.id} className="break-words">
              Sweep {sweep.id} of {formatCurrency(sweep.amount, sweep.currency)} at {sweep.executedAt}
              {sweep.reExecutedAs
                ? `: executed again as ${sweep.reExecutedAs} by a retry with the same key`
                : ": not executed since"}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export function DivergenceReports() {
  const { data, isError } = useDivergenceReports();
  if (isError) return null;
  if (!data || data.length === 0) {
    return <p className="text-sm text-slate-700">No primary restore has lost a confirmed change.</p>;
  }
  return (
    <ul className="space-y-2" aria-label="Changes lost in primary restores">
      {data.map((report) => <Report key={report.id} report={report} />)}
    </ul>
  );
}
