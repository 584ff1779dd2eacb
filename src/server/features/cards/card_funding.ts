/**
 * Loading a card from a funding source: the source's ledger balance goes down through `moveBalance`
 * (which refuses to go negative and journals the move), the card's balance goes up by the same
 * amount, and a `card_loads` row ties the two together, with the ledger side's audit row. Funding
 * its maker does alone counts towards the maker's day total and the source's day outflow first
 * (ledger/movement_limits.ts), which may refuse it with `ApprovalRequired`.
 */
import { eq } from "drizzle-orm";
import { cardLoads, cards, ledgerAccounts } from "../../../../db/schema.ts";
import { formatMoney } from "../../../domain/money.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import type { Tx } from "../../db/database.ts";
import { AppError } from "../../http/errors.ts";
import { moveBalance } from "../ledger/journal.ts";
import { countMovement, type MovementControl } from "../ledger/movement_limits.ts";
import { CARD_CURRENCY, FUNDING_SOURCE_ACCOUNTS, type FundingSource } from "./funding_sources.ts";

/** decimal(15,2), as every money column. */
export const MAX_CARD_BALANCE_MINOR = 999_999_999_999_999;

type CardRow = typeof cards.$inferSelect;

export interface FundingConfirmation {
  id: string;
  amount: string;
  currency: string;
  fundingSource: FundingSource;
  fundingSourceLabel: string;
  sourceAccountNumber: string;
  ledgerEntryId: string;
  cardBalanceBefore: string;
  cardBalanceAfter: string;
  fundedAt: string;
}

export const money = (minor: number) => formatMoney(BigInt(minor));

/** The funding source's ledger account, refused unless it exists, is active and holds the card currency. */
async function fundingAccount(tx: Tx, source: (typeof FUNDING_SOURCE_ACCOUNTS)[FundingSource]) {
  const account = await tx.select().from(ledgerAccounts)
    .where(eq(ledgerAccounts.accountNumber, source.accountNumber)).get();
  if (!account) {
    throw new AppError("unprocessable", `Funding source ${source.label} has no ledger account`, {
      extra: { reason: "funding_source_missing" },
    });
  }
  if (account.accountStatus !== "active") {
    throw new AppError("unprocessable", `Funding source ${source.label} is ${account.accountStatus}`, {
      extra: { reason: "inactive_account" },
    });
  }
  if (account.currency !== CARD_CURRENCY) {
    throw new AppError("unprocessable", `Funding source ${source.label} does not hold ${CARD_CURRENCY}`, {
      extra: { reason: "currency_mismatch" },
    });
  }
  return account;
}

/** The card's balance once funded, refused above what a money column holds. */
function cardBalanceAfter(card: CardRow, amountMinor: number): number {
  const after = card.currentBalanceMinor + amountMinor;
  if (after > MAX_CARD_BALANCE_MINOR) {
    throw new AppError("unprocessable", "The card balance would exceed 9999999999999.99", {
      extra: { reason: "balance_limit_exceeded" },
    });
  }
  return after;
}

/** How a card is funded: from which source, for what, and whether its maker does it alone. */
export interface Funding {
  amountMinor: number;
  fundingSource: FundingSource;
  reason: "issue" | "distribute" | "load";
  control: MovementControl;
  /** When it is made, by the app's clock: the day the movement limits count it in. */
  atMs: number;
}

/** Moves the funding's amount from the funding source's ledger account onto the card. */
export async function fundCard(
  tx: Tx,
  actor: Actor,
  card: CardRow,
  funding: Funding,
): Promise<FundingConfirmation> {
  const { amountMinor, fundingSource, reason } = funding;
  const source = FUNDING_SOURCE_ACCOUNTS[fundingSource];
  const account = await fundingAccount(tx, source);
  const cardBalanceAfterMinor = cardBalanceAfter(card, amountMinor);
  await countMovement(tx, funding.control, {
    makerId: actor.userId,
    currency: CARD_CURRENCY,
    amountMinor: BigInt(amountMinor),
    sourceAccountId: account.id,
    atMs: funding.atMs,
  });
  const move = await moveBalance(tx, {
    accountId: account.id,
    amountMinor: -amountMinor,
    entryType: "card_funding",
    referenceType: "card",
    referenceId: card.id,
    performedBy: actor.userId,
  });
  const now = new Date().toISOString();
  await tx.update(cards).set({ currentBalanceMinor: cardBalanceAfterMinor, updatedAt: now })
    .where(eq(cards.id, card.id));
  const loadId = crypto.randomUUID();
  await tx.insert(cardLoads).values({
    id: loadId,
    cardId: card.id,
    amountMinor,
    fundingSource,
    sourceAccountId: account.id,
    ledgerEntryId: move.entryId,
    reason,
    cardBalanceBeforeMinor: card.currentBalanceMinor,
    cardBalanceAfterMinor,
    createdAt: now,
    createdBy: actor.userId,
  });
  await recordAudit(tx, actor, {
    entityType: "ledger_account",
    entityId: account.id,
    action: "card_funding",
    changes: {
      before: { currentBalance: money(move.balanceBeforeMinor) },
      after: { currentBalance: money(move.balanceAfterMinor) },
      amount: money(amountMinor),
      cardId: card.id,
      cardNumber: card.cardNumberMasked,
      ledgerEntryId: move.entryId,
      cardLoadId: loadId,
    },
  });
  return {
    id: loadId,
    amount: money(amountMinor),
    currency: CARD_CURRENCY,
    fundingSource,
    fundingSourceLabel: source.label,
    sourceAccountNumber: source.accountNumber,
    ledgerEntryId: move.entryId,
    cardBalanceBefore: money(card.currentBalanceMinor),
    cardBalanceAfter: money(cardBalanceAfterMinor),
    fundedAt: now,
  };
}
