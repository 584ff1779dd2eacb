/**
 * Cards: issue, distribute, load. The full card number exists in clear only between generation
 * and encryption inside `createCard`; rows keep its AES-256-GCM ciphertext, a keyed fingerprint for
 * uniqueness and the masked form, and only the masked form is ever returned or audited.
 *
 * Funding is double entry (card_funding.ts), in the same transaction as the card's own audit row.
 */
import { desc, eq, sql } from "drizzle-orm";
import { cards, ledgerAccounts } from "../../../../db/schema.ts";
import {
  type CardBrand,
  generateCardNumber,
  maskCardNumber,
} from "../../../domain/card.ts";
import { formatMoney } from "../../../domain/money.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import type { AppDeps } from "../../http/context.ts";
import type { Tx } from "../../db/database.ts";
import { AppError, notFound } from "../../http/errors.ts";
import { FUNDING_SOURCE_ACCOUNTS, type FundingSource } from "./funding_sources.ts";
import { type FundingConfirmation, fundCard, money } from "./card_funding.ts";
import type { MovementControl } from "../ledger/movement_limits.ts";
import {
  DEFAULT_DAILY_LIMIT,
  DEFAULT_SPENDING_LIMIT,
  type DistributeCardInput,
  type IssueCardInput,
  type LoadCardInput,
} from "./schemas.ts";

/** A fresh number collides with an existing one with odds of about n / 10^9; a few tries suffice. */
export const MAX_CARD_NUMBER_ATTEMPTS = 10;
/** The byte values 0..249 map evenly onto ten digits; 250..255 are redrawn to avoid modulo bias. */
const UNBIASED_BYTE_LIMIT = 250;

type CardRow = typeof cards.$inferSelect;

export interface CardDto {
  id: string;
  /** Always the masked form, e.g. "453201******0366". */
  cardNumber: string;
  cardholderName: string;
  cardholderEmail: string | null;
  cardStatus: CardRow["cardStatus"];
  cardBrand: CardRow["cardBrand"];
  cardType: CardRow["cardType"];
  distributionMethod: CardRow["distributionMethod"];
  spendingLimit: number;
  dailyLimit: number;
  currentBalance: string;
  createdAt: string;
  updatedAt: string;
}

export interface FundingSourceDto {
  fundingSource: FundingSource;
  label: string;
  accountNumber: string;
  accountName: string;
  accountType: string;
  currency: string;
  accountStatus: string;
  currentBalance: string;
  availableBalance: string;
}

export interface CardServiceOptions {
  issuerPrefixes: Readonly<Record<CardBrand, string>>;
  /** `count` uniformly random decimal digits; cryptographically secure outside tests. */
  randomDigits: (count: number) => string;
}

export function secureRandomDigits(count: number): string {
  let digits = "";
  const bytes = new Uint8Array(count * 2);
  while (digits.length < count) {
    crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      digits += String(byte % 10);
      if (digits.length === count) break;
    }
  }
  return digits;
}

function toCardDto(row: CardRow): CardDto {
  return {
    id: row.id,
    cardNumber: row.cardNumberMasked,
    cardholderName: row.cardholderName,
    cardholderEmail: row.cardholderEmail,
    cardStatus: row.cardStatus,
    cardBrand: row.cardBrand,
    cardType: row.cardType,
    distributionMethod: row.distributionMethod,
    spendingLimit: row.spendingLimit,
    dailyLimit: row.dailyLimit,
    currentBalance: formatMoney(BigInt(row.currentBalanceMinor)),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** What the audit trail keeps of a card: the DTO minus timestamps (the audit row has its own). */
function auditView(row: CardRow) {
  const { createdAt: _createdAt, updatedAt: _updatedAt, ...view } = toCardDto(row);
  return view;
}

interface NewCard {
  cardholderName: string;
  cardholderEmail: string | null;
  cardType: CardRow["cardType"];
  cardBrand: CardBrand;
  distributionMethod: CardRow["distributionMethod"];
  spendingLimit: number;
  dailyLimit: number;
}

/**
 * What the card operations share: the database, the secrets that seal card numbers, the issuer
 * settings, and the clock the movement limits' days are counted by.
 */
interface CardContext {
  db: AppDeps["db"];
  secrets: AppDeps["secrets"];
  clock: AppDeps["clock"];
  options: CardServiceOptions;
}

async function readCard(tx: Tx, id: string): Promise<CardRow> {
  const row = await tx.select().from(cards).where(eq(cards.id, id)).get();
  if (!row) throw new Error(`card ${id} vanished inside its own transaction`);
  return row;
}

async function uniqueCardNumber(ctx: CardContext, tx: Tx, brand: CardBrand) {
  for (let attempt = 0; attempt < MAX_CARD_NUMBER_ATTEMPTS; attempt++) {
    const cardNumber = generateCardNumber(ctx.options.issuerPrefixes[brand], ctx.options.randomDigits);
    const fingerprint = ctx.secrets.fingerprint(cardNumber);
    // The write transaction is exclusive, so nothing can take this number between check and insert;
    // the UNIQUE column stays the guarantee.
    const taken = await tx.select({ id: cards.id }).from(cards).where(eq(cards.cardNumberFingerprint, fingerprint))
      .get();
    if (!taken) return { cardNumber, fingerprint };
  }
  throw new AppError("internal", "Could not generate a unique card number; try again");
}

async function createCard(ctx: CardContext, tx: Tx, actor: Actor, card: NewCard): Promise<string> {
  const { cardNumber, fingerprint } = await uniqueCardNumber(ctx, tx, card.cardBrand);
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await tx.insert(cards).values({
    id,
    cardNumberEncrypted: await ctx.secrets.encrypt(cardNumber),
    cardNumberFingerprint: fingerprint,
    cardNumberMasked: maskCardNumber(cardNumber),
    ...card,
    cardStatus: "active",
    currentBalanceMinor: 0,
    createdAt: now,
    updatedAt: now,
    createdBy: actor.userId,
  });
  return id;
}

/** Creates a card, funds it from the treasury when `fundingMinor` > 0, and audits both. */
async function createFundedCard(
  ctx: CardContext,
  actor: Actor,
  card: NewCard,
  fundingMinor: number,
  action: "issue" | "distribute",
  control: MovementControl,
): Promise<CardDto & { fundingConfirmation?: FundingConfirmation }> {
  return await ctx.db.transaction(async (tx) => {
    const id = await createCard(ctx, tx, actor, card);
    const fundingConfirmation = fundingMinor > 0
      ? await fundCard(tx, actor, await readCard(tx, id), {
        amountMinor: fundingMinor,
        fundingSource: "central_bank_treasury",
        reason: action,
        control,
        atMs: ctx.clock.now(),
      })
      : undefined;
    const row = await readCard(tx, id);
    await recordAudit(tx, actor, {
      entityType: "card",
      entityId: id,
      action,
      changes: {
        before: null,
        after: auditView(row),
        ...(fundingConfirmation ? { funding: fundingConfirmation } : {}),
      },
    });
    return { ...toCardDto(row), ...(fundingConfirmation ? { fundingConfirmation } : {}) };
  });
}

async function listCards(db: AppDeps["db"], limit: number, offset: number): Promise<CardDto[]> {
  const rows = await db.read.select().from(cards)
    .orderBy(desc(cards.createdAt), sql`rowid DESC`).limit(limit).offset(offset);
  return rows.map(toCardDto);
}

async function fundingSources(db: AppDeps["db"]): Promise<FundingSourceDto[]> {
  const rows = await db.read.select().from(ledgerAccounts);
  const byNumber = new Map(rows.map((row) => [row.accountNumber, row]));
  return (Object.entries(FUNDING_SOURCE_ACCOUNTS) as [FundingSource, typeof FUNDING_SOURCE_ACCOUNTS[FundingSource]][])
    .flatMap(([fundingSource, source]) => {
      const account = byNumber.get(source.accountNumber);
      if (!account) return [];
      return [{
        fundingSource,
        label: source.label,
        accountNumber: account.accountNumber,
        accountName: account.accountName,
        accountType: account.accountType,
        currency: account.currency,
        accountStatus: account.accountStatus,
        currentBalance: money(account.currentBalanceMinor),
        availableBalance: money(account.availableBalanceMinor),
      }];
    });
}

/** Loads an active card from the chosen funding source, audited on the card as well as the ledger. */
async function loadCard(
  { db, clock }: CardContext,
  actor: Actor,
  cardId: string,
  input: LoadCardInput,
  control: MovementControl,
) {
  return await db.transaction(async (tx) => {
    const card = await tx.select().from(cards).where(eq(cards.id, cardId)).get();
    if (!card) throw notFound("Card");
    if (card.cardStatus !== "active") {
      throw new AppError("conflict", `Card is ${card.cardStatus} and cannot be loaded`, {
        extra: { reason: "card_inactive" },
      });
    }
    const loading = await fundCard(tx, actor, card, {
      amountMinor: input.amount,
      fundingSource: input.fundingSource,
      reason: "load",
      control,
      atMs: clock.now(),
    });
    const row = await readCard(tx, cardId);
    await recordAudit(tx, actor, {
      entityType: "card",
      entityId: cardId,
      action: "load",
      changes: {
        before: { currentBalance: money(card.currentBalanceMinor) },
        after: { currentBalance: money(row.currentBalanceMinor) },
        cardNumber: row.cardNumberMasked,
        loading,
      },
    });
    return { loading, card: toCardDto(row) };
  });
}

export function createCardService(deps: AppDeps, options: CardServiceOptions) {
  const { db } = deps;
  const ctx: CardContext = { db, secrets: deps.secrets, clock: deps.clock, options };
  return {
    list: (limit: number, offset: number) => listCards(db, limit, offset),

    fundingSources: () => fundingSources(db),

    /**
     * Each funded operation is its maker's alone unless `control` says a second person approved it
     * (or rehearses that): alone, it may throw `ApprovalRequired` and change nothing.
     */
    issue(actor: Actor, input: IssueCardInput, control: MovementControl = "alone") {
      return createFundedCard(ctx, actor, {
        cardholderName: input.cardholderName,
        cardholderEmail: null,
        cardType: input.cardType,
        cardBrand: input.cardBrand,
        distributionMethod: null,
        spendingLimit: input.spendingLimit,
        dailyLimit: input.dailyLimit,
      }, input.initialBalance, "issue", control);
    },

    /** A distributed card gets the issue form's default limits (spec 9); the distribute form sets none. */
    distribute(actor: Actor, input: DistributeCardInput, control: MovementControl = "alone") {
      return createFundedCard(ctx, actor, {
        cardholderName: input.recipientInfo.name,
        cardholderEmail: input.recipientInfo.email,
        cardType: input.cardType,
        cardBrand: input.cardBrand,
        distributionMethod: input.distributionMethod,
        spendingLimit: DEFAULT_SPENDING_LIMIT,
        dailyLimit: DEFAULT_DAILY_LIMIT,
      }, input.loadAmount, "distribute", control);
    },

    load: (actor: Actor, cardId: string, input: LoadCardInput, control: MovementControl = "alone") =>
      loadCard(ctx, actor, cardId, input, control),
  };
}

export type CardService = ReturnType<typeof createCardService>;
