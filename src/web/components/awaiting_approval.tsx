/**
 * What waits for a second person on a screen: the pending four-eyes requests of the
 * screen's kinds, so a requested movement is shown as requested, never as done nor as gone.
 */
import { Link } from "react-router";
import { APPROVAL_KIND_LABELS, type ApprovalKind } from "../../domain/approval.ts";
import { usePendingOfKinds } from "../features/approvals/api.ts";
import { personText } from "./person.tsx";
import { describeRequest } from "../lib/approval.ts";
import { formatCurrency, formatDateTime } from "../lib/format.ts";

export function AwaitingApproval({ kinds, className = "mb-6" }: {
  kinds: readonly ApprovalKind[];
  /** Spacing from the screen's layout. */
  className?: string;
}) {
  const results = usePendingOfKinds(kinds);
  const items = results.flatMap((result) => result.data?.items ?? [])
    .sort((a, b) => b.requestedAt.localeCompare(a.requestedAt));
  const total = results.reduce((sum, result) => sum + (result.data?.total ?? 0), 0);
  if (total === 0) return null;
  return (
    <section
      aria-labelledby="awaiting-approval-heading"
      className={`${className} rounded-lg border border-amber-200 bg-amber-50 p-4 text-amber-950`}
      data-testid="awaiting-approval"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="awaiting-approval-heading" className="text-sm font-semibold">
          Awaiting approval ({total})
        </h2>
        <Link to="/approvals" className="text-sm font-medium underline">Open Approvals</Link>
      </div>
      <p className="mt-1 text-xs">
        Requested here and not yet approved by a second person: nothing of these has moved yet.
      </p>
      <ul className="mt-2 space-y-1 text-sm">
        {items.map((request) => (
          <li key={request.id} className="break-words">
            <span className="font-medium">{APPROVAL_KIND_LABELS[request.kind]}</span>
            {request.amount !== null && ` · ${formatCurrency(request.amount, request.currency ?? "USD")}`}
            {`: ${describeRequest(request)} · requested by ${
              personText(request.requestedByName, request.requestedByEmail)
            }, ${formatDateTime(request.requestedAt)}`}
          </li>
        ))}
      </ul>
      {total > items.length && <p className="mt-1 text-xs">and {total - items.length} more on the Approvals screen</p>}
    </section>
  );
}
