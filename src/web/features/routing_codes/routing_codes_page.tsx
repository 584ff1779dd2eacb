/** Spec 2.5: counters, a searchable table of routing codes, and the "Assign New Code" dialog. */
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { StatusBadge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle, StatCard } from "../../components/ui/card.tsx";
import { inputClassName } from "../../components/ui/form.tsx";
import { EmptyState, SkeletonRows, TBody, THead, Table, Td, Th, Tr } from "../../components/ui/table.tsx";
import { formatDate } from "../../lib/format.ts";
import { AssignCodeDialog } from "./assign_code_dialog.tsx";
import { ROUTING_CODES_KEY, type RoutingCode } from "./types.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";

const LOADING_ROWS = 5;

function isInMonthOf(iso: string, now: Date): boolean {
  const date = new Date(iso);
  return date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth();
}

function matches(code: RoutingCode, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === "") return true;
  return [code.code, code.prefix, code.institutionId, code.branchCode, code.description, code.status]
    .some((value) => value?.toLowerCase().includes(needle));
}

export default function RoutingCodesPage() {
  const { data, isLoading, isError } = useQuery<RoutingCode[]>({ queryKey: [ROUTING_CODES_KEY] });
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
        actions={<IfAllowed method="POST" path="/api/routing-codes"><Button onClick={() => setAssignOpen(true)}>Assign New Code</Button></IfAllowed>}
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
          {isError
            ? <EmptyState title="Routing codes could not be loaded" text="Reload the page to try again." />
            : !isLoading && visible.length === 0
            ? (
              codes.length === 0
                ? <EmptyState title="No routing codes yet" text="Assigned routing codes will appear here." />
                : <EmptyState title="No matching routing codes" text="Try a different search." />
            )
            : (
              <Table label="Routing codes">
                <THead>
                  <Tr>
                    <Th>Routing Code</Th>
                    <Th>Prefix</Th>
                    <Th>Institution ID</Th>
                    <Th>Branch Code</Th>
                    <Th>Status</Th>
                    <Th>Created</Th>
                    <Th>Description</Th>
                  </Tr>
                </THead>
                <TBody>
                  {isLoading
                    ? <SkeletonRows rows={LOADING_ROWS} columns={7} />
                    : visible.map((code) => (
                      <Tr key={code.id}>
                        <Td className="font-mono font-medium">{code.code}</Td>
                        <Td className="font-mono">{code.prefix}</Td>
                        <Td className="font-mono text-xs">{code.institutionId}</Td>
                        <Td>{code.branchCode ?? "—"}</Td>
                        <Td>
                          <StatusBadge status={code.status} />
                        </Td>
                        <Td>{formatDate(code.createdAt)}</Td>
                        <Td className="max-w-xs truncate">{code.description ?? ""}</Td>
                      </Tr>
                    ))}
                </TBody>
              </Table>
            )}
        </CardContent>
      </Card>
      <AssignCodeDialog open={assignOpen} onClose={() => setAssignOpen(false)} />
    </>
  );
}
