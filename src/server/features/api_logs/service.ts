/** Reads of the API request log: the filtered recent entries and today's figures. */
import { and, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import { apiKeys, apiLogs } from "../../../../db/schema.ts";
import { liveKeyCondition } from "../../api_access/keys.ts";
import type { Queryable } from "../../db/database.ts";
import { lastHours } from "../../../domain/time_buckets.ts";
import type { ApiLogCharts, ApiLogEntry, ApiLogQuery, ApiLogStats } from "./schemas.ts";

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

/** The per-key charts cover this many hours, the current one included. */
export const API_CHART_HOURS = 24;
/** Keys drawn one by one; busier ones first, the rest are summed as "Other keys". */
export const MAX_CHARTED_KEYS = 5;
export const NO_KEY_LABEL = "Without a key";
export const OTHER_KEYS_LABEL = "Other keys";

/**
 * Requests and errors (4xx/5xx) per UTC hour per API key over the last 24 hours, aggregated here:
 * the busiest keys each get a series, the others one together, requests without a key another.
 */
export async function apiLogCharts(db: Queryable, now = new Date()): Promise<ApiLogCharts> {
  const hours = lastHours(now, API_CHART_HOURS);
  const rows = await db.all<{ keyId: string | null; name: string | null; hour: string; requests: number; errors: number }>(
    sql`SELECT l.api_key_id AS keyId, k.name AS name, substr(l.created_at, 1, 13) AS hour,
      count(*) AS requests, coalesce(sum(l.response_status >= 400), 0) AS errors
    FROM api_logs l LEFT JOIN api_keys k ON k.id = l.api_key_id
    WHERE l.created_at >= ${`${hours[0]}:00:00.000Z`}
    GROUP BY l.api_key_id, hour`,
  );
  const hourIndex = new Map(hours.map((hour, index) => [hour, index]));
  const totals = new Map<string, number>();
  for (const row of rows) if (row.keyId) totals.set(row.keyId, (totals.get(row.keyId) ?? 0) + row.requests);
  const charted = new Set([...totals].sort((a, b) => b[1] - a[1]).slice(0, MAX_CHARTED_KEYS).map(([id]) => id));
  const series = new Map<string, { name: string; requests: number[]; errors: number[] }>();
  for (const row of rows) {
    const index = hourIndex.get(row.hour);
    if (index === undefined) continue;
    const id = row.keyId === null ? "none" : charted.has(row.keyId) ? row.keyId : "other";
    const name = row.keyId === null ? NO_KEY_LABEL : charted.has(row.keyId) ? row.name ?? row.keyId : OTHER_KEYS_LABEL;
    let entry = series.get(id);
    if (!entry) {
      entry = { name, requests: hours.map(() => 0), errors: hours.map(() => 0) };
      series.set(id, entry);
    }
    entry.requests[index] += row.requests;
    entry.errors[index] += row.errors;
  }
  const order = (id: string) => (id === "none" ? 2 : id === "other" ? 1 : 0);
  return {
    hours,
    keys: [...series].sort(([a, x], [b, y]) => order(a) - order(b) || (totals.get(b) ?? 0) - (totals.get(a) ?? 0) ||
      x.name.localeCompare(y.name))
      .map(([, entry]) => entry),
  };
}
