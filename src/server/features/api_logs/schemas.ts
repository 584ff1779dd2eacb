/** The API request log as the API Management screen reads it (spec 2.14 and 3, api_logs). */
import { z } from "zod";

export const MAX_API_LOG_PAGE_SIZE = 200;
export const DEFAULT_API_LOG_PAGE_SIZE = 50;
export const MAX_ENDPOINT_FILTER_LENGTH = 255;

/** "404" is one status; "4xx" a class of them; "error" any status from 400 up. */
export const apiLogStatusFilter = z.union([
  z.string().regex(/^[1-5]\d\d$/),
  z.enum(["2xx", "3xx", "4xx", "5xx", "error"]),
]);

export const apiLogQuerySchema = z.object({
  status: z.union([apiLogStatusFilter, z.literal("")]).optional().transform((value) => value || undefined),
  /** Matches endpoints that start with this path, e.g. "/api/routing-codes/". */
  endpoint: z.string().trim().max(MAX_ENDPOINT_FILTER_LENGTH).optional().transform((value) =>
    value || undefined
  ),
  limit: z.coerce.number().int().min(1).max(MAX_API_LOG_PAGE_SIZE).default(DEFAULT_API_LOG_PAGE_SIZE),
});
export type ApiLogQuery = z.output<typeof apiLogQuerySchema>;

export const apiLogEntrySchema = z.object({
  id: z.string(),
  endpoint: z.string(),
  method: z.string(),
  clientIp: z.string().nullable(),
  userAgent: z.string().nullable(),
  responseStatus: z.number().int(),
  /** Milliseconds. */
  responseTime: z.number().int().nullable(),
  requestPayload: z.unknown(),
  responsePayload: z.unknown(),
  apiKeyId: z.string().nullable(),
  apiKeyName: z.string().nullable(),
  apiKeyPrefix: z.string().nullable(),
  userId: z.string().nullable(),
  createdAt: z.string(),
});
export type ApiLogEntry = z.infer<typeof apiLogEntrySchema>;

export const apiLogStatsSchema = z.object({
  /** Requests since midnight UTC. */
  requestsToday: z.number().int(),
  /** Of those, answered with a status of 400 or above. */
  errorsToday: z.number().int(),
  /** errorsToday / requestsToday as a percentage with one decimal; 0 without requests. */
  errorRatePercent: z.number(),
  /** Median response time of today's latest requests (up to MEDIAN_LATENCY_SAMPLE_SIZE); null without requests. */
  medianLatencyMs: z.number().int().nullable(),
  /** Keys neither revoked nor expired. */
  activeKeys: z.number().int(),
});
export type ApiLogStats = z.infer<typeof apiLogStatsSchema>;

export const apiLogChartsSchema = z.object({
  /** "YYYY-MM-DDTHH" (UTC), oldest first. */
  hours: z.array(z.string()),
  /** Per key: requests and error answers (4xx/5xx) per hour. */
  keys: z.array(z.object({ name: z.string(), requests: z.array(z.number().int()), errors: z.array(z.number().int()) })),
});
export type ApiLogCharts = z.infer<typeof apiLogChartsSchema>;
