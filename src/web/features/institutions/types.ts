/** The institution record the registry screens read (spec 3), and the query keys they share. */
export type { Institution } from "../../../server/features/institutions/schemas.ts";

export const INSTITUTIONS_KEY = "/api/institutions";
/**
 * Spec 4: a registration or a status change refreshes the list, the recent registrations and the
 * stats; also the trends and the alerts, which count participants and pending institutions.
 */
export const REGISTRY_QUERY_KEYS = [
  [INSTITUTIONS_KEY],
  ["/api/dashboard/recent-registrations"],
  ["/api/dashboard/stats"],
  ["/api/dashboard/trends"],
  ["/api/dashboard/alerts"],
] as const;
