/** Spec 2.5: counters, a searchable table of routing codes, and the "Assign New Code" dialog. */
import { useMemo, useState } from "react";
import { InstitutionLink } from "../../components/institution_link.tsx";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Button } from "../../components/ui/button.tsx";
import { type ColumnDef, type FilterDef } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { formatDate, titleCase } from "../../lib/format.ts";
import { AssignCodeDialog } from "./assign_code_dialog.tsx";
import { useRoutingCodes } from "./api.ts";
import type { RoutingCodeListItem as RoutingCode } from "./types.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { useUrlText } from "../../lib/table_url_state.ts";
import { CountCards, RegistryCard, isInMonthOf, matchesSearch } from "../../components/registry_card.tsx";
import { statusColumn } from "../../components/columns.tsx";
import { loadFailure } from "../../components/ui/load_failed.tsx";

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
  statusColumn("status", true),
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


const matches = (code: RoutingCode, search: string) =>
  matchesSearch([code.code, code.prefix, code.institutionName, code.branchCode, code.description, code.status], search);

export default function RoutingCodesPage() {
  const query = useRoutingCodes();
  const { data, isLoading } = query;
  const [search, setSearch] = useUrlText("search");
  const [assignOpen, setAssignOpen] = useState(false);
  const codes = data ?? [];
  const now = new Date();
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
      <CountCards
        isLoading={isLoading}
        counts={[
          ["Total Codes", codes.length],
          ["Active Codes", codes.filter((code) => code.status === "active").length],
          ["Unique Prefixes", new Set(codes.map((code) => code.prefix)).size],
          ["This Month", codes.filter((code) => isInMonthOf(code.createdAt, now)).length],
        ]}
      />
      <RegistryCard
        title="Routing Code Registry"
        search={{
          label: "Search routing codes",
          placeholder: "Search codes, prefixes, institutions…",
          value: search,
          onChange: setSearch,
        }}
        label="Routing codes"
        columns={COLUMNS}
        rows={visible}
        total={codes.length}
        isLoading={isLoading}
        failure={loadFailure(query, "Routing codes could not be loaded")}
        filters={FILTERS}
        none={<EmptyState title="No routing codes yet" text="Assigned routing codes will appear here." />}
        noMatch={<EmptyState title="No matching routing codes" text="Try a different search or filter." />}
      />
      <AssignCodeDialog open={assignOpen} onClose={() => setAssignOpen(false)} />
    </>
  );
}
