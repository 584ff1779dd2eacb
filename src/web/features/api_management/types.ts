/** The shapes this screen reads from /api/api-keys, /api/api-logs and /api/openapi.json. */
export const API_KEYS_KEY = "/api/api-keys";
export const API_LOGS_KEY = "/api/api-logs";
export const API_LOG_STATS_KEY = "/api/api-logs/stats";
export const OPENAPI_KEY = "/api/openapi.json";

export type { ApiKey, ApiKeyStatus, CreatedApiKey } from "../../../server/features/api_keys/schemas.ts";
export type { ApiLogCharts, ApiLogEntry, ApiLogStats } from "../../../server/features/api_logs/schemas.ts";

/** The slice of an OpenAPI 3.1 document the Docs tab renders. */
export interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: { type?: string | string[]; enum?: unknown[]; maxLength?: number; default?: unknown };
}

export interface OpenApiOperation {
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: {
    content?: Record<
      string,
      { schema?: { properties?: Record<string, { type?: string | string[] }>; required?: string[] } }
    >;
  };
  responses?: Record<string, { description?: string }>;
  "x-rate-limit-per-hour"?: number;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** The query key (and URL) of the log list for the chosen filters. */
export function apiLogsUrl(filters: { status: string; endpoint: string }, limit: number): string {
  const params = new URLSearchParams();
  if (filters.status) params.set("status", filters.status);
  if (filters.endpoint) params.set("endpoint", filters.endpoint);
  params.set("limit", String(limit));
  return `${API_LOGS_KEY}?${params}`;
}
