/** Spec 2.6: counters, a searchable table of BICs, and the "Register BIC Code" dialog. */
import { useMemo, useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { StatusBadge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle, StatCard } from "../../components/ui/card.tsx";
import { inputClassName } from "../../components/ui/form.tsx";
import { type ColumnDef, DataTable, type FilterDef } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { titleCase } from "../../lib/format.ts";
import { RegisterBicDialog } from "./register_bic_dialog.tsx";
import { useSwiftCodes } from "./api.ts";
import type { SwiftCode } from "./types.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";

const FULL_MEMBERSHIP = "full";

function isInMonthOf(iso: string, now: Date): boolean {
  const date = new Date(iso);
  return date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth();
}

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
  {
    accessorKey: "status",
    header: "Status",
    filterFn: "equals",
    cell: ({ row }) => <StatusBadge status={row.original.status} />,
  },
  {
    id: "validUntil",
    header: "Valid Until",
    // Open-ended validity sorts after every date.
    accessorFn: (code) => code.validUntil ?? "9999",
    cell: ({ row }) => (row.original.validUntil ? formatCalendarDate(row.original.validUntil) : "Indefinite"),
  },
];

function matches(code: SwiftCode, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === "") return true;
  return [
    code.bicCode,
    code.bankCode,
    code.countryCode,
    code.locationCode,
    code.branchCode,
    code.membershipType,
    code.status,
  ]
    .some((value) => value?.toLowerCase().includes(needle));
}

export default function SwiftBicPage() {
  const { data, isLoading, isError } = useSwiftCodes();
  const [search, setSearch] = useState("");
  const [registerOpen, setRegisterOpen] = useState(false);
  const codes = data ?? [];

  const stats = useMemo(() => {
    const now = new Date();
    return {
      total: codes.length,
      active: codes.filter((code) => code.status === "active").length,
      fullMembers: codes.filter((code) => code.membershipType === FULL_MEMBERSHIP).length,
      thisMonth: codes.filter((code) => isInMonthOf(code.createdAt, now)).length,
    };
  }, [codes]);
  const visible = useMemo(() => codes.filter((code) => matches(code, search)), [codes, search]);
  // Filter choices are the values present, so no choice ever empties the table by itself.
  const filters = useMemo<FilterDef[]>(() => {
    const present = (values: string[]) =>
      [...new Set(values)].sort().map((value) => ({ value, label: titleCase(value) }));
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
  }, [codes]);

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
      <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total BIC Codes" value={isLoading ? "…" : stats.total} />
        <StatCard label="Active Codes" value={isLoading ? "…" : stats.active} />
        <StatCard label="Full Members" value={isLoading ? "…" : stats.fullMembers} />
        <StatCard label="This Month" value={isLoading ? "…" : stats.thisMonth} />
      </div>
      <Card>
        <CardHeader className="sm:flex-row sm:items-center sm:justify-between">
          <CardTitle>BIC Registry</CardTitle>
          <input
            type="search"
            aria-label="Search BIC codes"
            placeholder="Search BIC, bank, country…"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className={`${inputClassName} sm:max-w-xs`}
          />
        </CardHeader>
        <CardContent>
          <DataTable
            label="BIC codes"
            columns={COLUMNS}
            rows={visible}
            getRowId={(code) => code.id}
            isLoading={isLoading}
            filters={filters}
            empty={isError
              ? <EmptyState title="BIC codes could not be loaded" text="Reload the page to try again." />
              : codes.length === 0
              ? <EmptyState title="No BIC codes yet" text="Registered BIC codes will appear here." />
              : <EmptyState title="No matching BIC codes" text="Try a different search or filter." />}
          />
        </CardContent>
      </Card>
      <RegisterBicDialog open={registerOpen} onClose={() => setRegisterOpen(false)} />
    </>
  );
}
