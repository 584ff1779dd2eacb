/**
 * Approvals (issue 20): the queue of pending four-eyes requests, each with what it will do, the
 * figures before and after, requester, reason and age; approve or reject after a confirmation that
 * restates the amount and accounts; the requester's own requests; the approval settings.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { InstitutionLink } from "../../components/institution_link.tsx";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { TextAreaField, TextField } from "../../components/ui/form.tsx";
import { type ColumnDef, DataTable, type FilterDef, type SortingState } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { Tabs } from "../../components/ui/tabs.tsx";
import {
  APPROVAL_KIND_LABELS,
  APPROVAL_KINDS,
  type ApprovalStatus,
  STORED_APPROVAL_STATUSES,
} from "../../../domain/approval.ts";
import { apiJson, apiRequest } from "../../lib/api.ts";
import { type ApprovalFigures, type ApprovalRequest, APPROVALS_KEY } from "../../lib/approval.ts";
import { useAuth, useMayCall } from "../../lib/auth.ts";
import { formatCurrency, formatDateTime } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { handleMutationError } from "../../lib/unauthorized.ts";

const SETTINGS_KEY = "/api/approval-settings";
const PAGE_SIZE = 100;
const CURRENCIES = ["USD", "EUR", "GBP", "JPY"] as const;

interface ApprovalSettings {
  thresholds: Record<string, string>;
  expiryMinutes: number;
}

const STATUS_CLASSES: Record<ApprovalStatus, string> = {
  pending: "bg-amber-50 text-amber-900 border-transparent",
  approved: "bg-green-50 text-green-800 border-transparent",
  rejected: "bg-red-50 text-red-800 border-transparent",
  cancelled: "bg-slate-100 text-slate-700 border-transparent",
  expired: "bg-slate-100 text-slate-700 border-transparent",
};

/** "3 h 5 min", "2 days": how long a request has waited. */
function age(iso: string): string {
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

function RequestFigures({ request }: { request: ApprovalRequest }) {
  const currency = request.currency ?? "USD";
  return (
    <div className="space-y-0.5">
      <Figures label="From" figures={request.summary.source} currency={currency} />
      <Figures label="To" figures={request.summary.target} currency={currency} />
      <Figures label="Account" figures={request.summary.account} currency={currency} />
    </div>
  );
}

function DecisionDialog({ request, decision, onClose }: {
  request: ApprovalRequest | null;
  decision: "approve" | "reject";
  onClose: () => void;
}) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const decide = useMutation({
    mutationFn: (id: string) =>
      apiJson<ApprovalRequest>("POST", `${APPROVALS_KEY}/${id}/${decision}`, { reason }),
    onSuccess: (decided) => {
      toast({
        title: decision === "approve" ? "Request approved and executed" : "Request rejected",
        description: decided.summary.description,
      });
      // Approval moves money: every screen's figures may have changed.
      queryClient.invalidateQueries();
      setReason("");
      onClose();
    },
    onError: (failure) =>
      handleMutationError(failure, toast, decision === "approve" ? "Approval failed" : "Rejection failed"),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!request || decide.isPending) return;
    if (!reason.trim()) {
      setError("Give a reason for the decision");
      return;
    }
    decide.mutate(request.id);
  };
  const verb = decision === "approve" ? "Approve" : "Reject";
  return (
    <Dialog
      open={request !== null}
      onClose={onClose}
      title={`${verb} this request?`}
      description={decision === "approve"
        ? "Approving executes it now, in your name, after checking every condition again."
        : "Rejecting ends the request; nothing moves."}
    >
      {request && (
        <form onSubmit={submit} className="space-y-4">
          <div
            className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm"
            data-testid="decision-summary"
          >
            <p className="font-medium text-slate-900">{request.summary.description}</p>
            {request.amount && (
              <p className="mt-1 text-slate-800">
                Amount: <strong>{formatCurrency(request.amount, request.currency ?? "USD")}</strong>
              </p>
            )}
            <div className="mt-1">
              <RequestFigures request={request} />
            </div>
            <p className="mt-1 text-xs text-slate-700">
              Requested by {request.requestedByName}: “{request.requestReason}”
            </p>
          </div>
          <TextAreaField
            label="Reason for the decision"
            required
            maxLength={1000}
            value={reason}
            error={error}
            onChange={(event) => {
              setReason(event.target.value);
              setError(null);
            }}
          />
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={onClose}>Cancel</Button>
            <Button
              type="submit"
              variant={decision === "approve" ? "default" : "destructive"}
              disabled={decide.isPending}
            >
              {decide.isPending ? "Working…" : `Confirm ${verb.toLowerCase()}`}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

const KIND_FILTER: FilterDef = {
  columnId: "kind",
  label: "Filter by type",
  allLabel: "All types",
  options: APPROVAL_KINDS.map((kind) => ({ value: kind, label: APPROVAL_KIND_LABELS[kind] })),
};

const STATUS_FILTER: FilterDef = {
  columnId: "status",
  label: "Filter by status",
  allLabel: "All statuses",
  options: [...STORED_APPROVAL_STATUSES, "expired" as const].map((status) => ({ value: status, label: status })),
};

interface RequestPage {
  items: ApprovalRequest[];
  total: number;
}

function RequestsTable({ query, label, emptyText, filters }: {
  query: string;
  label: string;
  emptyText: string;
  /** Filters the server applies (by the column they name), on top of the tab's own `query`. */
  filters: readonly FilterDef[];
}) {
  const { user } = useAuth();
  const mayApprove = useMayCall("POST", "/api/approvals/:id/approve");
  const mayWithdraw = useMayCall("POST", "/api/approvals/:id/cancel");
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [offset, setOffset] = useState(0);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [filterValues, setFilterValues] = useState<Record<string, string>>({});
  const params = new URLSearchParams(query);
  params.set("limit", String(PAGE_SIZE));
  params.set("offset", String(offset));
  if (sorting[0]) {
    params.set("sort", sorting[0].id);
    params.set("order", sorting[0].desc ? "desc" : "asc");
  }
  for (const [name, value] of Object.entries(filterValues)) if (value) params.set(name, value);
  const key = `${APPROVALS_KEY}?${params}`;
  const narrowed = Object.values(filterValues).some(Boolean);
  const page = useQuery<RequestPage>({
    queryKey: [key],
    queryFn: async () => {
      const res = await apiRequest("GET", key);
      const items = (await res.json()) as ApprovalRequest[];
      return { items, total: Number(res.headers.get("X-Total-Count") ?? items.length) };
    },
    placeholderData: keepPreviousData,
  });
  const [deciding, setDeciding] = useState<
    { request: ApprovalRequest; decision: "approve" | "reject" } | null
  >(null);
  const withdraw = useMutation({
    mutationFn: (id: string) => apiJson<ApprovalRequest>("POST", `${APPROVALS_KEY}/${id}/cancel`),
    onSuccess: () => {
      toast({ title: "Request withdrawn" });
      queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(APPROVALS_KEY) });
    },
    onError: (failure) => handleMutationError(failure, toast, "Withdrawal failed"),
  });
  // Sortable columns are named by the server's sort keys (APPROVAL_SORT_KEYS); unsorted, newest first.
  const columns: ColumnDef<ApprovalRequest>[] = [
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
      cell: ({ row }) => {
        const request = row.original;
        return (
          <>
            <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">
              {APPROVAL_KIND_LABELS[request.kind]}
            </p>
            <p className="font-medium text-slate-900">{request.summary.description}</p>
            {request.summary.institution && (
              <p className="text-xs">
                <InstitutionLink id={request.summary.institution.id} name={request.summary.institution.name} />
              </p>
            )}
            <RequestFigures request={request} />
          </>
        );
      },
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
          <p className="font-medium">{row.original.requestedByName}</p>
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
      cell: ({ row }) => {
        const request = row.original;
        return (
          <>
            {request.decidedByName && <p>By {request.decidedByName}</p>}
            {request.decisionReason && <p className="text-slate-700">{request.decisionReason}</p>}
            {request.executedByName && <p>Executed by {request.executedByName}</p>}
            {request.status === "pending" && (
              <p className="text-slate-600">Expires {formatDateTime(request.expiresAt)}</p>
            )}
          </>
        );
      },
    },
    {
      id: "actions",
      header: "Actions",
      enableSorting: false,
      meta: { cellClassName: "text-right" },
      cell: ({ row }) => {
        const request = row.original;
        const own = request.requestedBy === user?.id;
        const pending = request.status === "pending";
        return (
          <>
            {pending && mayApprove && !own && (
              <div className="flex justify-end gap-2">
                <Button size="sm" onClick={() => setDeciding({ request, decision: "approve" })}>
                  Approve
                </Button>
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => setDeciding({ request, decision: "reject" })}
                >
                  Reject
                </Button>
              </div>
            )}
            {pending && own && mayWithdraw && (
              <Button
                size="sm"
                variant="outline"
                onClick={() => withdraw.mutate(request.id)}
                disabled={withdraw.isPending}
              >
                Withdraw
              </Button>
            )}
            {pending && own && mayApprove && <p className="text-xs text-slate-600">Needs another approver</p>}
          </>
        );
      },
    },
  ];
  return (
    <>
      <DataTable
        label={label}
        columns={columns}
        rows={page.data?.items ?? []}
        getRowId={(request) => request.id}
        isLoading={page.isLoading}
        filters={filters}
        empty={<EmptyState title="No requests" text={narrowed ? "No request matches these filters." : emptyText} />}
        server={{
          total: page.data?.total ?? 0,
          offset,
          pageSize: PAGE_SIZE,
          onOffsetChange: setOffset,
          isFetching: page.isFetching,
          sorting,
          onSortingChange: (next) => {
            setSorting(next);
            setOffset(0);
          },
          filterValues,
          onFilterChange: (columnId, value) => {
            setFilterValues((current) => ({ ...current, [columnId]: value }));
            setOffset(0);
          },
        }}
      />
      <DecisionDialog
        request={deciding?.request ?? null}
        decision={deciding?.decision ?? "approve"}
        onClose={() => setDeciding(null)}
      />
    </>
  );
}

function SettingsCard() {
  const mayChange = useMayCall("PUT", SETTINGS_KEY);
  const { data } = useQuery<ApprovalSettings>({ queryKey: [SETTINGS_KEY] });
  const [draft, setDraft] = useState<ApprovalSettings | null>(null);
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const save = useMutation({
    mutationFn: (body: ApprovalSettings) => apiJson<ApprovalSettings>("PUT", SETTINGS_KEY, body),
    onSuccess: (saved) => {
      queryClient.setQueryData([SETTINGS_KEY], saved);
      setDraft(null);
      toast({ title: "Approval settings saved" });
    },
    onError: (failure) => handleMutationError(failure, toast, "Failed to save approval settings"),
  });
  const shown = draft ?? data;
  if (!shown) return null;
  const edit = (next: ApprovalSettings) => setDraft(next);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Approval settings</CardTitle>
        <CardDescription>
          A manual sweep, an opening balance or a card's funding above its currency's threshold needs a second
          person's approval. Pending requests expire after the time below.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-4 sm:grid-cols-5"
          onSubmit={(event) => {
            event.preventDefault();
            if (draft) save.mutate(draft);
          }}
        >
          {CURRENCIES.map((currency) => (
            <TextField
              key={currency}
              label={`Threshold ${currency}`}
              inputMode="decimal"
              readOnly={!mayChange}
              value={shown.thresholds[currency] ?? ""}
              onChange={(event) =>
                edit({ ...shown, thresholds: { ...shown.thresholds, [currency]: event.target.value } })}
            />
          ))}
          <TextField
            label="Expiry (minutes)"
            type="number"
            min={5}
            readOnly={!mayChange}
            value={String(shown.expiryMinutes)}
            onChange={(event) => edit({ ...shown, expiryMinutes: Number(event.target.value) })}
          />
          {mayChange && (
            <div className="sm:col-span-5">
              <Button type="submit" disabled={!draft || save.isPending}>Save settings</Button>
            </div>
          )}
        </form>
      </CardContent>
    </Card>
  );
}

export default function ApprovalsPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="Approvals"
        subtitle="Four-eyes control: large movements of money wait here until a second person approves them"
      />
      <Tabs
        label="Requests"
        tabs={[
          {
            id: "pending",
            label: "Pending",
            content: (
              <RequestsTable
                query="status=pending"
                label="Pending requests"
                emptyText="Nothing waits for approval."
                filters={[KIND_FILTER]}
              />
            ),
          },
          {
            id: "mine",
            label: "My requests",
            content: (
              <RequestsTable
                query="requestedBy=me"
                label="My requests"
                emptyText="You have requested nothing."
                filters={[STATUS_FILTER, KIND_FILTER]}
              />
            ),
          },
          {
            id: "all",
            label: "All requests",
            content: (
              <RequestsTable
                query=""
                label="All requests"
                emptyText="No request has been filed yet."
                filters={[STATUS_FILTER, KIND_FILTER]}
              />
            ),
          },
        ]}
      />
      <SettingsCard />
    </div>
  );
}
