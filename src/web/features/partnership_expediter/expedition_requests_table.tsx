/** The recorded expedition requests, newest first, with the moves each one's status allows. */
import {
  EXPEDITION_PARTNER_NAMES,
  EXPEDITION_STATUS_LABELS,
  expeditionMethodLabel,
  type ExpeditionMove,
  type ExpeditionStatus,
  nextExpeditionStatuses,
} from "../../../domain/expedition.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { Badge, type BadgeVariant } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { TitledCard } from "../../components/ui/card.tsx";
import { Skeleton } from "../../components/ui/spinner.tsx";
import { EmptyState, Table, TBody, Td, Th, THead, Tr } from "../../components/ui/table.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { type ExpeditionRequest, useExpeditionRequests, useMoveExpedition } from "./api.ts";
import { QueryFailed } from "../../components/ui/load_failed.tsx";

const STATUS_STYLES: Record<ExpeditionStatus, { variant: BadgeVariant; className: string }> = {
  open: { variant: "secondary", className: "bg-amber-100 text-amber-900" },
  in_progress: { variant: "secondary", className: "bg-blue-100 text-blue-900" },
  done: { variant: "default", className: "bg-green-800 text-white" },
  cancelled: { variant: "outline", className: "" },
};

/** The button that moves a request to `status`. */
const MOVE_LABELS: Record<ExpeditionMove, string> = {
  in_progress: "Start",
  done: "Mark Done",
  cancelled: "Cancel",
};

function Moves({ request }: { request: ExpeditionRequest }) {
  const move = useMoveExpedition();
  const moves = nextExpeditionStatuses(request.status);
  if (moves.length === 0) return null;
  return (
    <IfAllowed method="PATCH" path="/api/expedition-requests/:id">
      <div className="flex flex-wrap gap-2">
        {moves.map((status) => (
          <Button
            key={status}
            size="sm"
            variant="outline"
            disabled={move.isPending}
            aria-label={`${MOVE_LABELS[status]}: ${EXPEDITION_PARTNER_NAMES[request.partner]} request of ${
              formatDateTime(request.requestedAt)
            }`}
            onClick={() => move.mutate({ id: request.id, status })}
          >
            {MOVE_LABELS[status]}
          </Button>
        ))}
      </div>
    </IfAllowed>
  );
}

function RequestRow({ request }: { request: ExpeditionRequest }) {
  const style = STATUS_STYLES[request.status];
  return (
    <Tr>
      <Td>{EXPEDITION_PARTNER_NAMES[request.partner]}</Td>
      <Td>{expeditionMethodLabel(request.partner, request.method)}</Td>
      <Td className="max-w-xs whitespace-pre-wrap break-words">{request.justification}</Td>
      <Td>
        <Badge variant={style.variant} className={style.className}>{EXPEDITION_STATUS_LABELS[request.status]}</Badge>
        {request.statusChangedBy && request.statusChangedAt && (
          <p className="mt-1 text-xs text-slate-600">
            by {request.statusChangedBy.name}, {formatDateTime(request.statusChangedAt)}
          </p>
        )}
      </Td>
      <Td>{request.requestedBy.name}</Td>
      <Td>{formatDateTime(request.requestedAt)}</Td>
      <Td>
        <Moves request={request} />
      </Td>
    </Tr>
  );
}

export function ExpeditionRequestsTable() {
  const requests = useExpeditionRequests();
  const rows = requests.data ?? [];
  return (
    <TitledCard title="Expedition Requests" description="Every request filed here, newest first">
      {requests.isLoading && <Skeleton className="h-16 w-full" />}
      <QueryFailed query={requests} message="Failed to load expedition requests." />
      {requests.data && rows.length === 0 && (
        <EmptyState title="No expedition requests" text="Requests filed from the tabs above will appear here." />
      )}
      {rows.length > 0 && (
        <Table label="Expedition requests">
          <THead>
            <tr>
              <Th>Partner</Th>
              <Th>Method</Th>
              <Th>Justification</Th>
              <Th>Status</Th>
              <Th>Requested By</Th>
              <Th>Requested At</Th>
              <Th>Actions</Th>
            </tr>
          </THead>
          <TBody>
            {rows.map((request) => <RequestRow key={request.id} request={request} />)}
          </TBody>
        </Table>
      )}
    </TitledCard>
  );
}
