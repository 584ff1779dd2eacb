/**
 * API Management charts: requests and error rate per UTC hour per key over the last
 * 24 hours. The server aggregates (GET /api/api-logs/charts); Chart.js, loaded only here, draws.
 */
import { useMemo } from "react";
import type { ChartProps, ChartSeries } from "../../components/charts/chart.tsx";
import { ChartCard } from "../../components/charts/chart_card.tsx";
import { useApiLogCharts } from "./api.ts";

const PERCENT = 100;
const percent = (value: number) => `${value.toFixed(1)}%`;

export function TrafficCharts() {
  const charts = useApiLogCharts();
  const data = charts.data;
  const labels = useMemo(() => data?.hours.map((hour) => `${hour.slice(11, 13)}:00`) ?? [], [data]);
  const requestSeries = useMemo(
    () => data?.keys.map((key) => ({ label: key.name, values: key.requests })) ?? [],
    [data],
  );
  const errorSeries = useMemo(() =>
    data?.keys.map((key) => ({
      label: key.name,
      values: key.requests.map((count, i) => (count === 0 ? 0 : (key.errors[i] / count) * PERCENT)),
    })) ?? [], [data]);
  const total = data?.keys.reduce((sum, key) => sum + key.requests.reduce((a, b) => a + b, 0), 0) ?? 0;
  const errors = data?.keys.reduce((sum, key) => sum + key.errors.reduce((a, b) => a + b, 0), 0) ?? 0;
  const empty = data?.keys.length === 0
    ? <p className="text-sm text-slate-600">No requests in the last 24 hours.</p>
    : undefined;
  /** An hourly line chart of the loaded data, or null while it loads. */
  const hourly = (series: ChartSeries[], summary: string, format?: (value: number) => string): ChartProps | null =>
    data ? { kind: "line", labelHeading: "Hour (UTC)", labels, series, summary, format } : null;
  return (
    <div className="mb-6 grid grid-cols-1 gap-6 xl:grid-cols-2">
      <ChartCard
        title="Requests per Hour by Key"
        failed={charts.isError}
        empty={empty}
        chart={hourly(requestSeries, `API requests per hour by key over the last 24 hours: ${total} in all.`)}
      />
      <ChartCard
        title="Error Rate per Hour by Key"
        failed={charts.isError}
        empty={empty}
        chart={hourly(
          errorSeries,
          `Share of requests answered 4xx or 5xx per hour by key over the last 24 hours: ${errors} of ${total} in all.`,
          percent,
        )}
      />
    </div>
  );
}
