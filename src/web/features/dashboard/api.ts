/** The dashboard's data: figures, trends, charts, alerts and the latest registrations. */
import { useQuery } from "@tanstack/react-query";
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
