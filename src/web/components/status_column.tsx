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
