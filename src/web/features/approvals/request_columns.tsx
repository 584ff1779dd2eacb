/** The columns of the approval queue; sortable ones are named by the server's sort keys (APPROVAL_SORT_KEYS). */
import { InstitutionLink } from "../../components/institution_link.tsx";
import { Person } from "../../components/person.tsx";
import { Button } from "../../components/ui/button.tsx";
import type { ColumnDef } from "../../components/ui/data_table.tsx";
import { APPROVAL_KIND_LABELS } from "../../../domain/approval.ts";
import { type ApprovalRequest, describeRequest } from "../../lib/approval.ts";
import { formatCurrency, formatDateTime } from "../../lib/format.ts";
import type { Decision } from "./api.ts";
import { age, RequestFigures, STATUS_CLASSES } from "./request_figures.tsx";

export interface RequestActions {
  userId: string | undefined;
  /** Whether the user holds the role that decides this request (approver: money; administrator: administration). */
  decides: (request: ApprovalRequest) => boolean;
  /** "an approver", "a second administrator": who must decide the user's own request. */
  deciderOf: (request: ApprovalRequest) => string;
  mayWithdraw: boolean;
  withdrawing: boolean;
  onDecide: (request: ApprovalRequest, decision: Decision) => void;
  onWithdraw: (request: ApprovalRequest) => void;
}

function WhatItWillDo({ request }: { request: ApprovalRequest }) {
  return (
    <>
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">
        {APPROVAL_KIND_LABELS[request.kind]}
      </p>
      <p className="font-medium text-slate-900">{describeRequest(request)}</p>
      {request.summary.institution && (
        <p className="text-xs">
          <InstitutionLink id={request.summary.institution.id} name={request.summary.institution.name} />
        </p>
      )}
      <RequestFigures request={request} />
    </>
  );
}

function DecisionCell({ request }: { request: ApprovalRequest }) {
  return (
    <>
      {request.decidedByName && (
        <p>
          <Person prefix="By " name={request.decidedByName} email={request.decidedByEmail} />
        </p>
      )}
      {request.decisionReason && <p className="text-slate-700">{request.decisionReason}</p>}
      {request.executedByName && (
        <p>
          <Person prefix="Executed by " name={request.executedByName} email={request.executedByEmail} />
        </p>
      )}
      {request.status === "pending" && <p className="text-slate-600">Expires {formatDateTime(request.expiresAt)}</p>}
    </>
  );
}

function ActionsCell({ request, actions }: { request: ApprovalRequest; actions: RequestActions }) {
  const own = request.requestedBy === actions.userId;
  const pending = request.status === "pending";
  const mayDecide = actions.decides(request);
  return (
    <>
      {pending && mayDecide && !own && (
        <div className="flex justify-end gap-2">
          <Button size="sm" changes onClick={() => actions.onDecide(request, "approve")}>
            Approve
          </Button>
          <Button
            size="sm"
            variant="outline"
            changes
            onClick={() => actions.onDecide(request, "reject")}
          >
            Reject
          </Button>
        </div>
      )}
      {pending && own && actions.mayWithdraw && (
        <Button
          size="sm"
          variant="outline"
          changes
          onClick={() => actions.onWithdraw(request)}
          disabled={actions.withdrawing}
        >
          Withdraw
        </Button>
      )}
      {pending && own && <p className="text-xs text-slate-600">Needs {actions.deciderOf(request)}</p>}
    </>
  );
}

const DESCRIPTIVE_COLUMNS: ColumnDef<ApprovalRequest>[] = [
  {
    accessorKey: "requestedAt",
    header: "Requested",
    meta: { cellClassName: "whitespace-nowrap" },
    cell: ({ row }) => (
      <>
        <p>{formatDateTime(row.original.requestedAt)}</p>
        <p className="text-xs text-slate-600">{age(row.original.requestedAt)} ago</p>
      </>
    ),
  },
  {
    accessorKey: "kind",
    header: "What it will do",
    // The description and figures need room; on a phone the table scrolls inside its card instead.
    meta: { cellClassName: "min-w-56" },
    cell: ({ row }) => <WhatItWillDo request={row.original} />,
  },
  {
    accessorKey: "amount",
    header: "Amount",
    meta: { cellClassName: "whitespace-nowrap tabular-nums" },
    cell: ({ row }) =>
      row.original.amount ? formatCurrency(row.original.amount, row.original.currency ?? "USD") : "—",
  },
  {
    id: "requester",
    accessorFn: (request) => request.requestedByName,
    header: "Requester and reason",
    cell: ({ row }) => (
      <>
        <p>
          <Person name={row.original.requestedByName} email={row.original.requestedByEmail} />
        </p>
        <p className="text-xs text-slate-700">{row.original.requestReason}</p>
      </>
    ),
  },
  {
    accessorKey: "status",
    header: "Status",
    cell: ({ row }) => (
      <span
        className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold ${
          STATUS_CLASSES[row.original.status]
        }`}
      >
        {row.original.status}
      </span>
    ),
  },
  {
    id: "decision",
    header: "Decision",
    enableSorting: false,
    meta: { cellClassName: "text-xs" },
    cell: ({ row }) => <DecisionCell request={row.original} />,
  },
];

/** Unsorted, the queue is newest first. */
export function requestColumns(actions: RequestActions): ColumnDef<ApprovalRequest>[] {
  return [
    ...DESCRIPTIVE_COLUMNS,
    {
      id: "actions",
      header: "Actions",
      enableSorting: false,
      meta: { cellClassName: "text-right" },
      cell: ({ row }) => <ActionsCell request={row.original} actions={actions} />,
    },
  ];
}
