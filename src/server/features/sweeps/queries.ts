/**
 * The reads behind the sweep screens: the list and detail (with account and executor names), the
 * count since an instant, the charts, and what the ISO 20022 message of a sweep needs.
 */
import { and, asc, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import {
  balanceSweeps,
  institutions,
  ledgerAccounts,
  nationalRoutingRegistry,
  swiftCodes,
  users,
} from "../../../../db/schema.ts";
import { formatMoney } from "../../../domain/money.ts";
import { fillBuckets, lastDays } from "../../../domain/time_buckets.ts";
import type { Queryable } from "../../db/database.ts";
import { AppError, notFound } from "../../http/errors.ts";
import { type SweepDto, type SweepRow, toSweepDto } from "./booking.ts";

type AccountRow = typeof ledgerAccounts.$inferSelect;

const sourceAccount = alias(ledgerAccounts, "source_account");
const targetAccount = alias(ledgerAccounts, "target_account");

function sweepsWithNames(db: Queryable) {
  return db.select({
    sweep: balanceSweeps,
    sourceName: sourceAccount.accountName,
    sourceNumber: sourceAccount.accountNumber,
    currency: sourceAccount.currency,
    targetName: targetAccount.accountName,
    targetNumber: targetAccount.accountNumber,
    executorId: users.id,
    executorFirstName: users.firstName,
    executorLastName: users.lastName,
    executorEmail: users.email,
  }).from(balanceSweeps)
    .innerJoin(sourceAccount, eq(sourceAccount.id, balanceSweeps.sourceAccountId))
    .innerJoin(targetAccount, eq(targetAccount.id, balanceSweeps.targetAccountId))
    .leftJoin(users, eq(users.id, balanceSweeps.executedBy));
}

type JoinedSweep = Awaited<ReturnType<ReturnType<typeof sweepsWithNames>["all"]>>[number];

function joinedToDto(row: JoinedSweep): SweepDto {
  return toSweepDto(
    row.sweep,
    { accountName: row.sourceName, accountNumber: row.sourceNumber, currency: row.currency },
    { accountName: row.targetName, accountNumber: row.targetNumber },
    row.executorId === null || row.executorEmail === null
      ? null
      : { firstName: row.executorFirstName, lastName: row.executorLastName, email: row.executorEmail },
  );
}

/** Newest first; rowid breaks ties between sweeps of the same millisecond. */
export async function listSweeps(
  db: Queryable,
  page: { limit: number; offset: number },
): Promise<SweepDto[]> {
  const rows = await sweepsWithNames(db)
    .orderBy(desc(balanceSweeps.executedAt), desc(sql`${balanceSweeps}.rowid`))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(joinedToDto);
}

export async function getSweep(db: Queryable, id: string): Promise<SweepDto> {
  const row = await sweepsWithNames(db).where(eq(balanceSweeps.id, id)).get();
  if (!row) throw notFound("Balance sweep");
  return joinedToDto(row);
}

export async function countSweepsSince(db: Queryable, sinceIso: string): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)` }).from(balanceSweeps)
    .where(and(eq(balanceSweeps.sweepStatus, "completed"), gte(balanceSweeps.executedAt, sinceIso)));
  return row?.count ?? 0;
}

/** An account as the ISO 20022 message names it: number, name, type and its institution's identity. */
export interface MessageAccount {
  accountNumber: string;
  accountName: string;
  accountType: string;
  currency: string;
  bic: string | null;
  institutionName: string | null;
}

async function messageAccount(db: Queryable, account: AccountRow): Promise<MessageAccount> {
  let bic: string | null = null;
  let institutionName: string | null = null;
  if (account.nationalRoutingId !== null) {
    const entry = await db.select({
      bic: nationalRoutingRegistry.swiftBicCode,
      name: nationalRoutingRegistry.institutionName,
    }).from(nationalRoutingRegistry).where(eq(nationalRoutingRegistry.id, account.nationalRoutingId)).get();
    bic = entry?.bic ?? null;
    institutionName = entry?.name ?? null;
  }
  if (account.institutionId !== null) {
    const institution = await db.select({ name: institutions.name }).from(institutions)
      .where(eq(institutions.id, account.institutionId)).get();
    institutionName ??= institution?.name ?? null;
    if (bic === null) {
      const code = await db.select({ bic: swiftCodes.bicCode }).from(swiftCodes)
        .where(and(eq(swiftCodes.institutionId, account.institutionId), eq(swiftCodes.status, "active")))
        .orderBy(asc(swiftCodes.createdAt)).limit(1).get();
      bic = code?.bic ?? null;
    }
  }
  return {
    accountNumber: account.accountNumber,
    accountName: account.accountName,
    accountType: account.accountType,
    currency: account.currency,
    bic,
    institutionName,
  };
}

export interface SweepMessageData {
  sweep: SweepRow;
  debtor: MessageAccount;
  creditor: MessageAccount;
}

/** What the camt.050 message needs; only completed sweeps moved liquidity, so only they have one. */
export async function loadSweepMessageData(db: Queryable, id: string): Promise<SweepMessageData> {
  const sweep = await db.select().from(balanceSweeps).where(eq(balanceSweeps.id, id)).get();
  if (!sweep) throw notFound("Balance sweep");
  if (sweep.sweepStatus !== "completed") {
    throw new AppError(
      "conflict",
      `Balance sweep is ${sweep.sweepStatus}; only completed sweeps have a message`,
    );
  }
  const accounts = await db.select().from(ledgerAccounts)
    .where(inArray(ledgerAccounts.id, [sweep.sourceAccountId, sweep.targetAccountId]));
  const source = accounts.find((row) => row.id === sweep.sourceAccountId);
  const target = accounts.find((row) => row.id === sweep.targetAccountId);
  if (!source || !target) throw new Error(`Sweep ${id} references a missing account`);
  return { sweep, debtor: await messageAccount(db, source), creditor: await messageAccount(db, target) };
}

/** The Balance Sweep Management charts cover this many days, today included. */
export const SWEEP_CHART_DAYS = 30;

export interface SweepChartsDto {
  /** "YYYY-MM-DD" (UTC), oldest first. */
  days: string[];
  /** Sweeps executed per day. */
  sweepsPerDay: number[];
  /** Per currency, the summed closing balance of ledger and of liquid accounts per day, as decimal strings. */
  liquidity: { currency: string; ledger: string[]; liquid: string[] }[];
}

/**
 * The screen's charts, aggregated here: sweeps per day, and per currency the ledger and liquid
 * totals at each day's close, read from the ledger journal (each account's last balance_after
 * before the next midnight UTC), so the history is what the books said, not a reconstruction.
 */
export async function sweepCharts(db: Queryable, now = new Date()): Promise<SweepChartsDto> {
  const days = lastDays(now, SWEEP_CHART_DAYS);
  const [sweeps, closings] = await Promise.all([
    db.all<{ bucket: string; count: number }>(
      sql`SELECT substr(executed_at, 1, 10) AS bucket, count(*) AS count
      FROM balance_sweeps WHERE executed_at >= ${days[0]} GROUP BY bucket`,
    ),
    db.all<{ day: string; currency: string; accountType: string; balanceMinor: number }>(sql`
      WITH RECURSIVE chart_days(day) AS (
        SELECT ${days[0]} UNION ALL SELECT date(day, '+1 day') FROM chart_days WHERE day < ${days.at(-1)}
      )
      SELECT d.day AS day, a.currency AS currency, a.account_type AS accountType,
        sum(coalesce((SELECT e.balance_after_minor FROM ledger_entries e
          WHERE e.account_id = a.id AND e.created_at < date(d.day, '+1 day')
          ORDER BY e.seq DESC LIMIT 1), 0)) AS balanceMinor
      FROM chart_days d CROSS JOIN ledger_accounts a
      WHERE a.account_type IN ('ledger', 'liquid')
      GROUP BY d.day, a.currency, a.account_type`),
  ]);
  const dayIndex = new Map(days.map((day, index) => [day, index]));
  const byCurrency = new Map<string, { ledger: bigint[]; liquid: bigint[] }>();
  for (const row of closings) {
    const index = dayIndex.get(row.day);
    if (index === undefined) continue;
    let entry = byCurrency.get(row.currency);
    if (!entry) {
      entry = { ledger: days.map(() => 0n), liquid: days.map(() => 0n) };
      byCurrency.set(row.currency, entry);
    }
    entry[row.accountType === "ledger" ? "ledger" : "liquid"][index] = BigInt(row.balanceMinor);
  }
  return {
    days,
    sweepsPerDay: fillBuckets(days, sweeps),
    liquidity: [...byCurrency].sort(([a], [b]) => a.localeCompare(b)).map(([currency, entry]) => ({
      currency,
      ledger: entry.ledger.map(formatMoney),
      liquid: entry.liquid.map(formatMoney),
    })),
  };
}
