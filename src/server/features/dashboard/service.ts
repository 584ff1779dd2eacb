/**
 * Dashboard figures, all counted from data. Every count is served by an index (created_at,
 * the partial swift_participant index, routing_codes(status, created_at), api_logs(created_at)),
 * so the stats stay fast at 100,000 institutions.
 */
import { desc, sql } from "drizzle-orm";
import { institutions } from "../../../../db/schema.ts";
import type { Queryable } from "../../db.ts";
import type { DashboardStats, RecentRegistration } from "./schemas.ts";

export const RECENT_REGISTRATIONS_LIMIT = 5;

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
    status: institutions.status,
    numberOfBranches: institutions.numberOfBranches,
    createdAt: institutions.createdAt,
  }).from(institutions).orderBy(desc(institutions.createdAt), desc(sql`${institutions}.rowid`))
    .limit(RECENT_REGISTRATIONS_LIMIT);
}
