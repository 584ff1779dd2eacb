/**
 * A chart drawn by Chart.js (only the parts used are registered, so the rest is tree-shaken) from
 * figures the server aggregated. Loaded with React.lazy by the screens that draw charts, so the
 * library never weighs on the initial bundle. Each chart carries its text alternative: the canvas
 * is an image named by `summary`, and the same figures follow as a table.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from "chart.js";
import { type RefObject, useEffect, useId, useRef } from "react";

Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Tooltip,
  Legend,
);

/** Colours with at least 3:1 contrast on white, told apart by the legend and the table too. */
const SERIES_COLORS = ["#1e40af", "#b45309", "#047857", "#7c3aed", "#be123c", "#0e7490"];

export interface ChartSeries {
  label: string;
  values: readonly number[];
}

export interface ChartProps {
  kind: "bar" | "line";
  /** The accessible name of the chart image: what it shows and its headline figures. */
  summary: string;
  labels: readonly string[];
  series: readonly ChartSeries[];
  /** The table alternative's first column heading, e.g. "Month". */
  labelHeading: string;
  /** Formats a value for the axis, tooltips and the table; plain numbers by default. */
  format?: (value: number) => string;
}

/** Draws the chart on the canvas and redraws it when the figures change. */
function useChart(
  canvas: RefObject<HTMLCanvasElement | null>,
  { kind, labels, series }: Pick<ChartProps, "kind" | "labels" | "series">,
  show: (value: number) => string,
) {
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: kind,
      data: {
        labels: [...labels],
        datasets: series.map((entry, index) => ({
          label: entry.label,
          data: [...entry.values],
          backgroundColor: SERIES_COLORS[index % SERIES_COLORS.length],
          borderColor: SERIES_COLORS[index % SERIES_COLORS.length],
          borderWidth: kind === "line" ? 2 : 0,
          pointRadius: kind === "line" ? 2 : undefined,
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: {
          legend: { display: series.length > 1, position: "bottom" },
          tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${show(Number(item.raw))}` } },
        },
        scales: { y: { beginAtZero: true, ticks: { callback: (value) => show(Number(value)) } } },
      },
    });
    return () => chart.destroy();
  }, [kind, labels, series]);
}

/** The chart's figures as a table, the alternative to the image. */
function FiguresTable({ id, summary, labels, series, labelHeading, show }: Omit<ChartProps, "kind" | "format"> & {
  id: string;
  show: (value: number) => string;
}) {
  return (
    <table id={id} className="w-full text-xs">
      <caption className="sr-only">{summary}</caption>
      <thead>
        <tr>
          <th scope="col" className="px-2 py-1 text-left font-semibold text-slate-700">
            {labelHeading}
          </th>
          {series.map((entry) => (
            <th
              key={entry.label}
              scope="col"
              className="px-2 py-1 text-right font-semibold text-slate-700"
            >
              {entry.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {labels.map((label, row) => (
          <tr key={label}>
            <th scope="row" className="px-2 py-1 text-left font-normal text-slate-800">{label}</th>
            {series.map((entry) => (
              <td key={entry.label} className="px-2 py-1 text-right tabular-nums text-slate-800">
                {show(entry.values[row] ?? 0)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function ChartView(props: ChartProps) {
  const { summary, format } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  const tableId = useId();
  const show = format ?? ((value: number) => value.toLocaleString("en-US"));
  useChart(canvas, props, show);

  return (
    <figure className="space-y-2">
      <div className="relative h-56 w-full">
        <canvas ref={canvas} role="img" aria-label={summary} aria-describedby={tableId} />
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-slate-700 hover:text-slate-900">
          Show the figures as a table
        </summary>
        <div
          className="mt-2 max-h-64 overflow-auto"
          tabIndex={0}
          role="region"
          aria-label={`${summary}: figures`}
        >
          <FiguresTable id={tableId} {...props} show={show} />
        </div>
      </details>
    </figure>
  );
}
