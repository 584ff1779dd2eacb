/** The institution record the registry screens read (spec 3), and the query keys they share. */
import type { InstitutionStatus, InstitutionType, SwiftMembershipType } from "../../../domain/institution.ts";

export interface Institution {
  id: string;
  name: string;
  type: InstitutionType;
  registrationNumber: string;
  licenseNumber: string | null;
  address: string;
  phoneNumber: string;
  emailAddress: string;
  numberOfBranches: number;
  swiftParticipant: boolean;
  swiftMembershipType: SwiftMembershipType | null;
  status: InstitutionStatus;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

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
