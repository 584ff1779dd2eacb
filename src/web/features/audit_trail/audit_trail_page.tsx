/**
 * Audit trail (auditors and administrators): events filtered by actor, entity, action and
 * date range, paged on the server, each with its before/after values, and the hash chain's state.
 * Exports go through Reports & Analytics (report type "audit-trail").
 */
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { InstitutionLink } from "../../components/institution_link.tsx";
import { Person } from "../../components/person.tsx";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Button } from "../../components/ui/button.tsx";
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { type ColumnDef, DataTable, type SortingState } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { setSortParams } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useServerPaging } from "../../lib/server_paging.ts";
import { AUDIT_KEY, type AuditEvent, useAuditChain, useAuditFacets, useAuditPage } from "./api.ts";

const PAGE_SIZE = 50;
/** Audit rows of this entity type are about an institution: their entity id links to its page. */
const INSTITUTION_ENTITY = "institution";

interface Filters {
  actor: string;
  entityType: string;
  action: string;
  from: string;
  to: string;
}

const EMPTY: Filters = { actor: "", entityType: "", action: "", from: "", to: "" };

/** The browser's local day boundaries as instants the server compares with. */
function queryOf(filters: Filters, offset: number, sorting: SortingState): string {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
  setSortParams(params, sorting);
  if (filters.actor.trim()) params.set("actor", filters.actor.trim());
  if (filters.entityType) params.set("entityType", filters.entityType);
  if (filters.action) params.set("action", filters.action);
  if (filters.from) params.set("from", new Date(`${filters.from}T00:00:00`).toISOString());
  if (filters.to) params.set("to", new Date(`${filters.to}T23:59:59.999`).toISOString());
  return `${AUDIT_KEY}?${params}`;
}

function ChainBanner() {
  const { data } = useAuditChain();
  if (!data) return null;
  return data.verified
    ? (
      <p
        role="status"
        className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900"
      >
        Hash chain verified up to row {data.verifiedUpToSeq}: no row was edited, deleted or reordered.
      </p>
    )
    : (
      <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
        Hash chain verified up to row {data.verifiedUpToSeq} only: row {data.firstBroken.seq}{" "}
        is broken ({data.firstBroken.reason}).
      </p>
    );
}

/**
 * Sortable columns are named by the server's sort keys (AUDIT_SORT_KEYS); unsorted, newest first.
 * Filters live in the form above the table.
 */
function auditColumns(open: string | null, setOpen: (id: string | null) => void): ColumnDef<AuditEvent>[] {
  return [
    // Unsorted, the trail is already newest first: the first click on "#" shows it from the start.
    { accessorKey: "seq", header: "#", sortDescFirst: false },
    {
      accessorKey: "performedAt",
      header: "When",
      meta: { cellClassName: "whitespace-nowrap" },
      cell: ({ row }) => formatDateTime(row.original.performedAt),
    },
    {
      id: "actor",
      accessorFn: (event) => event.performedByName,
      header: "Actor",
      cell: ({ row }) => <Person name={row.original.performedByName} email={row.original.performedByEmail} />,
    },
    {
      accessorKey: "entityType",
      header: "Entity",
      cell: ({ row }) => (
        <>
          <p>{row.original.entityType}</p>
          <p className="font-mono text-xs text-slate-600">
            {row.original.entityType === INSTITUTION_ENTITY
              ? <InstitutionLink id={row.original.entityId} name={row.original.entityId} />
              : row.original.entityId}
          </p>
        </>
      ),
    },
    { accessorKey: "action", header: "Action" },
    {
      id: "changes",
      header: "Changes",
      enableSorting: false,
      cell: ({ row }) => {
        const event = row.original;
        if (event.changes === null) return "";
        return (
          <>
            <Button
              size="sm"
              variant="ghost"
              aria-expanded={open === event.id}
              onClick={() => setOpen(open === event.id ? null : event.id)}
            >
              {open === event.id ? "Hide" : "Show"} before/after
            </Button>
            {open === event.id && (
              <pre className="mt-2 max-h-80 max-w-xl overflow-auto rounded bg-slate-50 p-2 text-xs">
              {JSON.stringify(event.changes, null, 2)}
              </pre>
            )}
          </>
        );
      },
    },
  ];
}

function FilterForm({ draft, setDraft, onApply, onClear }: {
  draft: Filters;
  setDraft: (update: (current: Filters) => Filters) => void;
  onApply: (event: FormEvent) => void;
  onClear: () => void;
}) {
  const { data: facets } = useAuditFacets();
  const set = (field: keyof Filters) => (value: string) =>
    setDraft((current) => ({ ...current, [field]: value }));
  return (
    <form
      onSubmit={onApply}
      className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-6"
    >
      <TextField
        label="Actor"
        placeholder="Name, e-mail or id"
        value={draft.actor}
        onChange={(e) => set("actor")(e.target.value)}
      />
      <SelectField
        label="Entity"
        placeholder="Any entity"
        value={draft.entityType}
        options={(facets?.entityTypes ?? []).map((value) => ({ value, label: value }))}
        onChange={(e) => set("entityType")(e.target.value)}
      />
      <SelectField
        label="Action"
        placeholder="Any action"
        value={draft.action}
        options={(facets?.actions ?? []).map((value) => ({ value, label: value }))}
        onChange={(e) => set("action")(e.target.value)}
      />
      <TextField
        label="From"
        type="date"
        value={draft.from}
        onChange={(e) => set("from")(e.target.value)}
      />
      <TextField label="To" type="date" value={draft.to} onChange={(e) => set("to")(e.target.value)} />
      <div className="flex items-end gap-2">
        <Button type="submit">Filter</Button>
        <Button variant="outline" onClick={onClear}>
          Clear
        </Button>
      </div>
    </form>
  );
}

export default function AuditTrailPage() {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const { offset, setOffset, sorting, paging } = useServerPaging(PAGE_SIZE);
  const [open, setOpen] = useState<string | null>(null);
  const { data, isLoading, isFetching } = useAuditPage(queryOf(filters, offset, sorting));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    setOffset(0);
  };
  const clear = () => {
    setDraft(EMPTY);
    setFilters(EMPTY);
    setOffset(0);
  };
  return (
    <div className="space-y-6">
      <PageHeader
        title="Audit Trail"
        subtitle="Every change, who made it and when, in a tamper-evident chain"
        actions={
          <Link to="/reports" className="text-sm font-medium text-blue-800 underline">Export in Reports</Link>
        }
      />
      <ChainBanner />
      <FilterForm draft={draft} setDraft={setDraft} onApply={apply} onClear={clear} />
      <DataTable
        label="Audit events"
        columns={auditColumns(open, setOpen)}
        rows={data?.items ?? []}
        isLoading={isLoading}
        empty={<EmptyState title="No events" text="No event matches these filters." />}
        server={paging(data?.total ?? 0, isFetching)}
      />
    </div>
  );
}
