/** Spec 2.6: counters, a searchable table of BICs, and the "Register BIC Code" dialog. */
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { StatusBadge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle, StatCard } from "../../components/ui/card.tsx";
import { inputClassName } from "../../components/ui/form.tsx";
import { EmptyState, SkeletonRows, TBody, THead, Table, Td, Th, Tr } from "../../components/ui/table.tsx";
import { titleCase } from "../../lib/format.ts";
import { RegisterBicDialog } from "./register_bic_dialog.tsx";
import { SWIFT_CODES_KEY, type SwiftCode } from "./types.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";

const LOADING_ROWS = 5;
const FULL_MEMBERSHIP = "full";

function isInMonthOf(iso: string, now: Date): boolean {
  const date = new Date(iso);
  return date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth();
}

/** Validity dates entered as calendar dates are stored as 00:00 UTC: shown in UTC, they keep their day. */
function formatCalendarDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { timeZone: "UTC" });
}

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
  const { data, isLoading, isError } = useQuery<SwiftCode[]>({ queryKey: [SWIFT_CODES_KEY] });
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

  return (
    <>
      <PageHeader
        title="SWIFT/BIC Management"
        subtitle="Business Identifier Codes and SWIFT membership"
        actions={<IfAllowed method="POST" path="/api/swift-codes"><Button onClick={() => setRegisterOpen(true)}>Register BIC Code</Button></IfAllowed>}
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
          {isError
            ? <EmptyState title="BIC codes could not be loaded" text="Reload the page to try again." />
            : !isLoading && visible.length === 0
            ? (
              codes.length === 0
                ? <EmptyState title="No BIC codes yet" text="Registered BIC codes will appear here." />
                : <EmptyState title="No matching BIC codes" text="Try a different search." />
            )
            : (
              <Table label="BIC codes">
                <THead>
                  <Tr>
                    <Th>BIC Code</Th>
                    <Th>Bank Code</Th>
                    <Th>Country</Th>
                    <Th>Location</Th>
                    <Th>Branch</Th>
                    <Th>Membership</Th>
                    <Th>Status</Th>
                    <Th>Valid Until</Th>
                  </Tr>
                </THead>
                <TBody>
                  {isLoading
                    ? <SkeletonRows rows={LOADING_ROWS} columns={8} />
                    : visible.map((code) => (
                      <Tr key={code.id}>
                        <Td className="font-mono font-medium">{code.bicCode}</Td>
                        <Td className="font-mono">{code.bankCode}</Td>
                        <Td>{code.countryCode}</Td>
                        <Td className="font-mono">{code.locationCode}</Td>
                        <Td className="font-mono">{code.branchCode || "XXX"}</Td>
                        <Td>{code.membershipType ? titleCase(code.membershipType) : "Standard"}</Td>
                        <Td>
                          <StatusBadge status={code.status} />
                        </Td>
                        <Td>{code.validUntil ? formatCalendarDate(code.validUntil) : "Indefinite"}</Td>
                      </Tr>
                    ))}
                </TBody>
              </Table>
            )}
        </CardContent>
      </Card>
      <RegisterBicDialog open={registerOpen} onClose={() => setRegisterOpen(false)} />
    </>
  );
}
