/**
 * Spec 2.10 Balance Sweep Management: Auto Sweep (planned and confirmed first), the Manual Sweep and Add Account dialogs, four
 * summary cards (ledger and liquid totals summed here by account type in exact BigInt minor units,
 * today's sweeps, active accounts), the accounts table and the 10 newest sweeps, each with its
 * ISO 20022 camt.050 message to download.
 */
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Badge, StatusBadge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  StatCard,
} from "../../components/ui/card.tsx";
import { Skeleton } from "../../components/ui/spinner.tsx";
import { EmptyState, Table, TBody, Td, Th, THead, Tr } from "../../components/ui/table.tsx";
import { formatDateTime, titleCase } from "../../lib/format.ts";
import { AddAccountDialog } from "./add_account_dialog.tsx";
import { AutoSweepDialog } from "./auto_sweep_dialog.tsx";
import { ManualSweepDialog } from "./manual_sweep_dialog.tsx";
import {
  ACCOUNTS_KEY,
  type BalanceSweep,
  executorName,
  formatAmount,
  formatTotals,
  type LedgerAccount,
  RECENT_SWEEPS_KEY,
  RECENT_SWEEPS_SHOWN,
  SWEEPS_PATH,
  todayCountKey,
  totalsByCurrency,
} from "./types.ts";

const LOADING_ROWS = 5;

function LoadingRows({ columns }: { columns: number }) {
  return (
    <>
      {Array.from({ length: LOADING_ROWS }, (_, row) => (
        <Tr key={row}>
          {Array.from({ length: columns }, (_, column) => (
            <Td key={column}>
              <Skeleton className="h-4 w-full" />
            </Td>
          ))}
        </Tr>
      ))}
    </>
  );
}

function AccountsTable({ accounts, isLoading }: { accounts: readonly LedgerAccount[]; isLoading: boolean }) {
  const names = useMemo(() => new Map(accounts.map((account) => [account.id, account.accountName])), [
    accounts,
  ]);
  if (!isLoading && accounts.length === 0) {
    return <EmptyState title="No accounts yet" text="Ledger and liquid accounts you add will appear here." />;
  }
  return (
    <Table label="Ledger and liquid accounts">
      <THead>
        <Tr>
          <Th>Account</Th>
          <Th>Type</Th>
          <Th className="text-right">Current Balance</Th>
          <Th className="text-right">Available</Th>
          <Th className="text-right">Sweep Threshold</Th>
          <Th>Target Liquid Account</Th>
          <Th>Status</Th>
          <Th>Last Sweep</Th>
        </Tr>
      </THead>
      <TBody>
        {isLoading ? <LoadingRows columns={8} /> : accounts.map((account) => (
          <Tr key={account.id}>
            <Td>
              <div className="font-medium text-slate-900">{account.accountName}</div>
              <div className="font-mono text-xs text-slate-600">{account.accountNumber}</div>
            </Td>
            <Td>
              <Badge variant="outline">{titleCase(account.accountType)}</Badge>
            </Td>
            <Td className="text-right tabular-nums">
              {formatAmount(account.currentBalance, account.currency)}
            </Td>
            <Td className="text-right tabular-nums">
              {formatAmount(account.availableBalance, account.currency)}
            </Td>
            <Td className="text-right tabular-nums">
              {account.sweepThreshold === null ? "—" : formatAmount(account.sweepThreshold, account.currency)}
            </Td>
            <Td>{account.targetLiquidAccount ? names.get(account.targetLiquidAccount) ?? "—" : "—"}</Td>
            <Td>
              <StatusBadge status={account.accountStatus} />
            </Td>
            <Td>{account.lastSweepDate ? formatDateTime(account.lastSweepDate) : "Never"}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

function RecentSweepsTable({ sweeps, isLoading }: { sweeps: readonly BalanceSweep[]; isLoading: boolean }) {
  if (!isLoading && sweeps.length === 0) {
    return <EmptyState title="No sweeps yet" text="Manual and automatic sweeps will appear here." />;
  }
  return (
    <Table label="Recent balance sweeps">
      <THead>
        <Tr>
          <Th>Executed</Th>
          <Th>Type</Th>
          <Th>From</Th>
          <Th>To</Th>
          <Th className="text-right">Amount</Th>
          <Th>Status</Th>
          <Th>Executed By</Th>
          <Th>ISO 20022</Th>
        </Tr>
      </THead>
      <TBody>
        {isLoading ? <LoadingRows columns={8} /> : sweeps.map((sweep) => (
          <Tr key={sweep.id}>
            <Td>
              <div>{formatDateTime(sweep.executedAt)}</div>
              <div className="font-mono text-xs text-slate-600">{sweep.transactionReference}</div>
            </Td>
            <Td>
              <Badge variant="outline">{titleCase(sweep.sweepType)}</Badge>
            </Td>
            <Td>
              <div>{sweep.sourceAccount.accountName}</div>
              <div className="font-mono text-xs text-slate-600">{sweep.sourceAccount.accountNumber}</div>
            </Td>
            <Td>
              <div>{sweep.targetAccount.accountName}</div>
              <div className="font-mono text-xs text-slate-600">{sweep.targetAccount.accountNumber}</div>
            </Td>
            <Td className="text-right tabular-nums">{formatAmount(sweep.sweepAmount, sweep.currency)}</Td>
            <Td>
              <Badge variant={sweep.sweepStatus === "completed" ? "default" : "secondary"}>
                {sweep.sweepStatus}
              </Badge>
            </Td>
            <Td>{executorName(sweep)}</Td>
            <Td>
              <a
                href={`${SWEEPS_PATH}/${sweep.id}/iso20022`}
                download
                className="text-sm font-medium text-blue-800 underline hover:text-blue-900"
                aria-label={`Download ISO 20022 message for sweep ${sweep.transactionReference ?? sweep.id}`}
              >
                camt.050
              </a>
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

export default function BalanceSweepPage() {
  const accountsQuery = useQuery<LedgerAccount[]>({ queryKey: [ACCOUNTS_KEY] });
  const sweepsQuery = useQuery<BalanceSweep[]>({ queryKey: [RECENT_SWEEPS_KEY] });
  const todayQuery = useQuery<{ count: number }>({ queryKey: [todayCountKey()] });
  const [manualOpen, setManualOpen] = useState(false);
  const [autoOpen, setAutoOpen] = useState(false);
  const [addOpen, setAddOpen] = useState(false);
  const accounts = accountsQuery.data ?? [];

  const summary = useMemo(() => ({
    ledger: formatTotals(totalsByCurrency(accounts, "ledger")),
    liquid: formatTotals(totalsByCurrency(accounts, "liquid")),
    active: accounts.filter((account) => account.accountStatus === "active").length,
  }), [accounts]);

  const pending = (value: string | number) => (accountsQuery.isLoading ? "…" : value);

  return (
    <>
      <PageHeader
        title="Balance Sweep Management"
        subtitle="Ledger and liquid accounts, manual and automatic sweeps between them"
        actions={
          <>
            <Button variant="outline" onClick={() => setAutoOpen(true)}>Auto Sweep</Button>
            <Button variant="outline" onClick={() => setManualOpen(true)}>Manual Sweep</Button>
            <Button onClick={() => setAddOpen(true)}>Add Account</Button>
          </>
        }
      />
      <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total Ledger Balance" value={pending(summary.ledger)} />
        <StatCard label="Total Liquid Balance" value={pending(summary.liquid)} />
        <StatCard label="Today's Sweeps" value={todayQuery.isLoading ? "…" : todayQuery.data?.count ?? "—"} />
        <StatCard
          label="Active Accounts"
          value={pending(summary.active)}
          hint={`of ${accounts.length} accounts`}
        />
      </div>
      <Card className="mb-6">
        <CardHeader>
          <CardTitle>Accounts</CardTitle>
          <CardDescription>
            Balances, sweep thresholds and the liquid account each one sweeps to
          </CardDescription>
        </CardHeader>
        <CardContent>
          {accountsQuery.isError
            ? <EmptyState title="Accounts could not be loaded" text="Reload the page to try again." />
            : <AccountsTable accounts={accounts} isLoading={accountsQuery.isLoading} />}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Recent Balance Sweeps</CardTitle>
          <CardDescription>
            The {RECENT_SWEEPS_SHOWN} newest sweeps, each downloadable as an ISO 20022 message
          </CardDescription>
        </CardHeader>
        <CardContent>
          {sweepsQuery.isError
            ? <EmptyState title="Sweeps could not be loaded" text="Reload the page to try again." />
            : <RecentSweepsTable sweeps={sweepsQuery.data ?? []} isLoading={sweepsQuery.isLoading} />}
        </CardContent>
      </Card>
      <ManualSweepDialog open={manualOpen} onClose={() => setManualOpen(false)} accounts={accounts} />
      <AutoSweepDialog open={autoOpen} onClose={() => setAutoOpen(false)} />
      <AddAccountDialog open={addOpen} onClose={() => setAddOpen(false)} accounts={accounts} />
    </>
  );
}
