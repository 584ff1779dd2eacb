/** Reads of the API request log: the filtered recent entries and today's figures. */
import { and, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import { apiKeys, apiLogs } from "../../../../db/schema.ts";
import { liveKeyCondition } from "../../api_access/keys.ts";
import type { Queryable } from "../../db.ts";
import type { ApiLogEntry, ApiLogQuery, ApiLogStats } from "./schemas.ts";

/** The median latency is taken over today's most recent requests, at most this many. */
export const MEDIAN_LATENCY_SAMPLE_SIZE = 10_000;

/** Midnight UTC of `now`'s day, as the ISO text stored in created_at. */
export function startOfUtcDay(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
}

function statusCondition(status: string): SQL {
  if (status === "error") return gte(apiLogs.responseStatus, 400);
  if (status.endsWith("xx")) {
    const base = Number(status[0]) * 100;
    return and(gte(apiLogs.responseStatus, base), lt(apiLogs.responseStatus, base + 100))!;
  }
  return eq(apiLogs.responseStatus, Number(status));
}

/** Endpoints starting with `prefix`: a range on the (endpoint, created_at) index, no LIKE escaping. */
function endpointPrefixCondition(prefix: string): SQL {
  return and(gte(apiLogs.endpoint, prefix), lt(apiLogs.endpoint, `${prefix}\u{10FFFF}`))!;
}

export async function listApiLogs(db: Queryable, query: ApiLogQuery): Promise<ApiLogEntry[]> {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(statusCondition(query.status));
  if (query.endpoint) conditions.push(endpointPrefixCondition(query.endpoint));
  return await db.select({
    id: apiLogs.id,
    endpoint: apiLogs.endpoint,
    method: apiLogs.method,
    clientIp: apiLogs.clientIp,
    userAgent: apiLogs.userAgent,
    responseStatus: apiLogs.responseStatus,
    responseTime: apiLogs.responseTime,
    requestPayload: apiLogs.requestPayload,
    responsePayload: apiLogs.responsePayload,
    apiKeyId: apiLogs.apiKeyId,
    apiKeyName: apiKeys.name,
    apiKeyPrefix: apiKeys.keyPrefix,
    userId: apiLogs.userId,
    createdAt: apiLogs.createdAt,
  }).from(apiLogs).leftJoin(apiKeys, eq(apiKeys.id, apiLogs.apiKeyId))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(apiLogs.createdAt), desc(apiLogs.id))
    .limit(query.limit)
    .all();
}

export async function apiLogStats(db: Queryable, now = new Date()): Promise<ApiLogStats> {
  const dayStart = startOfUtcDay(now);
  const [totals] = await db.all<{ requests: number; errors: number }>(sql`SELECT count(*) AS requests,
    coalesce(sum(response_status >= 400), 0) AS errors FROM api_logs WHERE created_at >= ${dayStart}`);
  const sampled = Math.min(totals.requests, MEDIAN_LATENCY_SAMPLE_SIZE);
  const [median] = sampled === 0
    ? []
    : await db.all<{ latencyMs: number }>(sql`SELECT coalesce(response_time, 0) AS latencyMs
    FROM (SELECT response_time FROM api_logs WHERE created_at >= ${dayStart}
      ORDER BY created_at DESC LIMIT ${MEDIAN_LATENCY_SAMPLE_SIZE})
    ORDER BY response_time LIMIT 1 OFFSET ${Math.floor((sampled - 1) / 2)}`);
  const [keys] = await db.select({ active: sql<number>`count(*)` }).from(apiKeys)
    .where(liveKeyCondition(now.toISOString())).all();
  return {
    requestsToday: totals.requests,
    errorsToday: totals.errors,
    errorRatePercent: totals.requests === 0 ? 0 : Math.round((totals.errors / totals.requests) * 1000) / 10,
    medianLatencyMs: median ? median.latencyMs : null,
    activeKeys: keys.active,
  };
}
