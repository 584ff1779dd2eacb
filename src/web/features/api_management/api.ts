/** The API Management screen's data: figures, charts and log from /api/api-logs, keys, the OpenAPI document. */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../lib/api.ts";
import { invalidateAll, useApiMutation } from "../../lib/mutation.ts";
import {
  API_KEYS_KEY,
  API_LOG_STATS_KEY,
  API_LOGS_KEY,
  type ApiKey,
  type ApiLogCharts,
  type ApiLogEntry,
  type ApiLogStats,
  type CreatedApiKey,
  OPENAPI_KEY,
  type OpenApiDocument,
} from "./types.ts";

export const API_LOG_CHARTS_KEY = "/api/api-logs/charts";

export const useApiLogStats = (enabled: boolean) =>
  useQuery<ApiLogStats>({ queryKey: [API_LOG_STATS_KEY], enabled });

export const useApiLogCharts = () => useQuery<ApiLogCharts>({ queryKey: [API_LOG_CHARTS_KEY] });

export const useApiLogs = (url: string) => useQuery<ApiLogEntry[]>({ queryKey: [url] });

/** Refetches every log query (all filters), for the Refresh button. */
export function useRefreshApiLogs(): () => void {
  const queryClient = useQueryClient();
  return () => invalidateAll(queryClient, [], [API_LOGS_KEY]);
}

export const useOpenApiDocument = () => useQuery<OpenApiDocument>({ queryKey: [OPENAPI_KEY] });

export const useApiKeys = () => useQuery<ApiKey[]>({ queryKey: [API_KEYS_KEY] });

export const useCreateApiKey = (onCreated: (created: CreatedApiKey) => void) =>
  useApiMutation({
    mutationFn: (input: { name: string; expiresAt: string | null }) =>
      apiJson<CreatedApiKey>("POST", API_KEYS_KEY, input),
    invalidates: [API_KEYS_KEY, API_LOG_STATS_KEY],
    errorTitle: "Failed to create API key",
    onSuccess: onCreated,
  });

export const useRevokeApiKey = (onRevoked: (revoked: ApiKey) => void) =>
  useApiMutation({
    mutationFn: (id: string) => apiJson<ApiKey>("DELETE", `${API_KEYS_KEY}/${encodeURIComponent(id)}`),
    invalidates: [API_KEYS_KEY, API_LOG_STATS_KEY],
    errorTitle: "Failed to revoke API key",
    onSuccess: onRevoked,
  });
