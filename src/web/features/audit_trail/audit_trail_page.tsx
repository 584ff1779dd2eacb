/**
 * Audit trail (auditors and administrators): each event as a sentence with its actor and entities
 * linked, its before/after table on request, filters, page and order in the address, and the hash
 * chain's state.
 * Exports go through Reports & Analytics (report type "audit-trail").
 */
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { entityNoun, humanise } from "../../../domain/audit_phrases.ts";
import { Person } from "../../components/person.tsx";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Button } from "../../components/ui/button.tsx";
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { type ColumnDef, DataTable } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { type AuditEvent, useAuditChain, useAuditFacets, useAuditPage } from "./api.ts";
import { ChangesTable, Sentence, useMayOpen } from "./event_parts.tsx";
import { apiQueryOf, type AuditFilters, EMPTY_FILTERS, useAuditUrlState } from "./url_state.ts";

const PAGE_SIZE = 50;
/** Entity and action are in the sentence too: a phone shows the sentence beside the actor without them. */
const NARROW_HIDDEN = { cellClassName: "hidden lg:table-cell", headerClassName: "hidden lg:table-cell" };

const capitalised = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);
/** "ledger_account" → "Account", "status_change" → "Status change": the names filters and columns show. */
const entityTypeLabel = (entityType: string) => capitalised(entityNoun(entityType));
const actionLabel = (action: string) => capitalised(humanise(action));

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

/** The event's sentence, and on request its before/after table with the row's identifiers. */
function EventCell(
  { event, open, setOpen }: { event: AuditEvent; open: boolean; setOpen: (open: boolean) => void },
) {
  return (
    <div className="space-y-2">
      <Sentence parts={event.sentence} />
      <Button size="sm" variant="ghost" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "Hide" : "Show"} details
      </Button>
      {open && (
        <div className="space-y-2 rounded bg-slate-50 p-2">
          <ChangesTable changes={event.changes} caption={`Changes recorded with event ${event.seq}`} />
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-xs text-slate-700">
            <dt className="font-medium">Entity ID</dt>
            <dd className="break-all font-mono">{event.entityId}</dd>
            <dt className="font-medium">IP address</dt>
            <dd className="break-all font-mono">{event.ipAddress ?? "—"}</dd>
          </dl>
        </div>
      )}
    </div>
  );
}

/**
 * Sortable columns are named by the server's sort keys (AUDIT_SORT_KEYS); unsorted, newest first.
 * Entity and action read as words ("account", "status change"); the sentence says the rest.
 */
function auditColumns(
  open: string | null,
  setOpen: (id: string | null) => void,
  mayOpen: (link: string | null) => link is string,
): ColumnDef<AuditEvent>[] {
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
      meta: NARROW_HIDDEN,
      cell: ({ row }) => {
        const { entityType, entityLabel, entityLink } = row.original;
        return (
          <>
            <p>{entityNoun(entityType)}</p>
            {entityLabel && (
              <p className="text-xs">
                {mayOpen(entityLink)
                  ? (
                    <Link to={entityLink} className="text-blue-900 underline underline-offset-2">
                      {entityLabel}
                    </Link>
                  )
                  : entityLabel}
              </p>
            )}
          </>
        );
      },
    },
    { accessorKey: "action", header: "Action", meta: NARROW_HIDDEN, cell: ({ row }) => humanise(row.original.action) },
    {
      id: "event",
      header: "Event",
      enableSorting: false,
      cell: ({ row }) => (
        <EventCell
          event={row.original}
          open={open === row.original.id}
          setOpen={(next) => setOpen(next ? row.original.id : null)}
        />
      ),
    },
  ];
}

function FilterForm({ initial, onApply, onClear }: {
  initial: AuditFilters;
  onApply: (filters: AuditFilters) => void;
  onClear: () => void;
}) {
  const { data: facets } = useAuditFacets();
  const [draft, setDraft] = useState<AuditFilters>(initial);
  const set = (field: keyof AuditFilters) => (value: string) =>
    setDraft((current) => ({ ...current, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form
      onSubmit={submit}
      aria-label="Filter audit events"
      className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-3 xl:grid-cols-7"
    >
      <TextField
        label="Search"
        type="search"
        placeholder="ID, name or value"
        value={draft.search}
        onChange={(e) => set("search")(e.target.value)}
      />
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
        options={(facets?.entityTypes ?? []).map((value) => ({ value, label: entityTypeLabel(value) }))}
        onChange={(e) => set("entityType")(e.target.value)}
      />
      <SelectField
        label="Action"
        placeholder="Any action"
        value={draft.action}
        options={(facets?.actions ?? []).map((value) => ({ value, label: actionLabel(value) }))}
        onChange={(e) => set("action")(e.target.value)}
      />
      <TextField label="From" type="date" value={draft.from} onChange={(e) => set("from")(e.target.value)} />
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
  const { filters, offset, sorting, setFilters, paging } = useAuditUrlState(PAGE_SIZE);
  const [open, setOpen] = useState<string | null>(null);
  const mayOpen = useMayOpen();
  const { data, isLoading, isFetching } = useAuditPage(apiQueryOf(filters, offset, PAGE_SIZE, sorting));
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
      {/* Keyed by the address: back, forward and a followed link show their own filters in the form. */}
      <FilterForm
        key={JSON.stringify(filters)}
        initial={filters}
        onApply={setFilters}
        onClear={() => setFilters(EMPTY_FILTERS)}
      />
      <DataTable
        label="Audit events"
        columns={auditColumns(open, setOpen, mayOpen)}
        rows={data?.items ?? []}
        isLoading={isLoading}
        empty={<EmptyState title="No events" text="No event matches these filters." />}
        server={paging(data?.total ?? 0, isFetching)}
      />
    </div>
  );
}
