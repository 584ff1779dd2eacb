/** Columns that several lists share, so that each list names them instead of spelling them out. */
import type { ReactNode } from "react";
import type { ColumnDef } from "./ui/data_table.tsx";
import { StatusBadge } from "./ui/badge.tsx";

type StatusKey<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T] & string;

/** The "Status" column of a list: the row's status as a badge; `filterable` lets a status filter match it exactly. */
export function statusColumn<T>(key: StatusKey<T>, filterable = false): ColumnDef<T> {
  return {
    accessorKey: key,
    header: "Status",
    ...(filterable ? { filterFn: "equals" as const } : {}),
    cell: ({ row }) => <StatusBadge status={row.original[key] as string} />,
  };
}

/** A row's buttons at its right end, under a header that only screen readers announce. */
export function actionsColumn<T>(
  cell: (row: T) => ReactNode,
  { id = "actions", header = "Actions" }: { id?: string; header?: string } = {},
): ColumnDef<T> {
  return {
    id,
    header,
    enableSorting: false,
    meta: { srOnlyHeader: true, cellClassName: "text-right" },
    cell: ({ row }) => cell(row.original),
  };
}

/** The "Account" column: an account's name above its number. */
export function accountColumn<T extends { accountName: string; accountNumber: string }>(): ColumnDef<T> {
  return {
    accessorKey: "accountName",
    header: "Account",
    cell: ({ row }) => (
      <>
        <div className="font-medium text-slate-900">{row.original.accountName}</div>
        <div className="font-mono text-xs text-slate-600">{row.original.accountNumber}</div>
      </>
    ),
  };
}
