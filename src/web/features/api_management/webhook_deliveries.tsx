/** One webhook's delivery log: each event sent, its status, every attempt's answer, and Redeliver. */
import { useMemo } from "react";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { TitledCard } from "../../components/ui/card.tsx";
import { type ColumnDef, DataTable } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { actionsColumn } from "../../components/columns.tsx";
import { formatDateTime } from "../../lib/format.ts";
import {
  type Delivery,
  type DeliveryAttempt,
  useDeliveries,
  useRedeliver,
  type Webhook,
} from "./webhooks_api.ts";
import { loadFailure } from "../../components/ui/load_failed.tsx";

const LOADING_ROWS = 3;

function DeliveryStatusBadge({ status }: { status: Delivery["status"] }) {
  if (status === "succeeded") return <Badge className="bg-green-800 text-white">delivered</Badge>;
  if (status === "failed") return <Badge variant="destructive">failed</Badge>;
  return <Badge variant="outline" className="text-amber-800">pending</Badge>;
}

/** "HTTP 200 in 84 ms: ok", or the error. */
function attemptAnswer(attempt: DeliveryAttempt): string {
  const took = `in ${attempt.durationMs} ms`;
  if (attempt.error !== null && attempt.statusCode === null) return `${attempt.error} (${took})`;
  const excerpt = attempt.responseExcerpt ? `: ${attempt.responseExcerpt}` : "";
  const note = attempt.error !== null ? ` — ${attempt.error}` : "";
  return `HTTP ${attempt.statusCode} ${took}${excerpt}${note}`;
}

function Attempts({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts.length === 0) return <span className="text-slate-600">Not tried yet</span>;
  const last = delivery.attempts[delivery.attempts.length - 1];
  return (
    <details>
      <summary className="cursor-pointer">
        {delivery.attempts.length} {delivery.attempts.length === 1 ? "attempt" : "attempts"}:{" "}
        {attemptAnswer(last)}
      </summary>
      <ol className="mt-1 list-decimal space-y-1 pl-5 text-xs text-slate-700">
        {delivery.attempts.map((attempt) => (
          <li key={attempt.attempt}>
            {formatDateTime(attempt.startedAt)}: {attemptAnswer(attempt)}
          </li>
        ))}
      </ol>
    </details>
  );
}

function deliveryColumns(onRedeliver: (delivery: Delivery) => void, pending: boolean): ColumnDef<Delivery>[] {
  return [
    { accessorKey: "createdAt", header: "Queued", cell: ({ row }) => formatDateTime(row.original.createdAt) },
    {
      accessorKey: "eventSummary",
      header: "Event",
      cell: ({ row }) => (
        <>
          {row.original.eventSummary}
          <code className="block text-xs text-slate-600">{row.original.eventKind}</code>
        </>
      ),
    },
    {
      accessorKey: "status",
      header: "Status",
      cell: ({ row }) => (
        <>
          <DeliveryStatusBadge status={row.original.status} />
          {row.original.status === "pending" && row.original.nextAttemptAt && (
            <span className="block text-xs text-slate-600">
              next {formatDateTime(row.original.nextAttemptAt)}
            </span>
          )}
        </>
      ),
    },
    {
      id: "attempts",
      header: "Answer",
      enableSorting: false,
      meta: { cellClassName: "break-words text-sm" },
      cell: ({ row }) => <Attempts delivery={row.original} />,
    },
    actionsColumn((delivery) => (
      <Button changes
        variant="outline"
        size="sm"
        disabled={pending}
        aria-label={`Redeliver ${delivery.eventSummary}`}
        onClick={() => onRedeliver(delivery)}
      >
        Redeliver
      </Button>
    )),
  ];
}

export function DeliveryLog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const deliveries = useDeliveries(webhook.id);
  const redeliver = useRedeliver(webhook.id);
  const columns = useMemo(
    () => deliveryColumns((delivery) => redeliver.mutate(delivery.id), redeliver.isPending),
    [redeliver.mutate, redeliver.isPending],
  );
  return (
    <TitledCard
      title={`Deliveries to ${webhook.url}`}
      description="Newest first, refreshed every few seconds. Redeliver sends the event again now, with a fresh round of retries."
    >
      <div className="mb-3 flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={() => deliveries.refetch()}>Refresh</Button>
        <Button variant="outline" size="sm" onClick={onClose}>Close</Button>
      </div>
      <DataTable
        label={`Deliveries to ${webhook.url}`}
        columns={columns}
        rows={deliveries.data ?? []}
        isLoading={deliveries.isLoading}
        loadingRows={LOADING_ROWS}
        urlKey="deliveries"
        failure={loadFailure(deliveries, "Deliveries could not be loaded")}
        empty={<EmptyState title="No deliveries yet" text="Events this webhook subscribes to appear here once sent." />}
      />
    </TitledCard>
  );
}
