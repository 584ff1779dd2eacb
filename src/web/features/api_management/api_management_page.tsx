/**
 * Spec 2.14: API Management. Figures from the request log, and tabs for the documented endpoints,
 * the API keys, the request log, the webhooks that tell downstream systems of changes, and the
 * developer documentation.
 */
import { PageHeader } from "../../components/layout/page_header.tsx";
import { StatCard, StatGrid } from "../../components/ui/card.tsx";
import { Tabs } from "../../components/ui/tabs.tsx";
import { DocsTab } from "./docs_tab.tsx";
import { EndpointsTab } from "./endpoints_tab.tsx";
import { KeysTab } from "./keys_tab.tsx";
import { LogsTab } from "./logs_tab.tsx";
import { TrafficCharts } from "./traffic_charts.tsx";
import { WebhooksTab } from "./webhooks_tab.tsx";
import { useApiLogStats } from "./api.ts";
import type { ApiLogStats } from "./types.ts";
import { useMayCall } from "../../lib/auth.ts";

function latency(ms: number | null): string {
  if (ms === null) return "—";
  return ms < 1 ? "< 1 ms" : `${ms} ms`;
}

export default function ApiManagementPage() {
  const mayManageKeys = useMayCall("GET", "/api/api-keys");
  const mayReadLogs = useMayCall("GET", "/api/api-logs");
  const mayManageWebhooks = useMayCall("GET", "/api/webhooks");
  const stats = useApiLogStats(mayReadLogs);
  const figure = (value: (s: ApiLogStats) => string | number) =>
    stats.data ? value(stats.data) : stats.isError || !mayReadLogs ? "—" : "…";
  return (
    <>
      <PageHeader
        title="API Management"
        subtitle="Public lookup API: endpoints, keys, request log and documentation"
      />
      <StatGrid className="mb-6">
        <StatCard
          label="Requests Today"
          value={figure((s) => s.requestsToday.toLocaleString("en-US"))}
          hint="Since midnight UTC"
        />
        <StatCard
          label="Error Rate"
          value={figure((s) => `${s.errorRatePercent.toFixed(1)}%`)}
          hint={stats.data
            ? `${stats.data.errorsToday.toLocaleString("en-US")} answered 4xx or 5xx`
            : undefined}
        />
        <StatCard
          label="Median Latency"
          value={figure((s) => latency(s.medianLatencyMs))}
          hint="Today's requests"
        />
        <StatCard
          label="Active Keys"
          value={figure((s) => s.activeKeys)}
          hint="Neither revoked nor expired"
        />
      </StatGrid>
      {mayReadLogs && <TrafficCharts />}
      <Tabs
        label="API management sections" urlParam="tab"
        tabs={[
          { id: "endpoints", label: "Endpoints", content: <EndpointsTab /> },
          ...(mayManageKeys ? [{ id: "keys", label: "Keys", content: <KeysTab /> }] : []),
          ...(mayReadLogs ? [{ id: "logs", label: "Logs", content: <LogsTab /> }] : []),
          ...(mayManageWebhooks ? [{ id: "webhooks", label: "Webhooks", content: <WebhooksTab /> }] : []),
          { id: "docs", label: "Docs", content: <DocsTab /> },
        ]}
      />
    </>
  );
}
