/**
 * Balance Sweep Management charts: each currency's ledger and liquid totals at each
 * day's close, and sweeps per day, over the last 30 days. The server aggregates; Chart.js, loaded
 * only here, draws; each chart has its figures as a table.
 */
import { formatCurrency } from "../../lib/format.ts";
import { useMemo, useState } from "react";
import { inputClassName } from "../../components/ui/form.tsx";
import { type SweepCharts as SweepChartData, useSweepCharts } from "./api.ts";
import { ChartCard } from "../../components/charts/chart_card.tsx";


const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

/** Drawing only: the exact decimal strings stay in the table's source; the canvas needs numbers. */
const toDrawable = (amount: string) => Number(amount);

function CurrencyChoice({ currencies, value, onChange }: {
  currencies: string[];
  value: string | undefined;
  onChange: (currency: string) => void;
}) {
  return (
    <select
      aria-label="Currency"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      className={`${inputClassName} sm:w-32`}
    >
      {currencies.map((currency) => <option key={currency} value={currency}>{currency}</option>)}
    </select>
  );
}

/** The chosen currency's ledger and liquid totals as chart series, and its money format. */
function useLiquidity(data: SweepChartData | undefined, currency: string | null) {
  const selected = data?.liquidity.find((entry) => entry.currency === currency) ?? data?.liquidity[0];
  const series = useMemo(() =>
    selected
      ? [
        { label: "Ledger", values: selected.ledger.map(toDrawable) },
        { label: "Liquid", values: selected.liquid.map(toDrawable) },
      ]
      : [], [selected]);
  const money = useMemo(() => {
    const currency = selected?.currency ?? "USD";
    return (value: number) => formatCurrency(value, currency);
  }, [selected]);
  return { selected, series, money };
}

export function SweepCharts() {
  const charts = useSweepCharts();
  const [currency, setCurrency] = useState<string | null>(null);
  const data = charts.data;
  const labels = useMemo(() => data?.days.map(dayLabel) ?? [], [data]);
  const { selected, series, money } = useLiquidity(data, currency);
  const sweepSeries = useMemo(() => [{ label: "Sweeps", values: data?.sweepsPerDay ?? [] }], [data]);
  const totalSweeps = data?.sweepsPerDay.reduce((sum, count) => sum + count, 0) ?? 0;
  return (
    <div className="mb-6 grid grid-cols-1 gap-6 xl:grid-cols-2">
      <ChartCard
        title="Liquidity, Last 30 Days"
        headerClassName="sm:flex-row sm:items-center sm:justify-between"
        action={data && data.liquidity.length > 1 && (
          <CurrencyChoice
            currencies={data.liquidity.map((entry) => entry.currency)}
            value={selected?.currency}
            onChange={setCurrency}
          />
        )}
        failed={charts.isError}
        empty={!selected ? <p className="text-sm text-slate-600">No ledger or liquid accounts yet.</p> : undefined}
        chart={data
          ? {
            kind: "line",
            labelHeading: "Day (UTC)",
            labels,
            series,
            format: money,
            summary: selected
              ? `${selected.currency} ledger and liquid totals at each day's close over the last 30 days: today ${
                money(toDrawable(selected.ledger.at(-1) ?? "0"))
              } ledger, ${money(toDrawable(selected.liquid.at(-1) ?? "0"))} liquid.`
              : "",
          }
          : null}
      />
      <ChartCard
        title="Sweeps per Day"
        failed={charts.isError}
        chart={data
          ? {
            kind: "bar",
            labelHeading: "Day (UTC)",
            labels,
            series: sweepSeries,
            summary: `Sweeps per day over the last 30 days: ${totalSweeps} in all, ${data.sweepsPerDay.at(-1)} today.`,
          }
          : null}
      />
    </div>
  );
}
