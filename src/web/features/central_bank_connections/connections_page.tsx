/**
 * Spec 2.9: the New Connection dialog, the pre-configured partner while it is not connected, four
 * counters (total, active, pending, testing) and the table with a live test per row. Every test,
 * whatever its outcome, refreshes the list (a success records lastConnectedAt and may activate).
 */
import { useMemo, useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Button } from "../../components/ui/button.tsx";
import { StatCard, StatGrid, TitledCard } from "../../components/ui/card.tsx";
import { type ColumnDef, DataTable } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { connectionTestToast } from "../../../domain/connection_test_outcome.ts";
import { formatCurrency, formatDateTime } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { NewConnectionDialog } from "./new_connection_dialog.tsx";
import { PartnerConnectionCard } from "./partner_connection_card.tsx";
import {
  type Connection,
  CONNECTION_TYPE_OPTIONS,
  hasPartnerConnection,
  labelOf,
  MESSAGE_STANDARD_OPTIONS,
} from "./types.ts";
import { useConnections, usePartnerConfig, useTestConnection } from "./api.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { useCreateRequest } from "../../lib/ui_state.ts";
import { actionsColumn, statusColumn } from "../../components/columns.tsx";
import { loadFailure } from "../../components/ui/load_failed.tsx";

function creatorName(connection: Connection): string {
  const user = connection.createdByUser;
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(" ");
  return name || user?.email || "—";
}

function TestButton({ connection, testing, onTest }: {
  connection: Connection;
  testing: boolean;
  onTest: (id: string) => void;
}) {
  return (
    <IfAllowed method="POST" path="/api/central-bank-connections/:id/test">
      <Button
        variant="outline"
        size="sm"
        disabled={testing}
        onClick={() => onTest(connection.id)}
        aria-label={`Test connection to ${connection.partnerCentralBank}`}
      >
        {testing ? "Testing…" : "Test"}
      </Button>
    </IfAllowed>
  );
}

function columns(testingId: string | null, onTest: (id: string) => void): ColumnDef<Connection>[] {
  return [
    {
      accessorKey: "partnerCentralBank",
      header: "Partner Central Bank",
      cell: ({ row }) => (
        <>
          <div className="font-medium text-slate-900">{row.original.partnerCentralBank}</div>
          <div className="font-mono text-xs text-slate-600">
            {[row.original.partnerSwiftCode, row.original.partnerBankCode].filter(Boolean).join(" · ") || "—"}
          </div>
        </>
      ),
    },
    { id: "type", header: "Type", accessorFn: (c) => labelOf(CONNECTION_TYPE_OPTIONS, c.connectionType) },
    {
      id: "messageStandard",
      header: "Message Standard",
      accessorFn: (c) => labelOf(MESSAGE_STANDARD_OPTIONS, c.messageStandard),
    },
    {
      id: "dailyLimit",
      header: "Daily Limit",
      enableSorting: false,
      cell: ({ row }) =>
        row.original.dailySettlementLimit === null
          ? "No limit"
          : formatCurrency(row.original.dailySettlementLimit, row.original.settlementCurrency),
    },
    {
      id: "endpoint",
      header: "Endpoint",
      enableSorting: false,
      meta: { cellClassName: "max-w-56 break-all font-mono text-xs" },
      cell: ({ row }) => row.original.apiEndpoint ?? "—",
    },
    statusColumn("connectionStatus"),
    {
      id: "lastConnectedAt",
      header: "Last Connected",
      accessorFn: (c) => c.lastConnectedAt ?? "",
      cell: (
        { row },
      ) => (row.original.lastConnectedAt ? formatDateTime(row.original.lastConnectedAt) : "Never"),
    },
    { id: "createdBy", header: "Created By", accessorFn: creatorName },
    actionsColumn((connection) => (
      <TestButton connection={connection} testing={testingId === connection.id} onTest={onTest} />
    )),
  ];
}

export default function ConnectionsPage() {
  const connections = useConnections();
  const partner = usePartnerConfig();
  const [newOpen, setNewOpen] = useState(false);
  useCreateRequest("connection", () => setNewOpen(true));
  const { toast } = useToast();
  const list = connections.data ?? [];

  const counts = useMemo(() => ({
    total: list.length,
    active: list.filter((connection) => connection.connectionStatus === "active").length,
    pending: list.filter((connection) => connection.connectionStatus === "pending").length,
    testing: list.filter((connection) => connection.connectionStatus === "testing").length,
  }), [list]);

  const test = useTestConnection((result) =>
    toast({ ...connectionTestToast(result), variant: result.success ? "default" : "destructive" })
  );

  const testingId = test.isPending ? test.variables ?? null : null;
  const tableColumns = useMemo(() => columns(testingId, (id) => test.mutate(id)), [testingId]);

  const showPartner = partner.data !== undefined && connections.isSuccess &&
    !hasPartnerConnection(list, partner.data.associationName);

  return (
    <>
      <PageHeader
        title="Central Bank Connections"
        subtitle="Links to partner central banks, with a live test of each endpoint"
        actions={
          <IfAllowed method="POST" path="/api/central-bank-connections">
            <Button onClick={() => setNewOpen(true)}>New Connection</Button>
          </IfAllowed>
        }
      />
      {showPartner && <PartnerConnectionCard partner={partner.data} />}
      <StatGrid className="mb-6">
        <StatCard label="Total Connections" value={connections.isLoading ? "…" : counts.total} />
        <StatCard label="Active" value={connections.isLoading ? "…" : counts.active} />
        <StatCard label="Pending" value={connections.isLoading ? "…" : counts.pending} />
        <StatCard label="Testing" value={connections.isLoading ? "…" : counts.testing} />
      </StatGrid>
      <TitledCard title="Partner Connections">
        <DataTable
          label="Central bank connections"
          columns={tableColumns}
          rows={list}
          isLoading={connections.isLoading}
          failure={loadFailure(connections, "Connections could not be loaded")}
          empty={<EmptyState title="No connections yet" text="Connections to partner central banks will appear here." />}
        />
      </TitledCard>
      <NewConnectionDialog open={newOpen} onClose={() => setNewOpen(false)} />
    </>
  );
}
