/** The dashboard's data: figures, trends, charts, alerts and the latest registrations. */
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../lib/api.ts";
import { useApiMutation } from "../../lib/mutation.ts";
import type { DashboardAlert } from "../../../domain/dashboard.ts";
import type {
  DashboardCharts,
  DashboardStats,
  DashboardTrends,
  RecentRegistration,
} from "../../../server/features/dashboard/schemas.ts";

export const useDashboardStats = () => useQuery<DashboardStats>({ queryKey: ["/api/dashboard/stats"] });

export const useDashboardTrends = () => useQuery<DashboardTrends>({ queryKey: ["/api/dashboard/trends"] });

export const useDashboardCharts = () => useQuery<DashboardCharts>({ queryKey: ["/api/dashboard/charts"] });

export const useDashboardAlerts = () => useQuery<{ alerts: DashboardAlert[] }>({ queryKey: ["/api/dashboard/alerts"] });

export const useRecentRegistrations = () =>
  useQuery<RecentRegistration[]>({ queryKey: ["/api/dashboard/recent-registrations"] });

export type LookupType = "routing" | "swift" | "institution";

export interface LookupRecord {
  id: string;
  status: string;
  code?: string;
  prefix?: string;
  bicCode?: string;
  countryCode?: string;
  name?: string;
  registrationNumber?: string;
}

export interface LookupResult {
  type: LookupType;
  records: LookupRecord[];
}

export const useCodeLookup = (onFound: (found: LookupResult) => void, onError: () => void) =>
  useApiMutation({
    mutationFn: async (input: { type: LookupType; query: string }): Promise<LookupResult> => {
      const params = new URLSearchParams({ type: input.type, query: input.query });
      return { type: input.type, records: await apiJson<LookupRecord[]>("GET", `/api/search?${params}`) };
    },
    errorTitle: "Failed to perform search",
    onSuccess: onFound,
    onError,
  });
