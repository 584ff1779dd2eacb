/** Recent API requests from the request log, filtered by status and endpoint, with their (redacted) payloads. */
import { useMemo, useState } from "react";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { SelectField } from "../../components/ui/form.tsx";
import { type ColumnDef, DataTable } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { DOCUMENTED_ENDPOINTS } from "../../../domain/public_api.ts";
import { MethodBadge } from "./endpoints_tab.tsx";
import { useApiLogs, useRefreshApiLogs } from "./api.ts";
import { type ApiLogEntry, apiLogsUrl } from "./types.ts";
import { actionsColumn } from "../../components/columns.tsx";
import { useTableUrlState } from "../../lib/table_url_state.ts";
import { loadFailure } from "../../components/ui/load_failed.tsx";

export const LOG_PAGE_SIZE = 50;
const LOADING_ROWS = 5;

const STATUS_OPTIONS = [
  { value: "2xx", label: "2xx success" },
  { value: "4xx", label: "4xx client errors" },
  { value: "5xx", label: "5xx server errors" },
  { value: "error", label: "All errors (400 and up)" },
  { value: "401", label: "401 Unauthorized" },
  { value: "403", label: "403 Forbidden" },
  { value: "404", label: "404 Not Found" },
  { value: "429", label: "429 Too Many Requests" },
];

/** Each documented endpoint's fixed part, e.g. "/api/routing-codes/" for "/api/routing-codes/{code}". */
const ENDPOINT_OPTIONS = [
  ...new Set(DOCUMENTED_ENDPOINTS.map((endpoint) => endpoint.path.split("{")[0])),
  "/api/api-keys",
  "/api/api-logs",
].map((prefix) => ({ value: prefix, label: prefix }));

function StatusCode({ status }: { status: number }) {
  if (status < 400) return <Badge className="bg-green-800 text-white">{status}</Badge>;
  if (status < 500) return <Badge className="bg-amber-100 text-amber-900">{status}</Badge>;
  return <Badge variant="destructive">{status}</Badge>;
}

function caller(entry: ApiLogEntry): string {
  if (entry.apiKeyId) return entry.apiKeyName ? `Key: ${entry.apiKeyName}` : "Key";
  return entry.userId ? "Session" : "Anonymous";
}

function Payload({ title, value }: { title: string; value: unknown }) {
  return (
    <section aria-label={title}>
      <h3 className="mb-1 text-sm font-semibold text-slate-900">{title}</h3>
      <pre tabIndex={0} className="max-h-64 overflow-auto rounded-md bg-slate-100 p-3 text-xs text-slate-900">
        {value === null || value === undefined ? "(none)" : JSON.stringify(value, null, 2)}
      </pre>
    </section>
  );
}

function EntryDialog({ entry, onClose }: { entry: ApiLogEntry | null; onClose: () => void }) {
  return (
    <Dialog
      open={entry !== null}
      onClose={onClose}
      wide
      title={entry ? `${entry.method} ${entry.endpoint}` : "Request"}
      description={entry
        ? `${entry.responseStatus} in ${entry.responseTime ?? "?"} ms, ${formatDateTime(entry.createdAt)}, ${
          caller(entry)
        }` +
          `${entry.clientIp ? ` from ${entry.clientIp}` : ""}. Secrets and card numbers are redacted.`
        : undefined}
    >
      {entry && (
        <div className="space-y-4">
          <Payload title="Request payload" value={entry.requestPayload} />
          <Payload title="Response payload" value={entry.responsePayload} />
          {entry.userAgent && <p className="text-xs text-slate-600">User agent: {entry.userAgent}</p>}
          <div className="flex justify-end">
            <Button onClick={onClose}>Close</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

function logColumns(onDetails: (entry: ApiLogEntry) => void): ColumnDef<ApiLogEntry>[] {
  return [
    {
      accessorKey: "createdAt",
      header: "Time",
      meta: { cellClassName: "whitespace-nowrap" },
      cell: ({ row }) => formatDateTime(row.original.createdAt),
    },
    { accessorKey: "method", header: "Method", cell: ({ row }) => <MethodBadge method={row.original.method} /> },
    {
      accessorKey: "endpoint",
      header: "Endpoint",
      meta: { cellClassName: "max-w-xs truncate font-mono text-xs" },
      cell: ({ row }) => <span title={row.original.endpoint}>{row.original.endpoint}</span>,
    },
    {
      accessorKey: "responseStatus",
      header: "Status",
      cell: ({ row }) => <StatusCode status={row.original.responseStatus} />,
    },
    {
      id: "latency",
      header: "Latency",
      accessorFn: (entry) => entry.responseTime ?? -1,
      meta: { cellClassName: "whitespace-nowrap" },
      cell: ({ row }) => (row.original.responseTime === null ? "—" : `${row.original.responseTime} ms`),
    },
    { id: "caller", header: "Caller", accessorFn: caller, meta: { cellClassName: "whitespace-nowrap" } },
    {
      id: "client",
      header: "Client",
      enableSorting: false,
      meta: { cellClassName: "font-mono text-xs" },
      cell: ({ row }) => row.original.clientIp ?? "—",
    },
    actionsColumn((log) => (
      <Button
        variant="ghost"
        size="sm"
        aria-label={`Details of ${log.method} ${log.endpoint} at ${formatDateTime(log.createdAt)}`}
        onClick={() => onDetails(log)}
      >
        Details
      </Button>
    ), { id: "details", header: "Details" }),
  ];
}

/** The log's filters, kept in the address with the table's sort and page. */
const LOG_FILTERS = [
  { columnId: "status", options: STATUS_OPTIONS },
  { columnId: "endpoint", options: ENDPOINT_OPTIONS },
];

export function LogsTab() {
  const url = useTableUrlState({ key: "log", filters: LOG_FILTERS });
  const filters = { status: url.filterValues.status, endpoint: url.filterValues.endpoint };
  const setFilter = (name: keyof typeof filters, value: string) => url.update({ values: { [name]: value } });
  const [open, setOpen] = useState<ApiLogEntry | null>(null);
  const logs = useApiLogs(apiLogsUrl(filters, LOG_PAGE_SIZE));
  const entries = logs.data ?? [];
  const columns = useMemo(() => logColumns(setOpen), []);
  const refresh = useRefreshApiLogs();

  return (
    <Card>
      <CardHeader className="sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <CardTitle>Request Log</CardTitle>
          <CardDescription>
            The {LOG_PAGE_SIZE}{" "}
            most recent /api requests matching the filters, newest first. Entries are written in batches, a
            moment after each request.
          </CardDescription>
        </div>
        <Button variant="outline" onClick={refresh} disabled={logs.isFetching}>
          {logs.isFetching ? "Refreshing…" : "Refresh"}
        </Button>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2 lg:max-w-2xl">
          <SelectField
            label="Status"
            value={filters.status}
            onChange={(event) => setFilter("status", event.target.value)}
            placeholder="All statuses"
            options={STATUS_OPTIONS}
          />
          <SelectField
            label="Endpoint"
            value={filters.endpoint}
            onChange={(event) => setFilter("endpoint", event.target.value)}
            placeholder="All endpoints"
            options={ENDPOINT_OPTIONS}
          />
        </div>
        <DataTable
          label="Recent API requests"
          urlKey="log"
          columns={columns}
          rows={entries}
          isLoading={logs.isLoading}
          loadingRows={LOADING_ROWS}
          failure={loadFailure(
            logs,
            "The request log could not be loaded",
            "Only administrators can read the request log.",
          )}
          empty={<EmptyState title="No requests found" text="No logged request matches these filters yet." />}
        />
      </CardContent>
      <EntryDialog entry={open} onClose={() => setOpen(null)} />
    </Card>
  );
}
