/**
 * Balance Sweep Management charts: each currency's ledger and liquid totals at each
 * day's close, and sweeps per day, over the last 30 days. The server aggregates; Chart.js, loaded
 * only here, draws; each chart has its figures as a table.
 */
import { lazy, Suspense, useMemo, useState } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { inputClassName } from "../../components/ui/form.tsx";
import { Skeleton } from "../../components/ui/spinner.tsx";
import { useSweepCharts } from "./api.ts";

const ChartView = lazy(() => import("../../components/charts/chart.tsx"));

const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

/** Drawing only: the exact decimal strings stay in the table's source; the canvas needs numbers. */
const toDrawable = (amount: string) => Number(amount);

export function SweepCharts() {
  const charts = useSweepCharts();
  const [currency, setCurrency] = useState<string | null>(null);
  const data = charts.data;
  const labels = useMemo(() => data?.days.map(dayLabel) ?? [], [data]);
  const selected = data?.liquidity.find((entry) => entry.currency === currency) ?? data?.liquidity[0];
  const liquiditySeries = useMemo(() =>
    selected
      ? [
        { label: "Ledger", values: selected.ledger.map(toDrawable) },
        { label: "Liquid", values: selected.liquid.map(toDrawable) },
      ]
      : [], [selected]);
  const sweepSeries = useMemo(() => [{ label: "Sweeps", values: data?.sweepsPerDay ?? [] }], [data]);
  const money = useMemo(() => {
    const formatter = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: selected?.currency ?? "USD",
    });
    return (value: number) => formatter.format(value);
  }, [selected]);

  const loading = <Skeleton className="h-56 w-full" />;
  const failed = <p role="alert" className="text-sm text-red-700">Failed to load the chart.</p>;
  const totalSweeps = data?.sweepsPerDay.reduce((sum, count) => sum + count, 0) ?? 0;
  return (
    <div className="mb-6 grid grid-cols-1 gap-6 xl:grid-cols-2">
      <Card>
        <CardHeader className="sm:flex-row sm:items-center sm:justify-between">
          <CardTitle>Liquidity, Last 30 Days</CardTitle>
          {data && data.liquidity.length > 1 && (
            <select
              aria-label="Currency"
              value={selected?.currency}
              onChange={(event) => setCurrency(event.target.value)}
              className={`${inputClassName} sm:w-32`}
            >
              {data.liquidity.map((entry) => (
                <option key={entry.currency} value={entry.currency}>{entry.currency}</option>
              ))}
            </select>
          )}
        </CardHeader>
        <CardContent>
          {charts.isError
            ? failed
            : !data
            ? loading
            : !selected
            ? <p className="text-sm text-slate-600">No ledger or liquid accounts yet.</p>
            : (
              <Suspense fallback={loading}>
                <ChartView
                  kind="line"
                  labelHeading="Day (UTC)"
                  labels={labels}
                  series={liquiditySeries}
                  format={money}
                  summary={`${selected.currency} ledger and liquid totals at each day's close over the last 30 days: today ${
                    money(toDrawable(selected.ledger.at(-1) ?? "0"))
                  } ledger, ${money(toDrawable(selected.liquid.at(-1) ?? "0"))} liquid.`}
                />
              </Suspense>
            )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Sweeps per Day</CardTitle>
        </CardHeader>
        <CardContent>
          {charts.isError ? failed : !data ? loading : (
            <Suspense fallback={loading}>
              <ChartView
                kind="bar"
                labelHeading="Day (UTC)"
                labels={labels}
                series={sweepSeries}
                summary={`Sweeps per day over the last 30 days: ${totalSweeps} in all, ${
                  data.sweepsPerDay.at(-1)
                } today.`}
              />
            </Suspense>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
