/** Spec 2.6: counters, a searchable table of BICs, and the "Register BIC Code" dialog. */
import { useMemo, useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Button } from "../../components/ui/button.tsx";
import { type ColumnDef, type FilterDef } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { titleCase } from "../../lib/format.ts";
import { RegisterBicDialog } from "./register_bic_dialog.tsx";
import { useSwiftCodes } from "./api.ts";
import type { SwiftCode } from "./types.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { useUrlText } from "../../lib/table_url_state.ts";
import { CountCards, RegistryCard, isInMonthOf, matchesSearch } from "../../components/registry_card.tsx";
import { statusColumn } from "../../components/columns.tsx";
import { loadFailure } from "../../components/ui/load_failed.tsx";

const FULL_MEMBERSHIP = "full";

/** Validity dates entered as calendar dates are stored as 00:00 UTC: shown in UTC, they keep their day. */
function formatCalendarDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { timeZone: "UTC" });
}

const COLUMNS: ColumnDef<SwiftCode>[] = [
  { accessorKey: "bicCode", header: "BIC Code", meta: { cellClassName: "font-mono font-medium" } },
  { accessorKey: "bankCode", header: "Bank Code", meta: { cellClassName: "font-mono" } },
  { accessorKey: "countryCode", header: "Country" },
  { accessorKey: "locationCode", header: "Location", meta: { cellClassName: "font-mono" } },
  {
    id: "branch",
    header: "Branch",
    accessorFn: (code) => code.branchCode || "XXX",
    meta: { cellClassName: "font-mono" },
  },
  {
    id: "membership",
    header: "Membership",
    accessorFn: (code) => (code.membershipType ? titleCase(code.membershipType) : "Standard"),
    filterFn: "equals",
  },
  statusColumn("status", true),
  {
    id: "validUntil",
    header: "Valid Until",
    // Open-ended validity sorts after every date.
    accessorFn: (code) => code.validUntil ?? "9999",
    cell: ({ row }) => (row.original.validUntil ? formatCalendarDate(row.original.validUntil) : "Indefinite"),
  },
];

const matches = (code: SwiftCode, search: string) =>
  matchesSearch(
    [code.bicCode, code.bankCode, code.countryCode, code.locationCode, code.branchCode, code.membershipType, code.status],
    search,
  );

/** Filter choices are the values present, so no choice ever empties the table by itself. */
function presentFilters(codes: SwiftCode[]): FilterDef[] {
  const present = (values: string[]) => [...new Set(values)].sort().map((value) => ({ value, label: titleCase(value) }));
  return [
    {
      columnId: "status",
      label: "Filter by status",
      allLabel: "All statuses",
      options: present(codes.map((c) => c.status)),
    },
    {
      columnId: "membership",
      label: "Filter by membership",
      allLabel: "All memberships",
      options: [...new Set(codes.map((c) => (c.membershipType ? titleCase(c.membershipType) : "Standard")))]
        .sort()
        .map((value) => ({ value, label: value })),
    },
  ];
}

export default function SwiftBicPage() {
  const query = useSwiftCodes();
  const { data, isLoading } = query;
  const [search, setSearch] = useUrlText("search");
  const [registerOpen, setRegisterOpen] = useState(false);
  const codes = data ?? [];
  const now = new Date();
  const visible = useMemo(() => codes.filter((code) => matches(code, search)), [codes, search]);
  const filters = useMemo(() => presentFilters(codes), [codes]);

  return (
    <>
      <PageHeader
        title="SWIFT/BIC Management"
        subtitle="Business Identifier Codes and SWIFT membership"
        actions={
          <IfAllowed method="POST" path="/api/swift-codes">
            <Button onClick={() => setRegisterOpen(true)}>Register BIC Code</Button>
          </IfAllowed>
        }
      />
      <CountCards
        isLoading={isLoading}
        counts={[
          ["Total BIC Codes", codes.length],
          ["Active Codes", codes.filter((code) => code.status === "active").length],
          ["Full Members", codes.filter((code) => code.membershipType === FULL_MEMBERSHIP).length],
          ["This Month", codes.filter((code) => isInMonthOf(code.createdAt, now)).length],
        ]}
      />
      <RegistryCard
        title="BIC Registry"
        search={{ label: "Search BIC codes", placeholder: "Search BIC, bank, country…", value: search, onChange: setSearch }}
        label="BIC codes"
        columns={COLUMNS}
        rows={visible}
        total={codes.length}
        isLoading={isLoading}
        failure={loadFailure(query, "BIC codes could not be loaded")}
        filters={filters}
        none={<EmptyState title="No BIC codes yet" text="Registered BIC codes will appear here." />}
        noMatch={<EmptyState title="No matching BIC codes" text="Try a different search or filter." />}
      />
      <RegisterBicDialog open={registerOpen} onClose={() => setRegisterOpen(false)} />
    </>
  );
}
