/**
 * A card holding one chart: a message when its data failed to load, a skeleton while it loads, a
 * note when there is nothing to draw, else the chart. Chart.js loads only when a chart draws.
 */
import { lazy, type ReactNode, Suspense } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card.tsx";
import { Skeleton } from "../ui/spinner.tsx";
import type { ChartProps } from "./chart.tsx";

const ChartView = lazy(() => import("./chart.tsx"));

export function ChartCard({ title, failed, chart, empty, headerClassName, action }: {
  title: string;
  failed: boolean;
  /** Null while the data loads. */
  chart: ChartProps | null;
  /** Shown instead of the chart when the loaded data has nothing to draw. */
  empty?: ReactNode;
  headerClassName?: string;
  /** A control beside the title, e.g. a currency choice. */
  action?: ReactNode;
}) {
  const loading = <Skeleton className="h-56 w-full" />;
  return (
    <Card>
      <CardHeader className={headerClassName}>
        <CardTitle>{title}</CardTitle>
        {action}
      </CardHeader>
      <CardContent>
        {failed
          ? <p role="alert" className="text-sm text-red-700">Failed to load the chart.</p>
          : !chart
          ? loading
          : empty ?? (
            <Suspense fallback={loading}>
              <ChartView {...chart} />
            </Suspense>
          )}
      </CardContent>
    </Card>
  );
}
