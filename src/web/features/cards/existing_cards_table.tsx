/** Spec 2.12 Existing Cards: masked number, holder, status badge, brand and type, limits, balance. */
import { useQuery } from "@tanstack/react-query";
import { Badge } from "../../components/ui/badge.tsx";
import { EmptyState, SkeletonRows, TBody, THead, Table, Td, Th, Tr } from "../../components/ui/table.tsx";
import { formatCurrency, titleCase } from "../../lib/format.ts";
import { type CardItem, CARDS_KEY } from "./types.ts";

const LOADING_ROWS = 5;
const COLUMN_COUNT = 7;

export function ExistingCardsTable() {
  const { data, isLoading, isError } = useQuery<CardItem[]>({ queryKey: [CARDS_KEY] });
  if (isError) return <EmptyState title="The cards could not be loaded" text="Reload the page to try again." />;
  if (!isLoading && (data ?? []).length === 0) {
    return <EmptyState title="No cards issued yet" text="Issued and distributed cards will appear here." />;
  }
  return (
    <Table label="Existing cards">
      <THead>
        <Tr>
          <Th>Card Number</Th>
          <Th>Cardholder</Th>
          <Th>Status</Th>
          <Th>Brand / Type</Th>
          <Th className="text-right">Daily Limit</Th>
          <Th className="text-right">Spending Limit</Th>
          <Th className="text-right">Balance</Th>
        </Tr>
      </THead>
      <TBody>
        {isLoading
          ? <SkeletonRows rows={LOADING_ROWS} columns={COLUMN_COUNT} />
          : (data ?? []).map((card) => (
            <Tr key={card.id}>
              <Td className="font-mono">{card.cardNumber}</Td>
              <Td>
                <div className="font-medium text-slate-900">{card.cardholderName}</div>
                {card.cardholderEmail && <div className="text-xs text-slate-600">{card.cardholderEmail}</div>}
              </Td>
              <Td>
                <Badge variant={card.cardStatus === "active" ? "default" : "secondary"}>{card.cardStatus}</Badge>
              </Td>
              <Td>{card.cardBrand.toUpperCase()} {titleCase(card.cardType)}</Td>
              <Td className="text-right">{formatCurrency(card.dailyLimit ?? 0)}</Td>
              <Td className="text-right">{formatCurrency(card.spendingLimit ?? 0)}</Td>
              <Td className="text-right font-medium" data-testid="card-balance">{formatCurrency(card.currentBalance ?? 0)}</Td>
            </Tr>
          ))}
      </TBody>
    </Table>
  );
}
