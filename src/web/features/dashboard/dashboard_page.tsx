/** The Dashboard (spec 2.3): stats with computed trends, recent registrations, quick actions, computed alerts, code lookup. */
import { useSetAtom } from "jotai";
import { useMemo } from "react";
import { Link } from "react-router";
import { type AlertTone, monthlyGrowthText, versusYesterdayText } from "../../../domain/dashboard.ts";
import { branchLabel } from "../../../domain/institution.ts";
import { InstitutionLink } from "../../components/institution_link.tsx";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { StatusBadge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle, StatCard, StatGrid, TitledCard } from "../../components/ui/card.tsx";
import { Skeleton } from "../../components/ui/spinner.tsx";
import { EmptyState, Table, TBody, Td, Th, THead, Tr } from "../../components/ui/table.tsx";
import { formatDate, titleCase } from "../../lib/format.ts";
import { newInstitutionDialogOpenAtom } from "../../lib/ui_state.ts";
import {
  useDashboardAlerts,
  useDashboardCharts,
  useDashboardStats,
  useDashboardTrends,
  useRecentRegistrations,
} from "./api.ts";
import { CodeLookup } from "./code_lookup.tsx";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { ChartCard } from "../../components/charts/chart_card.tsx";
import { QueryFailed } from "../../components/ui/load_failed.tsx";

/** Spec 9: skeletons while loading: 4 cards, 5 rows. */
const SKELETON_CARDS = 4;
const SKELETON_ROWS = 5;
const RECENT_COLUMNS = 5;

/** Links that look like the outline button. */
const LINK_BUTTON =
  "inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-4 h-9 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-700 focus-visible:ring-offset-2";

/** Chart.js loads only when the charts draw, after the figures above them. */
const HOUR_LABELS = Array.from({ length: 24 }, (_, hour) => `${String(hour).padStart(2, "0")}:00`);

function monthLabel(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
}

function ActivityCharts() {
  const charts = useDashboardCharts();
  const data = charts.data;
  const registrations = useMemo(() => {
    if (!data) return null;
    const counts = data.registrationsPerMonth.map((bucket) => bucket.count);
    const total = counts.reduce((sum, count) => sum + count, 0);
    return {
      kind: "bar" as const,
      labelHeading: "Month",
      labels: data.registrationsPerMonth.map((bucket) => monthLabel(bucket.month)),
      series: [{ label: "Registrations", values: counts }],
      summary: `Registrations per month over the last 12 months: ${total} in all, ${
        counts.at(-1)
      } this month.`,
    };
  }, [data]);
  const requests = useMemo(() => {
    if (!data) return null;
    const { today, yesterday } = data.apiRequestsPerHour;
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    return {
      kind: "line" as const,
      labelHeading: "Hour (UTC)",
      labels: HOUR_LABELS,
      series: [{ label: "Today", values: today }, { label: "Yesterday", values: yesterday }],
      summary: `API requests per hour (UTC): ${sum(today)} today, ${sum(yesterday)} yesterday.`,
    };
  }, [data]);
  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
      <ChartCard title="Registrations per Month" failed={charts.isError} chart={registrations} />
      <ChartCard title="API Requests per Hour" failed={charts.isError} chart={requests} />
    </div>
  );
}

const ALERT_TONES: Record<AlertTone, string> = {
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  error: "border-red-300 bg-red-50 text-red-900",
  ok: "border-green-300 bg-green-50 text-green-900",
};

const count = (value: number | undefined) => (value === undefined ? "—" : value.toLocaleString());

function StatCards() {
  const stats = useDashboardStats();
  const trends = useDashboardTrends();
  if (stats.isLoading) {
    return (
      <StatGrid
        role="status"
        aria-label="Loading statistics"
        data-testid="stat-skeletons"
      >
        {Array.from({ length: SKELETON_CARDS }, (_, i) => (
          <Card key={i}>
            <div className="space-y-3 p-5">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-7 w-20" />
              <Skeleton className="h-3 w-24" />
            </div>
          </Card>
        ))}
      </StatGrid>
    );
  }
  const data = stats.data;
  const trend = trends.data;
  // A trend is shown only once both of its figures are known, so it never disagrees with the count.
  const growth = (added: number | undefined) => (added === undefined ? undefined : monthlyGrowthText(added));
  return (
    <StatGrid data-testid="stat-cards">
      <StatCard
        label="Registered Institutions"
        value={count(data?.totalInstitutions)}
        hint={growth(data?.monthlyInstitutionGrowth)}
      />
      <StatCard
        label="Active Routing Codes"
        value={count(data?.activeRoutingCodes)}
        hint={growth(data?.monthlyRoutingCodeGrowth)}
      />
      <StatCard
        label="SWIFT Participants"
        value={count(data?.swiftParticipants)}
        hint={growth(trend?.monthlySwiftParticipantGrowth)}
      />
      <StatCard
        label="API Requests Today"
        value={count(data?.todayApiRequests)}
        hint={data && trend
          ? versusYesterdayText(data.todayApiRequests, trend.yesterdayApiRequestsSameTime)
          : undefined}
      />
    </StatGrid>
  );
}

function RecentRegistrations() {
  const recent = useRecentRegistrations();
  const rows = recent.data ?? [];
  return (
    <Card>
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <CardTitle>Recent Institution Registrations</CardTitle>
          <Link to="/institutions" className={LINK_BUTTON}>View All</Link>
        </div>
      </CardHeader>
      <CardContent>
        <Table label="Recent institution registrations">
          <THead>
            <tr>
              <Th>Institution</Th>
              <Th>Type</Th>
              <Th>Registration Number</Th>
              <Th>Status</Th>
              <Th>Date</Th>
            </tr>
          </THead>
          <TBody>
            {recent.isLoading &&
              Array.from(
                { length: SKELETON_ROWS },
                (_, row) => (
                  <Tr key={row} data-testid="recent-skeleton-row">
                    {Array.from({ length: RECENT_COLUMNS }, (_, cell) => (
                      <Td key={cell}>
                        <Skeleton className="h-4 w-full" />
                      </Td>
                    ))}
                  </Tr>
                ),
              )}
            {rows.map((institution) => (
              <Tr key={institution.id}>
                <Td>
                  <InstitutionLink id={institution.id} name={institution.name} />
                  <p className="text-xs text-slate-600">{branchLabel(institution.numberOfBranches)}</p>
                </Td>
                <Td>{titleCase(institution.type)}</Td>
                <Td className="font-mono text-xs">{institution.registrationNumber}</Td>
                <Td>
                  <StatusBadge status={institution.status} />
                </Td>
                <Td>{formatDate(institution.createdAt)}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
        {recent.isSuccess && rows.length === 0 && (
          <EmptyState
            title="No recent registrations"
            text="New institution registrations will appear here."
          />
        )}
        <QueryFailed query={recent} message="Failed to load recent registrations." />
      </CardContent>
    </Card>
  );
}

function QuickActions() {
  const openNewInstitution = useSetAtom(newInstitutionDialogOpenAtom);
  return (
    <TitledCard title="Quick Actions" contentClassName="space-y-2">
      <IfAllowed method="POST" path="/api/institutions">
        <Button className="w-full justify-start" onClick={() => openNewInstitution(true)}>
          Register New Bank
        </Button>
      </IfAllowed>
      <Link to="/routing-codes" className={`${LINK_BUTTON} w-full`}>Assign Routing Code</Link>
      <Link to="/iban-validation" className={`${LINK_BUTTON} w-full`}>Validate IBAN</Link>
      <Link to="/reports" className={`${LINK_BUTTON} w-full`}>Generate Report</Link>
    </TitledCard>
  );
}

function SystemAlerts() {
  const alerts = useDashboardAlerts();
  return (
    <TitledCard title="System Alerts">
      {alerts.isLoading && <Skeleton className="h-14 w-full" />}
      <QueryFailed query={alerts} message="Failed to load system alerts." />
      <ul className="space-y-2" data-testid="system-alerts">
        {alerts.data?.alerts.map((alert) => (
          <li key={alert.id} className={`rounded-md border p-3 ${ALERT_TONES[alert.tone]}`}>
            <p className="text-sm font-semibold">{alert.title}</p>
            <p className="text-xs">{alert.text}</p>
          </li>
        ))}
      </ul>
    </TitledCard>
  );
}

export default function DashboardPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Dashboard" subtitle="Central Bank Registry System Overview" />
      <StatCards />
      <ActivityCharts />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
        <div className="xl:col-span-2">
          <RecentRegistrations />
        </div>
        <div className="space-y-6">
          <QuickActions />
          <SystemAlerts />
          <CodeLookup />
        </div>
      </div>
    </div>
  );
}
