/**
 * Before submitting, what the action will do: execute at once, or go to a second person, with the
 * figures that decide it (the approval threshold, what the maker moved alone today, the account's
 * daily outflow limit), as the server's preview answered.
 */
import type { ApprovalPreview } from "../lib/approval.ts";
import { formatCurrency } from "../lib/format.ts";

/** The figures behind the decision, in the words and format the maker reads elsewhere. */
function figures(preview: ApprovalPreview): string {
  const currency = preview.currency ?? "USD";
  const parts: string[] = [];
  if (preview.threshold !== null && preview.makerTodayTotal !== null) {
    parts.push(
      `Approval threshold ${formatCurrency(preview.threshold, currency)}; you moved ${
        formatCurrency(preview.makerTodayTotal, currency)
      } alone today in ${currency}.`,
    );
  }
  if (preview.account?.dailyOutflowLimit) {
    parts.push(
      `Account ${preview.account.accountNumber}: ${formatCurrency(preview.account.outflowToday, currency)} out today of a ${
        formatCurrency(preview.account.dailyOutflowLimit, currency)
      } daily limit.`,
    );
  }
  return parts.join(" ");
}

export function ApprovalPreviewNote({ preview }: { preview: ApprovalPreview | null }) {
  if (!preview) return null;
  const approval = preview.outcome === "approval";
  const detail = figures(preview);
  return (
    <div
      role="status"
      data-testid="approval-preview"
      data-outcome={preview.outcome}
      className={`rounded-md border p-3 text-sm ${
        approval ? "border-amber-300 bg-amber-50 text-amber-950" : "border-slate-200 bg-slate-50 text-slate-800"
      }`}
    >
      <p className="font-medium">
        {approval
          ? "This goes to approval: a second person must approve it, and nothing happens until then."
          : "This executes at once."}
      </p>
      {approval && preview.reason && <p className="mt-1">{preview.reason}.</p>}
      {detail && <p className="mt-1 text-xs">{detail}</p>}
    </div>
  );
}
