/**
 * Spec 2.9: the New Connection dialog, the pre-configured partner while it is not connected, four
 * counters (total, active, pending, testing) and the table with a live test per row. Every test,
 * whatever its outcome, refreshes the list (a success records lastConnectedAt and may activate).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { StatusBadge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle, StatCard } from "../../components/ui/card.tsx";
import { EmptyState, SkeletonRows, TBody, THead, Table, Td, Th, Tr } from "../../components/ui/table.tsx";
import { apiJson } from "../../lib/api.ts";
import { formatCurrencyEnUs, parseMoney } from "../../../domain/money.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { isUnauthorizedError, redirectToLogin } from "../../lib/unauthorized.ts";
import { NewConnectionDialog } from "./new_connection_dialog.tsx";
import { PartnerConnectionCard } from "./partner_connection_card.tsx";
import {
  type Connection,
  CONNECTION_TYPE_OPTIONS,
  CONNECTIONS_KEY,
  type ConnectionTestResult,
  hasPartnerConnection,
  labelOf,
  MESSAGE_STANDARD_OPTIONS,
  PARTNER_CONFIG_KEY,
  type PartnerConfig,
} from "./types.ts";

const LOADING_ROWS = 5;
const COLUMN_COUNT = 9;

/** Exact en-US display, JPY included: an amount with cents keeps them rather than being rounded. */
function formatLimit(amount: string, currency: string): string {
  const minor = parseMoney(amount);
  return minor.ok ? formatCurrencyEnUs(minor.value, currency) : amount;
}

function creatorName(connection: Connection): string {
  const user = connection.createdByUser;
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(" ");
  return name || "—";
}

export default function ConnectionsPage() {
  const connections = useQuery<Connection[]>({ queryKey: [CONNECTIONS_KEY] });
  const partner = useQuery<PartnerConfig>({ queryKey: [PARTNER_CONFIG_KEY] });
  const [newOpen, setNewOpen] = useState(false);
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const list = connections.data ?? [];

  const counts = useMemo(() => ({
    total: list.length,
    active: list.filter((connection) => connection.connectionStatus === "active").length,
    pending: list.filter((connection) => connection.connectionStatus === "pending").length,
    testing: list.filter((connection) => connection.connectionStatus === "testing").length,
  }), [list]);

  const test = useMutation({
    mutationFn: (id: string) => apiJson<ConnectionTestResult>("POST", `${CONNECTIONS_KEY}/${id}/test`),
    onSuccess: (result) => {
      toast({
        title: result.success ? "Connection Successful" : "Connection Failed",
        description: `${result.message} (latency ${result.latency} ms)`,
        variant: result.success ? "default" : "destructive",
      });
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return redirectToLogin(toast);
      toast({ title: "Test Failed", description: "Failed to test connection", variant: "destructive" });
    },
    onSettled: () => {
      queryClient.invalidateQueries({ queryKey: [CONNECTIONS_KEY] });
      // The dashboard's operational-status alert follows each connection's last test.
      queryClient.invalidateQueries({ queryKey: ["/api/dashboard/alerts"] });
    },
  });

  const showPartner = partner.data !== undefined && connections.isSuccess &&
    !hasPartnerConnection(list, partner.data.associationName);

  return (
    <>
      <PageHeader
        title="Central Bank Connections"
        subtitle="Links to partner central banks, with a live test of each endpoint"
        actions={<Button onClick={() => setNewOpen(true)}>New Connection</Button>}
      />
      {showPartner && <PartnerConnectionCard partner={partner.data} />}
      <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total Connections" value={connections.isLoading ? "…" : counts.total} />
        <StatCard label="Active" value={connections.isLoading ? "…" : counts.active} />
        <StatCard label="Pending" value={connections.isLoading ? "…" : counts.pending} />
        <StatCard label="Testing" value={connections.isLoading ? "…" : counts.testing} />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Partner Connections</CardTitle>
        </CardHeader>
        <CardContent>
          {connections.isError
            ? <EmptyState title="Connections could not be loaded" text="Reload the page to try again." />
            : !connections.isLoading && list.length === 0
            ? (
              <EmptyState
                title="No connections yet"
                text="Connections to partner central banks will appear here."
              />
            )
            : (
              <Table label="Central bank connections">
                <THead>
                  <Tr>
                    <Th>Partner Central Bank</Th>
                    <Th>Type</Th>
                    <Th>Message Standard</Th>
                    <Th>Daily Limit</Th>
                    <Th>Endpoint</Th>
                    <Th>Status</Th>
                    <Th>Last Connected</Th>
                    <Th>Created By</Th>
                    <Th>
                      <span className="sr-only">Actions</span>
                    </Th>
                  </Tr>
                </THead>
                <TBody>
                  {connections.isLoading
                    ? <SkeletonRows rows={LOADING_ROWS} columns={COLUMN_COUNT} />
                    : list.map((connection) => {
                      const testing = test.isPending && test.variables === connection.id;
                      return (
                        <Tr key={connection.id}>
                          <Td>
                            <div className="font-medium text-slate-900">{connection.partnerCentralBank}</div>
                            <div className="font-mono text-xs text-slate-600">
                              {[connection.partnerSwiftCode, connection.partnerBankCode].filter(Boolean).join(
                                " · ",
                              ) || "—"}
                            </div>
                          </Td>
                          <Td>{labelOf(CONNECTION_TYPE_OPTIONS, connection.connectionType)}</Td>
                          <Td>{labelOf(MESSAGE_STANDARD_OPTIONS, connection.messageStandard)}</Td>
                          <Td>
                            {connection.dailySettlementLimit === null
                              ? "No limit"
                              : formatLimit(connection.dailySettlementLimit, connection.settlementCurrency)}
                          </Td>
                          <Td className="max-w-56 break-all font-mono text-xs">
                            {connection.apiEndpoint ?? "—"}
                          </Td>
                          <Td>
                            <StatusBadge status={connection.connectionStatus} />
                          </Td>
                          <Td>
                            {connection.lastConnectedAt
                              ? formatDateTime(connection.lastConnectedAt)
                              : "Never"}
                          </Td>
                          <Td>{creatorName(connection)}</Td>
                          <Td className="text-right">
                            <Button
                              variant="outline"
                              size="sm"
                              disabled={testing}
                              onClick={() => test.mutate(connection.id)}
                              aria-label={`Test connection to ${connection.partnerCentralBank}`}
                            >
                              {testing ? "Testing…" : "Test"}
                            </Button>
                          </Td>
                        </Tr>
                      );
                    })}
                </TBody>
              </Table>
            )}
        </CardContent>
      </Card>
      <NewConnectionDialog open={newOpen} onClose={() => setNewOpen(false)} />
    </>
  );
}
