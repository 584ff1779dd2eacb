/**
 * Ledger and liquid accounts. An account is created at zero and its opening balance is then
 * booked through the shared journal (`moveBalance`, entry type "opening"), so every unit of money
 * in the system has a recorded, audited origin that reconciliation can follow.
 */
import { desc, eq, sql } from "drizzle-orm";
import { institutions, ledgerAccounts, nationalRoutingRegistry } from "../../../../db/schema.ts";
import { formatCurrencyEnUs, formatMoney } from "../../../domain/money.ts";
import { type Actor, recordAudit, recordCreation } from "../../audit/trail.ts";
import type { Database, Queryable, Tx } from "../../db/database.ts";
import { AppError, conflict, notFound } from "../../http/errors.ts";
import { moveBalance } from "./journal.ts";
import { assertMayActAlone, type GrantOrigin } from "../../auth/role_grants.ts";
import { grantNote } from "../../auth/users.ts";
import { administrationDraft, type RequestDraft } from "../approvals/four_eyes.ts";
import type { CreateAccountInput } from "./schemas.ts";

type AccountRow = typeof ledgerAccounts.$inferSelect;

/** The API view of an account: money as decimal strings, never floats. */
export interface AccountDto {
  id: string;
  accountNumber: string;
  accountType: AccountRow["accountType"];
  institutionId: string | null;
  nationalRoutingId: string | null;
  accountName: string;
  currency: AccountRow["currency"];
  currentBalance: string;
  availableBalance: string;
  accountStatus: AccountRow["accountStatus"];
  lastSweepDate: string | null;
  sweepThreshold: string | null;
  targetLiquidAccount: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
  /** Set by administrators; a movement taking the account's alone outflow of the UTC day above it needs a second person. */
  dailyOutflowLimit: string | null;
}

export function toAccountDto(row: AccountRow): AccountDto {
  return {
    id: row.id,
    accountNumber: row.accountNumber,
    accountType: row.accountType,
    institutionId: row.institutionId,
    nationalRoutingId: row.nationalRoutingId,
    accountName: row.accountName,
    currency: row.currency,
    currentBalance: formatMoney(BigInt(row.currentBalanceMinor)),
    availableBalance: formatMoney(BigInt(row.availableBalanceMinor)),
    accountStatus: row.accountStatus,
    lastSweepDate: row.lastSweepDate,
    sweepThreshold: row.sweepThresholdMinor === null ? null : formatMoney(BigInt(row.sweepThresholdMinor)),
    targetLiquidAccount: row.targetLiquidAccount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    createdBy: row.createdBy,
    dailyOutflowLimit: row.dailyOutflowLimitMinor === null ? null : formatMoney(BigInt(row.dailyOutflowLimitMinor)),
  };
}

/** Every account, newest first: the screen sums balances by type in the browser, so no paging. */
export async function listAccounts(db: Queryable): Promise<AccountDto[]> {
  const rows = await db.select().from(ledgerAccounts).orderBy(
    desc(ledgerAccounts.createdAt),
    desc(sql`${ledgerAccounts}.rowid`),
  );
  return rows.map(toAccountDto);
}

const invalidField = (field: string, message: string) =>
  new AppError("validation", message, { field, fields: { [field]: message } });

async function checkReferences(tx: Tx, input: CreateAccountInput): Promise<void> {
  const duplicate = await tx.select({ id: ledgerAccounts.id }).from(ledgerAccounts)
    .where(eq(ledgerAccounts.accountNumber, input.accountNumber)).get();
  if (duplicate) throw conflict("accountNumber", "accountNumber already exists");

  if (input.targetLiquidAccount !== null) {
    const target = await tx.select().from(ledgerAccounts)
      .where(eq(ledgerAccounts.id, input.targetLiquidAccount)).get();
    if (!target) throw invalidField("targetLiquidAccount", "Target liquid account not found");
    if (target.accountType !== "liquid") {
      throw invalidField("targetLiquidAccount", "Target liquid account must be a liquid account");
    }
    if (target.currency !== input.currency) {
      throw invalidField(
        "targetLiquidAccount",
        `Target liquid account is in ${target.currency}, the account in ${input.currency}`,
      );
    }
  }
  if (input.institutionId !== null) {
    const institution = await tx.select({ id: institutions.id }).from(institutions)
      .where(eq(institutions.id, input.institutionId)).get();
    if (!institution) throw invalidField("institutionId", "Institution not found");
  }
  if (input.nationalRoutingId !== null) {
    const entry = await tx.select({ id: nationalRoutingRegistry.id }).from(nationalRoutingRegistry)
      .where(eq(nationalRoutingRegistry.id, input.nationalRoutingId)).get();
    if (!entry) throw invalidField("nationalRoutingId", "National routing entry not found");
  }
}

/**
 * Creates the account at zero, books the opening balance as its first journal entry (also when
 * zero, so every account has exactly one opening entry) and audits both, in one transaction.
 */
export async function createAccount(
  db: Database,
  actor: Actor,
  input: CreateAccountInput,
): Promise<AccountDto> {
  return await db.transaction(async (tx) => {
    await checkReferences(tx, input);
    const id = crypto.randomUUID();
    const now = new Date().toISOString();
    const openingMinor = Number(input.currentBalance);
    await tx.insert(ledgerAccounts).values({
      id,
      accountNumber: input.accountNumber,
      accountType: input.accountType,
      institutionId: input.institutionId,
      nationalRoutingId: input.nationalRoutingId,
      accountName: input.accountName,
      currency: input.currency,
      currentBalanceMinor: 0,
      availableBalanceMinor: 0,
      openingBalanceMinor: openingMinor,
      accountStatus: input.accountStatus,
      sweepThresholdMinor: input.sweepThreshold === null ? null : Number(input.sweepThreshold),
      targetLiquidAccount: input.targetLiquidAccount,
      createdAt: now,
      updatedAt: now,
      createdBy: actor.userId,
    });
    const opening = await moveBalance(tx, {
      accountId: id,
      amountMinor: openingMinor,
      entryType: "opening",
      referenceType: "account",
      referenceId: id,
      performedBy: actor.userId,
    });
    const row = await tx.select().from(ledgerAccounts).where(eq(ledgerAccounts.id, id)).get();
    if (!row) throw new Error(`Ledger account ${id} vanished inside its own transaction`);
    const account = toAccountDto(row);
    await recordCreation(tx, actor, "ledger_account", id, account);
    await recordAudit(tx, actor, {
      entityType: "ledger_entry",
      entityId: opening.entryId,
      action: "opening",
      changes: {
        accountId: id,
        amount: formatMoney(BigInt(openingMinor)),
        balanceBefore: formatMoney(BigInt(opening.balanceBeforeMinor)),
        balanceAfter: formatMoney(BigInt(opening.balanceAfterMinor)),
      },
    });
    return account;
  });
}

/**
 * The administrator sets or removes (null) an account's daily outflow limit, audited with the limit
 * before and after. It applies from the next movement on, counting what already left the account
 * alone that UTC day.
 */
export async function setDailyOutflowLimit(
  db: Database,
  actor: Actor,
  accountId: string,
  limitMinor: bigint | null,
  origin: GrantOrigin,
): Promise<AccountDto> {
  return await db.transaction(async (tx) => {
    await assertMayActAlone(tx, origin);
    const before = await tx.select().from(ledgerAccounts).where(eq(ledgerAccounts.id, accountId)).get();
    if (!before) throw notFound("Ledger account");
    const [row] = await tx.update(ledgerAccounts)
      .set({
        dailyOutflowLimitMinor: limitMinor === null ? null : Number(limitMinor),
        updatedAt: new Date().toISOString(),
      })
      .where(eq(ledgerAccounts.id, accountId))
      .returning();
    const account = toAccountDto(row);
    await recordAudit(tx, actor, {
      entityType: "ledger_account",
      entityId: accountId,
      action: "set_daily_outflow_limit",
      changes: {
        before: { dailyOutflowLimit: toAccountDto(before).dailyOutflowLimit },
        after: { dailyOutflowLimit: account.dailyOutflowLimit },
        currency: account.currency,
        control: grantNote(origin),
      },
    });
    return account;
  });
}

/** The limit change as a request for a second administrator (dual control in force); 404 for no such account. */
export async function outflowLimitDraft(
  db: Database,
  actor: Actor,
  accountId: string,
  limitMinor: bigint | null,
): Promise<RequestDraft> {
  const account = await db.read.select().from(ledgerAccounts).where(eq(ledgerAccounts.id, accountId)).get();
  if (!account) throw notFound("Ledger account");
  const dailyOutflowLimit = limitMinor === null ? null : formatMoney(limitMinor);
  return administrationDraft(
    "account_outflow_limit",
    actor,
    {
      payload: { id: accountId, dailyOutflowLimit },
      summary: { accountId, accountNumber: account.accountNumber, currency: account.currency, dailyOutflowLimit },
    },
    (inner, origin) => setDailyOutflowLimit(inner, actor, accountId, limitMinor, origin),
  );
}

/** An account to open as the request and the approval keep it: money as decimal strings. */
export function openingPayload(input: CreateAccountInput) {
  return {
    ...input,
    currentBalance: formatMoney(input.currentBalance),
    sweepThreshold: input.sweepThreshold === null ? null : formatMoney(input.sweepThreshold),
  };
}

/** An account whose opening balance a second person must approve, as its request in the queue. */
export function openingBalanceDraft(
  input: CreateAccountInput,
  payload: ReturnType<typeof openingPayload>,
  rehearse: RequestDraft["rehearse"],
): RequestDraft {
  const { accountType, accountNumber, accountName, currency } = input;
  const opening = formatCurrencyEnUs(input.currentBalance, currency);
  return {
    kind: "opening_balance",
    payload,
    summary: {
      description: `Open ${accountType} account ${accountNumber} (${accountName}) with ${opening}`,
      account: { accountNumber, accountName, balanceBefore: "0.00", balanceAfter: payload.currentBalance },
    },
    amountMinor: input.currentBalance,
    currency,
    rehearse,
  };
}
