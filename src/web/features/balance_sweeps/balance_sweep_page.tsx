/**
 * Spec 2.10 Balance Sweep Management: Auto Sweep (planned and confirmed first), the Manual Sweep and Add Account dialogs, four
 * summary cards (ledger and liquid totals summed here by account type in exact BigInt minor units,
 * today's sweeps, active accounts), the accounts table and the 10 newest sweeps, each with its
 * ISO 20022 camt.050 message to download.
 */
import { useMemo, useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { StatCard, StatGrid, TitledCard } from "../../components/ui/card.tsx";
import { type ColumnDef, DataTable, type FilterDef } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { formatDateTime, titleCase, formatCurrency } from "../../lib/format.ts";
import { AddAccountDialog } from "./add_account_dialog.tsx";
import { AutoSweepDialog } from "./auto_sweep_dialog.tsx";
import { ManualSweepDialog } from "./manual_sweep_dialog.tsx";
import { OutflowLimitDialog } from "./outflow_limit_dialog.tsx";
import { useMayCall } from "../../lib/auth.ts";
import { SweepCharts } from "./sweep_charts.tsx";
import {
  ACCOUNT_TYPES,
  type BalanceSweep,
  executorName,
  formatTotals,
  type LedgerAccount,
  RECENT_SWEEPS_SHOWN,
  SWEEPS_PATH,
  toMinor,
  totalsByCurrency,
} from "./types.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { useCreateRequest } from "../../lib/ui_state.ts";
import { AwaitingApproval } from "../../components/awaiting_approval.tsx";
import { useLedgerAccounts, useRecentSweeps, useTodaySweepCount } from "./api.ts";
import { accountColumn, statusColumn } from "../../components/columns.tsx";
import { type LoadFailure, loadFailure } from "../../components/ui/load_failed.tsx";

/** The path whose role rule opens the limit editor (src/domain/access.ts). */
const OUTFLOW_LIMIT_ROUTE = "/api/ledger-accounts/:id/daily-outflow-limit";

/** The account's daily outflow limit, and for administrators the button that edits it. */
function outflowLimitColumn(onEdit: ((account: LedgerAccount) => void) | null): ColumnDef<LedgerAccount> {
  return {
    id: "dailyOutflowLimit",
    header: "Daily Outflow Limit",
    enableSorting: false,
    meta: { cellClassName: "text-right tabular-nums" },
    cell: ({ row }) => {
      const account = row.original;
      const shown = account.dailyOutflowLimit === null
        ? "None"
        : formatCurrency(account.dailyOutflowLimit, account.currency);
      if (onEdit === null) return shown;
      return (
        <span className="inline-flex items-center gap-2">
          {shown}
          <Button changes
            variant="outline"
            size="sm"
            onClick={() => onEdit(account)}
            aria-label={`Edit the daily outflow limit of ${account.accountNumber}`}
          >
            Edit
          </Button>
        </span>
      );
    },
  };
}

function accountColumns(
  names: ReadonlyMap<string, string>,
  onEditLimit: ((account: LedgerAccount) => void) | null,
): ColumnDef<LedgerAccount>[] {
  return [
    accountColumn(),
    {
      accessorKey: "accountType",
      header: "Type",
      filterFn: "equals",
      cell: ({ row }) => <Badge variant="outline">{titleCase(row.original.accountType)}</Badge>,
    },
    {
      id: "currentBalance",
      header: "Current Balance",
      accessorFn: (account) => toMinor(account.currentBalance),
      sortingFn: "basic",
      meta: { cellClassName: "text-right tabular-nums" },
      cell: ({ row }) => formatCurrency(row.original.currentBalance, row.original.currency),
    },
    {
      id: "availableBalance",
      header: "Available",
      accessorFn: (account) => toMinor(account.availableBalance),
      sortingFn: "basic",
      meta: { cellClassName: "text-right tabular-nums" },
      cell: ({ row }) => formatCurrency(row.original.availableBalance, row.original.currency),
    },
    {
      id: "sweepThreshold",
      header: "Sweep Threshold",
      enableSorting: false,
      meta: { cellClassName: "text-right tabular-nums" },
      cell: ({ row }) =>
        row.original.sweepThreshold === null
          ? "—"
          : formatCurrency(row.original.sweepThreshold, row.original.currency),
    },
    {
      id: "target",
      header: "Target Liquid Account",
      accessorFn: (
        account,
      ) => (account.targetLiquidAccount ? names.get(account.targetLiquidAccount) ?? "—" : "—"),
    },
    outflowLimitColumn(onEditLimit),
    statusColumn("accountStatus", true),
    {
      id: "lastSweepDate",
      header: "Last Sweep",
      accessorFn: (account) => account.lastSweepDate ?? "",
      cell: ({ row }) => (row.original.lastSweepDate ? formatDateTime(row.original.lastSweepDate) : "Never"),
    },
  ];
}

const ACCOUNT_FILTERS: FilterDef[] = [
  {
    columnId: "accountType",
    label: "Filter by account type",
    allLabel: "All types",
    options: ACCOUNT_TYPES.map((type) => ({ value: type, label: titleCase(type) })),
  },
  {
    columnId: "accountStatus",
    label: "Filter by status",
    allLabel: "All statuses",
    options: ["active", "inactive", "frozen", "closed"].map((status) => ({
      value: status,
      label: titleCase(status),
    })),
  },
];

function AccountsTable({ accounts, isLoading, failure, onEditLimit }: {
  accounts: readonly LedgerAccount[];
  isLoading: boolean;
  failure: LoadFailure | null;
  onEditLimit: (account: LedgerAccount) => void;
}) {
  const mayEditLimits = useMayCall("PUT", OUTFLOW_LIMIT_ROUTE);
  const columns = useMemo(
    () =>
      accountColumns(
        new Map(accounts.map((account) => [account.id, account.accountName])),
        mayEditLimits ? onEditLimit : null,
      ),
    [accounts, mayEditLimits, onEditLimit],
  );
  return (
    <DataTable
      label="Ledger and liquid accounts"
      urlKey="accounts"
      columns={columns}
      rows={accounts}
      isLoading={isLoading}
      failure={failure}
      filters={ACCOUNT_FILTERS}
      empty={accounts.length === 0
        ? <EmptyState title="No accounts yet" text="Ledger and liquid accounts you add will appear here." />
        : <EmptyState title="No matching accounts" text="Choose another type or status." />}
    />
  );
}

function AccountLines({ account }: { account: { accountName: string; accountNumber: string } }) {
  return (
    <>
      <div>{account.accountName}</div>
      <div className="font-mono text-xs text-slate-600">{account.accountNumber}</div>
    </>
  );
}

const SWEEP_COLUMNS: ColumnDef<BalanceSweep>[] = [
  {
    accessorKey: "executedAt",
    header: "Executed",
    cell: ({ row }) => (
      <>
        <div>{formatDateTime(row.original.executedAt)}</div>
        <div className="font-mono text-xs text-slate-600">{row.original.transactionReference}</div>
      </>
    ),
  },
  {
    accessorKey: "sweepType",
    header: "Type",
    cell: ({ row }) => <Badge variant="outline">{titleCase(row.original.sweepType)}</Badge>,
  },
  {
    id: "from",
    header: "From",
    accessorFn: (sweep) => sweep.sourceAccount.accountName,
    cell: ({ row }) => <AccountLines account={row.original.sourceAccount} />,
  },
  {
    id: "to",
    header: "To",
    accessorFn: (sweep) => sweep.targetAccount.accountName,
    cell: ({ row }) => <AccountLines account={row.original.targetAccount} />,
  },
  {
    id: "amount",
    header: "Amount",
    accessorFn: (sweep) => toMinor(sweep.sweepAmount),
    sortingFn: "basic",
    meta: { cellClassName: "text-right tabular-nums" },
    cell: ({ row }) => formatCurrency(row.original.sweepAmount, row.original.currency),
  },
  {
    accessorKey: "sweepStatus",
    header: "Status",
    cell: ({ row }) => (
      <Badge variant={row.original.sweepStatus === "completed" ? "default" : "secondary"}>
        {row.original.sweepStatus}
      </Badge>
    ),
  },
  { id: "executedBy", header: "Executed By", accessorFn: executorName },
  {
    id: "iso20022",
    header: "ISO 20022",
    enableSorting: false,
    cell: ({ row }) => (
      <a
        href={`${SWEEPS_PATH}/${row.original.id}/iso20022`}
        download
        className="text-sm font-medium text-blue-800 underline hover:text-blue-900"
        aria-label={`Download ISO 20022 message for sweep ${
          row.original.transactionReference ?? row.original.id
        }`}
      >
        camt.050
      </a>
    ),
  },
];

function RecentSweepsTable({ sweeps, isLoading, failure }: {
  sweeps: readonly BalanceSweep[];
  isLoading: boolean;
  failure: LoadFailure | null;
}) {
  return (
    <DataTable
      label="Recent balance sweeps"
      urlKey="sweeps"
      columns={SWEEP_COLUMNS}
      rows={sweeps}
      isLoading={isLoading}
      failure={failure}
      empty={<EmptyState title="No sweeps yet" text="Manual and automatic sweeps will appear here." />}
    />
  );
}

/** The four-eyes requests this screen makes. */
const SWEEP_SCREEN_REQUESTS = ["sweep", "auto_sweep", "opening_balance"] as const;

function SweepSummary({ accounts, isLoading }: { accounts: readonly LedgerAccount[]; isLoading: boolean }) {
  const todayQuery = useTodaySweepCount();
  const summary = useMemo(() => ({
    ledger: formatTotals(totalsByCurrency(accounts, "ledger")),
    liquid: formatTotals(totalsByCurrency(accounts, "liquid")),
    active: accounts.filter((account) => account.accountStatus === "active").length,
  }), [accounts]);
  const pending = (value: string | number) => (isLoading ? "…" : value);
  return (
    <StatGrid className="mb-6">
      <StatCard label="Total Ledger Balance" value={pending(summary.ledger)} />
      <StatCard label="Total Liquid Balance" value={pending(summary.liquid)} />
      <StatCard label="Today's Sweeps" value={todayQuery.isLoading ? "…" : todayQuery.data?.count ?? "—"} />
      <StatCard
        label="Active Accounts"
        value={pending(summary.active)}
        hint={`of ${accounts.length} accounts`}
      />
    </StatGrid>
  );
}

function SweepActions(
  { onAuto, onManual, onAdd }: { onAuto: () => void; onManual: () => void; onAdd: () => void },
) {
  return (
    <>
      <IfAllowed method="POST" path="/api/balance-sweeps/auto-sweep">
        <Button variant="outline" onClick={onAuto}>Auto Sweep</Button>
      </IfAllowed>
      <IfAllowed method="POST" path="/api/balance-sweeps">
        <Button variant="outline" onClick={onManual}>Manual Sweep</Button>
      </IfAllowed>
      <IfAllowed method="POST" path="/api/ledger-accounts">
        <Button onClick={onAdd}>Add Account</Button>
      </IfAllowed>
    </>
  );
}

export default function BalanceSweepPage() {
  const accountsQuery = useLedgerAccounts();
  const sweepsQuery = useRecentSweeps();
  const [manualOpen, setManualOpen] = useState(false);
  const [autoOpen, setAutoOpen] = useState(false);
  const [addOpen, setAddOpen] = useState(false);
  useCreateRequest("manual-sweep", () => setManualOpen(true));
  useCreateRequest("account", () => setAddOpen(true));
  const [limitFor, setLimitFor] = useState<LedgerAccount | null>(null);
  const accounts = accountsQuery.data ?? [];

  return (
    <>
      <PageHeader
        title="Balance Sweep Management"
        subtitle="Ledger and liquid accounts, manual and automatic sweeps between them"
        actions={
          <SweepActions
            onAuto={() => setAutoOpen(true)}
            onManual={() => setManualOpen(true)}
            onAdd={() => setAddOpen(true)}
          />
        }
      />
      <SweepSummary accounts={accounts} isLoading={accountsQuery.isLoading} />
      <AwaitingApproval kinds={SWEEP_SCREEN_REQUESTS} />
      <SweepCharts />
      <TitledCard
        title="Accounts"
        description="Balances, sweep thresholds, the liquid account each one sweeps to, and daily outflow limits"
        className="mb-6"
      >
        <AccountsTable
          accounts={accounts}
          isLoading={accountsQuery.isLoading}
          failure={loadFailure(accountsQuery, "Accounts could not be loaded")}
          onEditLimit={setLimitFor}
        />
      </TitledCard>
      <TitledCard
        title="Recent Balance Sweeps"
        description={<>The {RECENT_SWEEPS_SHOWN} newest sweeps, each downloadable as an ISO 20022 message</>}
      >
        <RecentSweepsTable
          sweeps={sweepsQuery.data ?? []}
          isLoading={sweepsQuery.isLoading}
          failure={loadFailure(sweepsQuery, "Sweeps could not be loaded")}
        />
      </TitledCard>
      <ManualSweepDialog open={manualOpen} onClose={() => setManualOpen(false)} accounts={accounts} />
      <AutoSweepDialog open={autoOpen} onClose={() => setAutoOpen(false)} />
      <AddAccountDialog open={addOpen} onClose={() => setAddOpen(false)} accounts={accounts} />
      {limitFor && (
        <OutflowLimitDialog key={limitFor.id} account={limitFor} onClose={() => setLimitFor(null)} />
      )}
    </>
  );
}
