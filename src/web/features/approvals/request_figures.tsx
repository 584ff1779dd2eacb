/**
 * How a four-eyes request reads in the queue: its age, its status badge, and the balances it moves
 * or, for a request about people and controls, the roles, thresholds or setting it changes.
 */
import type { ApprovalStatus } from "../../../domain/approval.ts";
import { administrationDetails, type ApprovalFigures, type ApprovalRequest } from "../../lib/approval.ts";
import { formatCurrency } from "../../lib/format.ts";

export const STATUS_CLASSES: Record<ApprovalStatus, string> = {
  pending: "bg-amber-50 text-amber-900 border-transparent",
  approved: "bg-green-50 text-green-800 border-transparent",
  rejected: "bg-red-50 text-red-800 border-transparent",
  cancelled: "bg-slate-100 text-slate-700 border-transparent",
  expired: "bg-slate-100 text-slate-700 border-transparent",
};

/** "3 h 5 min", "2 days": how long a request has waited. */
export function age(iso: string): string {
  const minutes = Math.max(0, Math.floor((Date.now() - Date.parse(iso)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}

function Figures(
  { label, figures, currency }: { label: string; figures?: ApprovalFigures | null; currency: string },
) {
  if (!figures) return null;
  return (
    <p className="text-xs text-slate-700">
      <span className="font-medium">{label}</span> {figures.accountNumber}
      {figures.accountName ? ` (${figures.accountName})` : ""}:{" "}
      {formatCurrency(figures.balanceBefore, currency)} →{" "}
      {figures.balanceAfter === null || figures.balanceAfter === undefined
        ? "—"
        : formatCurrency(figures.balanceAfter, currency)}
    </p>
  );
}

export function RequestFigures({ request }: { request: ApprovalRequest }) {
  const currency = request.currency ?? "USD";
  return (
    <div className="space-y-0.5">
      {administrationDetails(request).map((line) => <p key={line} className="text-xs text-slate-700">{line}</p>)}
      <Figures label="From" figures={request.summary.source} currency={currency} />
      <Figures label="To" figures={request.summary.target} currency={currency} />
      <Figures label="Account" figures={request.summary.account} currency={currency} />
    </div>
  );
}

