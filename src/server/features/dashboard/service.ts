/**
 * Dashboard figures, all counted from data. Every count is served by an index (created_at,
 * the partial swift_participant index, routing_codes(status, created_at), api_logs(created_at)),
 * so the stats stay fast at 100,000 institutions.
 */
import { desc, sql } from "drizzle-orm";
import { institutions } from "../../../../db/schema.ts";
import type { Queryable } from "../../db/database.ts";
import {
  type ActiveConnectionTests,
  type DashboardAlert,
  dashboardAlerts,
} from "../../../domain/dashboard.ts";
import { accountsUnderAttack } from "../../auth/attack_alerts.ts";
import { countAwaitingDecision } from "../approvals/four_eyes.ts";
import { fillBuckets, HOURS_PER_DAY, lastMonths } from "../../../domain/time_buckets.ts";
import type { DashboardCharts, DashboardStats, DashboardTrends, RecentRegistration } from "./schemas.ts";

export const RECENT_REGISTRATIONS_LIMIT = 5;
const MS_PER_HOUR = 3_600_000;
const MS_PER_DAY = 24 * MS_PER_HOUR;
/** How far back the operational-status alert looks for API server errors. */
export const API_ERROR_WINDOW_MS = MS_PER_HOUR;
/** The audit rows a connection test writes (central bank connections feature). */
const CONNECTION_AUDIT_ENTITY = "central_bank_connection";
const CONNECTION_TEST_ACTION = "test";

/** Midnight UTC of `now`'s day, as the ISO text stored in created_at columns. */
export function startOfUtcDay(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
}

/** Midnight UTC of the first day of `now`'s month. */
export function startOfUtcMonth(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

export async function dashboardStats(db: Queryable, now = new Date()): Promise<DashboardStats> {
  const monthStart = startOfUtcMonth(now);
  const dayStart = startOfUtcDay(now);
  const [row] = await db.all<DashboardStats>(sql`SELECT
    (SELECT count(*) FROM institutions) AS totalInstitutions,
    (SELECT count(*) FROM institutions WHERE created_at >= ${monthStart}) AS monthlyInstitutionGrowth,
    (SELECT count(*) FROM routing_codes WHERE status = 'active') AS activeRoutingCodes,
    (SELECT count(*) FROM routing_codes WHERE created_at >= ${monthStart}) AS monthlyRoutingCodeGrowth,
    (SELECT count(*) FROM institutions WHERE swift_participant = 1) AS swiftParticipants,
    (SELECT count(*) FROM api_logs WHERE created_at >= ${dayStart}) AS todayApiRequests`);
  return row;
}

export function recentRegistrations(db: Queryable): Promise<RecentRegistration[]> {
  return db.select({
    id: institutions.id,
    name: institutions.name,
    type: institutions.type,
    registrationNumber: institutions.registrationNumber,
    // The status column keeps the last operating status of a terminated institution.
    status: sql<RecentRegistration["status"]>`CASE WHEN ${institutions.terminatedAt} IS NULL THEN ${institutions.status}
      ELSE 'terminated' END`,
    numberOfBranches: institutions.numberOfBranches,
    createdAt: institutions.createdAt,
  }).from(institutions).orderBy(desc(institutions.createdAt), desc(sql`${institutions}.rowid`))
    .limit(RECENT_REGISTRATIONS_LIMIT);
}

/**
 * The figures beside the counters: yesterday's API requests over the same hours as today so far
 * (a fair base at any time of day), and SWIFT participants registered this month.
 */
export async function dashboardTrends(db: Queryable, now = new Date()): Promise<DashboardTrends> {
  const dayStart = startOfUtcDay(now);
  const yesterdayStart = new Date(Date.parse(dayStart) - MS_PER_DAY).toISOString();
  const yesterdaySameTime = new Date(now.getTime() - MS_PER_DAY).toISOString();
  const [row] = await db.all<DashboardTrends>(sql`SELECT
    (SELECT count(*) FROM api_logs WHERE created_at >= ${yesterdayStart} AND created_at < ${yesterdaySameTime})
      AS yesterdayApiRequestsSameTime,
    (SELECT count(*) FROM institutions WHERE swift_participant = 1 AND created_at >= ${startOfUtcMonth(now)})
      AS monthlySwiftParticipantGrowth`);
  return row;
}

/** Each active connection with its test record, from the tests' audit rows (the one record of their outcome). */
async function activeConnectionTests(db: Queryable): Promise<ActiveConnectionTests[]> {
  const testsOf = sql`FROM audit_trail a WHERE a.entity_type = ${CONNECTION_AUDIT_ENTITY}
    AND a.entity_id = c.id AND a.action = ${CONNECTION_TEST_ACTION}`;
  const succeeded = sql`json_extract(a.changes, '$.result.success')`;
  const rows = await db.all<Omit<ActiveConnectionTests, "lastTestSucceeded"> & { succeeded: number | null }>(
    sql`SELECT
    c.partner_central_bank AS name,
    (SELECT a.performed_at ${testsOf} ORDER BY a.seq DESC LIMIT 1) AS lastTestAt,
    (SELECT ${succeeded} ${testsOf} ORDER BY a.seq DESC LIMIT 1) AS succeeded,
    (SELECT min(a.performed_at) ${testsOf} AND ${succeeded} = 0 AND a.seq > coalesce(
      (SELECT max(a.seq) ${testsOf} AND ${succeeded} = 1), 0)) AS failingSince
    FROM central_bank_connections c WHERE c.connection_status = 'active'
    ORDER BY c.partner_central_bank, c.id`,
  );
  return rows.map(({ succeeded, ...row }) => ({
    ...row,
    lastTestSucceeded: succeeded === null ? null : succeeded === 1,
  }));
}

/**
 * System alerts from the live state: the requests in the approvals queue (counted by the queue's own
 * rule), pending institutions, the active connections' tests (failing, never tested, or last
 * succeeded too long ago), and API server errors in the last hour; for administrators also the
 * accounts reported under sign-in attack.
 */
export async function systemAlerts(
  db: Queryable,
  forAdministrator: boolean,
  now = new Date(),
): Promise<DashboardAlert[]> {
  const since = new Date(now.getTime() - API_ERROR_WINDOW_MS).toISOString();
  const [facts] = await db.all<{
    pendingInstitutions: number;
    apiRequestsLastHour: number;
    apiServerErrorsLastHour: number;
  }>(sql`SELECT
    (SELECT count(*) FROM institutions WHERE status = 'pending' AND terminated_at IS NULL) AS pendingInstitutions,
    (SELECT count(*) FROM api_logs WHERE created_at >= ${since}) AS apiRequestsLastHour,
    (SELECT count(*) FROM api_logs WHERE response_status >= 500 AND created_at >= ${since}) AS apiServerErrorsLastHour`);
  const accountsAttacked = forAdministrator ? await accountsUnderAttack(db, now.getTime()) : [];
  return dashboardAlerts({
    ...facts,
    awaitingApproval: await countAwaitingDecision(db, now),
    activeConnections: await activeConnectionTests(db),
    nowMs: now.getTime(),
    accountsUnderAttack: accountsAttacked,
  });
}

/** The registrations chart covers this many months, the current one included. */
export const REGISTRATION_CHART_MONTHS = 12;

/**
 * The dashboard's charts, aggregated here so the browser only draws: registrations per month (UTC)
 * over the last 12 months, and API requests per hour of the day (UTC), today against yesterday.
 */
export async function dashboardCharts(db: Queryable, now = new Date()): Promise<DashboardCharts> {
  const months = lastMonths(now, REGISTRATION_CHART_MONTHS);
  const monthStart = `${months[0]}-01T00:00:00.000Z`;
  const dayStart = startOfUtcDay(now);
  const yesterdayStart = new Date(Date.parse(dayStart) - MS_PER_DAY).toISOString();
  const [registrations, requests] = await Promise.all([
    db.all<{ bucket: string; count: number }>(sql`SELECT substr(created_at, 1, 7) AS bucket, count(*) AS count
      FROM institutions WHERE created_at >= ${monthStart} GROUP BY bucket`),
    db.all<{ today: number; hour: number; count: number }>(sql`SELECT created_at >= ${dayStart} AS today,
      CAST(substr(created_at, 12, 2) AS INTEGER) AS hour, count(*) AS count
      FROM api_logs WHERE created_at >= ${yesterdayStart} GROUP BY today, hour`),
  ]);
  const perHour = (today: boolean) => {
    const counts = new Array<number>(HOURS_PER_DAY).fill(0);
    for (const row of requests) if (Boolean(row.today) === today) counts[row.hour] = row.count;
    return counts;
  };
  const counts = fillBuckets(months, registrations);
  return {
    registrationsPerMonth: months.map((month, i) => ({ month, count: counts[i] })),
    apiRequestsPerHour: { today: perHour(true), yesterday: perHour(false) },
  };
}
