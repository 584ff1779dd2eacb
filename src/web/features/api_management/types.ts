/** The shapes this screen reads from /api/api-keys, /api/api-logs and /api/openapi.json. */
export const API_KEYS_KEY = "/api/api-keys";
export const API_LOGS_KEY = "/api/api-logs";
export const API_LOG_STATS_KEY = "/api/api-logs/stats";
export const OPENAPI_KEY = "/api/openapi.json";

export type ApiKeyStatus = "active" | "expired" | "revoked";

export interface ApiKey {
  id: string;
  name: string;
  keyPrefix: string;
  status: ApiKeyStatus;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  createdBy: string | null;
}

export interface CreatedApiKey extends ApiKey {
  key: string;
}

export interface ApiLogEntry {
  id: string;
  endpoint: string;
  method: string;
  clientIp: string | null;
  userAgent: string | null;
  responseStatus: number;
  responseTime: number | null;
  requestPayload: unknown;
  responsePayload: unknown;
  apiKeyId: string | null;
  apiKeyName: string | null;
  apiKeyPrefix: string | null;
  userId: string | null;
  createdAt: string;
}

export interface ApiLogStats {
  requestsToday: number;
  errorsToday: number;
  errorRatePercent: number;
  medianLatencyMs: number | null;
  activeKeys: number;
}

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
