/**
 * The registry screens' shared parts: counters over the loaded rows, and the registry card (a
 * title with an optional search box, and the table with its three empty states).
 */
import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle, StatCard, StatGrid } from "./ui/card.tsx";
import { type ColumnDef, DataTable, type FilterDef } from "./ui/data_table.tsx";
import { inputClassName } from "./ui/form.tsx";
import type { LoadFailure } from "./ui/load_failed.tsx";

/** Whether an ISO instant falls in the same local calendar month as `now`. */
export function isInMonthOf(iso: string, now: Date): boolean {
  const date = new Date(iso);
  return date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth();
}

/** Whether any of a row's texts contains the search, ignoring case; a blank search matches all. */
export function matchesSearch(values: readonly (string | null | undefined)[], search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === "") return true;
  return values.some((value) => value?.toLowerCase().includes(needle));
}

/** Four counters, each "…" while the rows load. */
export function CountCards({ isLoading, counts }: { isLoading: boolean; counts: [label: string, value: number][] }) {
  return (
    <StatGrid className="mb-6">
      {counts.map(([label, value]) => <StatCard key={label} label={label} value={isLoading ? "…" : value} />)}
    </StatGrid>
  );
}

export function RegistryCard<T extends { id: string }>(
  { title, search, label, columns, rows, total, isLoading, failure, filters, none, noMatch }: {
    title: string;
    search?: { label: string; placeholder: string; value: string; onChange: (value: string) => void };
    label: string;
    columns: ColumnDef<T>[];
    rows: T[];
    /** Rows loaded before the search and filters. */
    total: number;
    isLoading: boolean;
    /** Set when the rows could not be loaded (loadFailure). */
    failure: LoadFailure | null;
    filters?: readonly FilterDef[];
    none: ReactNode;
    noMatch: ReactNode;
  },
) {
  return (
    <Card>
      <CardHeader className={search ? "sm:flex-row sm:items-center sm:justify-between" : undefined}>
        <CardTitle>{title}</CardTitle>
        {search && (
          <input
            type="search"
            aria-label={search.label}
            placeholder={search.placeholder}
            value={search.value}
            onChange={(event) => search.onChange(event.target.value)}
            className={`${inputClassName} sm:max-w-xs`}
          />
        )}
      </CardHeader>
      <CardContent>
        <DataTable
          label={label}
          columns={columns}
          rows={rows}
          isLoading={isLoading}
          filters={filters}
          failure={failure}
          empty={total === 0 ? none : noMatch}
        />
      </CardContent>
    </Card>
  );
}
