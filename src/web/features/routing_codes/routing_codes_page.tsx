/** Spec 2.5: counters, a searchable table of routing codes, and the "Assign New Code" dialog. */
import { useMemo, useState } from "react";
import { InstitutionLink } from "../../components/institution_link.tsx";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { StatusBadge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle, StatCard } from "../../components/ui/card.tsx";
import { inputClassName } from "../../components/ui/form.tsx";
import { type ColumnDef, DataTable, type FilterDef } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { formatDate, titleCase } from "../../lib/format.ts";
import { AssignCodeDialog } from "./assign_code_dialog.tsx";
import { useRoutingCodes } from "./api.ts";
import type { RoutingCodeListItem as RoutingCode } from "./types.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";

const COLUMNS: ColumnDef<RoutingCode>[] = [
  { accessorKey: "code", header: "Routing Code", meta: { cellClassName: "font-mono font-medium" } },
  { accessorKey: "prefix", header: "Prefix", meta: { cellClassName: "font-mono" } },
  {
    id: "institution",
    header: "Institution",
    accessorFn: (code) => code.institutionName ?? code.institutionId,
    cell: ({ row }) => (
      <InstitutionLink
        id={row.original.institutionId}
        name={row.original.institutionName ?? row.original.institutionId}
      />
    ),
  },
  { accessorKey: "branchCode", header: "Branch Code", cell: ({ row }) => row.original.branchCode ?? "—" },
  {
    accessorKey: "status",
    header: "Status",
    filterFn: "equals",
    cell: ({ row }) => <StatusBadge status={row.original.status} />,
  },
  { accessorKey: "createdAt", header: "Created", cell: ({ row }) => formatDate(row.original.createdAt) },
  {
    accessorKey: "description",
    header: "Description",
    enableSorting: false,
    meta: { cellClassName: "max-w-xs truncate" },
    cell: ({ row }) => row.original.description ?? "",
  },
];

const FILTERS: FilterDef[] = [{
  columnId: "status",
  label: "Filter by status",
  allLabel: "All statuses",
  options: ["active", "inactive", "suspended"].map((status) => ({ value: status, label: titleCase(status) })),
}];

function isInMonthOf(iso: string, now: Date): boolean {
  const date = new Date(iso);
  return date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth();
}

function matches(code: RoutingCode, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === "") return true;
  return [code.code, code.prefix, code.institutionName, code.branchCode, code.description, code.status]
    .some((value) => value?.toLowerCase().includes(needle));
}

export default function RoutingCodesPage() {
  const { data, isLoading, isError } = useRoutingCodes();
  const [search, setSearch] = useState("");
  const [assignOpen, setAssignOpen] = useState(false);
  const codes = data ?? [];

  const stats = useMemo(() => {
    const now = new Date();
    return {
      total: codes.length,
      active: codes.filter((code) => code.status === "active").length,
      prefixes: new Set(codes.map((code) => code.prefix)).size,
      thisMonth: codes.filter((code) => isInMonthOf(code.createdAt, now)).length,
    };
  }, [codes]);
  const visible = useMemo(() => codes.filter((code) => matches(code, search)), [codes, search]);

  return (
    <>
      <PageHeader
        title="Routing Codes"
        subtitle="National routing code assignment and management"
        actions={
          <IfAllowed method="POST" path="/api/routing-codes">
            <Button onClick={() => setAssignOpen(true)}>Assign New Code</Button>
          </IfAllowed>
        }
      />
      <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total Codes" value={isLoading ? "…" : stats.total} />
        <StatCard label="Active Codes" value={isLoading ? "…" : stats.active} />
        <StatCard label="Unique Prefixes" value={isLoading ? "…" : stats.prefixes} />
        <StatCard label="This Month" value={isLoading ? "…" : stats.thisMonth} />
      </div>
      <Card>
        <CardHeader className="sm:flex-row sm:items-center sm:justify-between">
          <CardTitle>Routing Code Registry</CardTitle>
          <input
            type="search"
            aria-label="Search routing codes"
            placeholder="Search codes, prefixes, institutions…"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className={`${inputClassName} sm:max-w-xs`}
          />
        </CardHeader>
        <CardContent>
          <DataTable
            label="Routing codes"
            columns={COLUMNS}
            rows={visible}
            getRowId={(code) => code.id}
            isLoading={isLoading}
            filters={FILTERS}
            empty={isError
              ? <EmptyState title="Routing codes could not be loaded" text="Reload the page to try again." />
              : codes.length === 0
              ? <EmptyState title="No routing codes yet" text="Assigned routing codes will appear here." />
              : <EmptyState title="No matching routing codes" text="Try a different search or filter." />}
          />
        </CardContent>
      </Card>
      <AssignCodeDialog open={assignOpen} onClose={() => setAssignOpen(false)} />
    </>
  );
}
