/** Spec 2.12 Existing Cards: masked number, holder, status badge, brand and type, limits, balance. */
import { Badge } from "../../components/ui/badge.tsx";
import { type ColumnDef, DataTable } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { formatCurrency, titleCase } from "../../lib/format.ts";
import { type CardItem } from "./types.ts";
import { useCards } from "./api.ts";
import { loadFailure } from "../../components/ui/load_failed.tsx";

const COLUMNS: ColumnDef<CardItem>[] = [
  { accessorKey: "cardNumber", header: "Card Number", enableSorting: false, meta: { cellClassName: "font-mono" } },
  {
    accessorKey: "cardholderName",
    header: "Cardholder",
    cell: ({ row }) => (
      <>
        <div className="font-medium text-slate-900">{row.original.cardholderName}</div>
        {row.original.cardholderEmail && <div className="text-xs text-slate-600">{row.original.cardholderEmail}</div>}
      </>
    ),
  },
  {
    accessorKey: "cardStatus",
    header: "Status",
    cell: ({ row }) => (
      <Badge variant={row.original.cardStatus === "active" ? "default" : "secondary"}>{row.original.cardStatus}</Badge>
    ),
  },
  {
    id: "brandType",
    header: "Brand / Type",
    accessorFn: (card) => `${card.cardBrand.toUpperCase()} ${titleCase(card.cardType)}`,
  },
  {
    id: "dailyLimit",
    header: "Daily Limit",
    enableSorting: false,
    meta: { cellClassName: "text-right" },
    cell: ({ row }) => formatCurrency(row.original.dailyLimit ?? 0),
  },
  {
    id: "spendingLimit",
    header: "Spending Limit",
    enableSorting: false,
    meta: { cellClassName: "text-right" },
    cell: ({ row }) => formatCurrency(row.original.spendingLimit ?? 0),
  },
  {
    id: "balance",
    header: "Balance",
    enableSorting: false,
    meta: { cellClassName: "text-right font-medium" },
    cell: ({ row }) => <span data-testid="card-balance">{formatCurrency(row.original.currentBalance ?? 0)}</span>,
  },
];

export function ExistingCardsTable() {
  const query = useCards();
  const { data, isLoading } = query;
  return (
    <DataTable
      label="Existing cards"
      columns={COLUMNS}
      rows={data ?? []}
      isLoading={isLoading}
      failure={loadFailure(query, "The cards could not be loaded")}
      empty={<EmptyState title="No cards issued yet" text="Issued and distributed cards will appear here." />}
    />
  );
}
