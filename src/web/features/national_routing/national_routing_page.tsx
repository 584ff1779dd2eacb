/** Spec 2.8: the Register Institution dialog, three integration cards and the registry table. */
import { useMemo, useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Button } from "../../components/ui/button.tsx";
import { StatCard } from "../../components/ui/card.tsx";
import { type ColumnDef, type FilterDef } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { formatDate, titleCase } from "../../lib/format.ts";
import { EntryDetailsDialog } from "./entry_details_dialog.tsx";
import { RegisterInstitutionDialog } from "./register_institution_dialog.tsx";
import {
  CONNECTION_PROTOCOL_OPTIONS,
  INSTITUTION_TYPE_OPTIONS,
  labelOf,
  type NationalRoutingEntry,
} from "./types.ts";
import { useNationalRoutingEntries } from "./api.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { RegistryCard } from "../../components/registry_card.tsx";
import { actionsColumn, statusColumn } from "../../components/columns.tsx";
import { loadFailure } from "../../components/ui/load_failed.tsx";

function columns(onDetails: (entry: NationalRoutingEntry) => void): ColumnDef<NationalRoutingEntry>[] {
  return [
    { accessorKey: "centralBankCode", header: "Central Bank Code", meta: { cellClassName: "font-mono font-medium" } },
    {
      accessorKey: "institutionName",
      header: "Institution",
      cell: ({ row }) => (
        <>
          <div className="font-medium text-slate-900">{row.original.institutionName}</div>
          <div className="text-xs text-slate-600">
            {labelOf(INSTITUTION_TYPE_OPTIONS, row.original.institutionType)} · registered{" "}
            {formatDate(row.original.registrationDate)}
          </div>
        </>
      ),
    },
    { accessorKey: "registryNumber", header: "Registry Number" },
    { accessorKey: "nationalBankCode", header: "National Bank Code", meta: { cellClassName: "font-mono" } },
    {
      id: "swiftBicCode",
      header: "SWIFT/BIC",
      accessorFn: (entry) => entry.swiftBicCode ?? "—",
      meta: { cellClassName: "font-mono" },
    },
    {
      id: "ibanPrefix",
      header: "IBAN Prefix",
      accessorFn: (entry) => entry.ibanPrefix ?? "—",
      meta: { cellClassName: "font-mono" },
    },
    {
      id: "protocol",
      header: "Protocol",
      accessorFn: (entry) => labelOf(CONNECTION_PROTOCOL_OPTIONS, entry.connectionProtocol),
    },
    statusColumn("participantStatus", true),
    actionsColumn((entry) => (
      <Button variant="ghost" size="sm" onClick={() => onDetails(entry)} aria-label={`View details of ${entry.institutionName}`}>
        Details
      </Button>
    )),
  ];
}

export default function NationalRoutingPage() {
  const query = useNationalRoutingEntries();
  const { data, isLoading } = query;
  const [registerOpen, setRegisterOpen] = useState(false);
  const [selected, setSelected] = useState<NationalRoutingEntry | null>(null);
  const entries = data ?? [];

  const counts = useMemo(() => ({
    withBic: entries.filter((entry) => entry.swiftBicCode).length,
    withIban: entries.filter((entry) => entry.ibanPrefix).length,
  }), [entries]);
  const tableColumns = useMemo(() => columns(setSelected), []);
  const filters = useMemo<FilterDef[]>(() => [{
    columnId: "participantStatus",
    label: "Filter by status",
    allLabel: "All statuses",
    options: [...new Set(entries.map((entry) => entry.participantStatus))].sort()
      .map((status) => ({ value: status, label: titleCase(status) })),
  }], [entries]);

  return (
    <>
      <PageHeader
        title="National Routing Registry"
        subtitle="Participants with their SWIFT and IBAN integration data"
        actions={<IfAllowed method="POST" path="/api/national-routing"><Button onClick={() => setRegisterOpen(true)}>Register Institution</Button></IfAllowed>}
      />
      <div className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4">
        <StatCard label="SWIFT Integration" value="Active" hint="ISO 20022 and MT messaging" />
        <StatCard label="BIC Registry" value={isLoading ? "…" : counts.withBic} hint="Entries with a BIC" />
        <StatCard
          label="IBAN Participants"
          value={isLoading ? "…" : counts.withIban}
          hint="Entries with an IBAN prefix"
        />
      </div>
      <RegistryCard
        title="Registry"
        label="National routing registry"
        columns={tableColumns}
        rows={entries}
        total={entries.length}
        isLoading={isLoading}
        failure={loadFailure(query, "The registry could not be loaded")}
        filters={filters}
        none={
          <EmptyState
            title="No registry entries yet"
            text="Registered institutions will appear here."
            action={<Button variant="outline" onClick={() => setRegisterOpen(true)}>Register First Institution</Button>}
          />
        }
        noMatch={<EmptyState title="No matching registry entries" text="Choose another status." />}
      />
      <RegisterInstitutionDialog open={registerOpen} onClose={() => setRegisterOpen(false)} />
      <EntryDetailsDialog entry={selected} onClose={() => setSelected(null)} />
    </>
  );
}
