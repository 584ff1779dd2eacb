/**
 * API Management charts: requests and error rate per UTC hour per key over the last
 * 24 hours. The server aggregates (GET /api/api-logs/charts); Chart.js, loaded only here, draws.
 */
import { lazy, type ReactElement, Suspense, useMemo } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Skeleton } from "../../components/ui/spinner.tsx";
import { useApiLogCharts } from "./api.ts";

const ChartView = lazy(() => import("../../components/charts/chart.tsx"));

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

  const loading = <Skeleton className="h-56 w-full" />;
  const content = (chart: () => ReactElement) =>
    charts.isError
      ? <p role="alert" className="text-sm text-red-700">Failed to load the chart.</p>
      : !data
      ? loading
      : data.keys.length === 0
      ? <p className="text-sm text-slate-600">No requests in the last 24 hours.</p>
      : <Suspense fallback={loading}>{chart()}</Suspense>;
  return (
    <div className="mb-6 grid grid-cols-1 gap-6 xl:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>Requests per Hour by Key</CardTitle>
        </CardHeader>
        <CardContent>
          {content(() => (
            <ChartView
              kind="line"
              labelHeading="Hour (UTC)"
              labels={labels}
              series={requestSeries}
              summary={`API requests per hour by key over the last 24 hours: ${total} in all.`}
            />
          ))}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Error Rate per Hour by Key</CardTitle>
        </CardHeader>
        <CardContent>
          {content(() => (
            <ChartView
              kind="line"
              labelHeading="Hour (UTC)"
              labels={labels}
              series={errorSeries}
              format={percent}
              summary={`Share of requests answered 4xx or 5xx per hour by key over the last 24 hours: ${errors} of ${total} in all.`}
            />
          ))}
        </CardContent>
      </Card>
    </div>
  );
}
