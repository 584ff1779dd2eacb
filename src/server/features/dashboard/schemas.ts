/** Response shapes of the dashboard calls (spec 3 "Dashboard stats" and "Recent registration", spec 7). */
import { z } from "zod";
import { INSTITUTION_LIFECYCLE_STATUSES, INSTITUTION_TYPES } from "../../../domain/institution.ts";

export const dashboardStatsSchema = z.object({
  totalInstitutions: z.number().int(),
  /** Institutions registered since the start of the current calendar month (UTC). */
  monthlyInstitutionGrowth: z.number().int(),
  activeRoutingCodes: z.number().int(),
  /** Routing codes created since the start of the current calendar month (UTC), any status. */
  monthlyRoutingCodeGrowth: z.number().int(),
  swiftParticipants: z.number().int(),
  /** API log rows since midnight UTC. */
  todayApiRequests: z.number().int(),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

export const recentRegistrationSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(INSTITUTION_TYPES),
  registrationNumber: z.string(),
  status: z.enum(INSTITUTION_LIFECYCLE_STATUSES),
  numberOfBranches: z.number().int(),
  createdAt: z.string(),
});
export type RecentRegistration = z.infer<typeof recentRegistrationSchema>;

export const dashboardTrendsSchema = z.object({
  /** API log rows from midnight UTC yesterday up to this time yesterday. */
  yesterdayApiRequestsSameTime: z.number().int(),
  /** SWIFT participants registered since the start of the current calendar month (UTC). */
  monthlySwiftParticipantGrowth: z.number().int(),
});
export type DashboardTrends = z.infer<typeof dashboardTrendsSchema>;

export const dashboardChartsSchema = z.object({
  /** The last 12 UTC months, oldest first, each with its count of new institutions. */
  registrationsPerMonth: z.array(z.object({ month: z.string(), count: z.number().int() })),
  /** Requests per UTC hour (24 entries, hour 0 first). */
  apiRequestsPerHour: z.object({ today: z.array(z.number().int()), yesterday: z.array(z.number().int()) }),
});
export type DashboardCharts = z.infer<typeof dashboardChartsSchema>;
