/** The shapes this screen reads from /api/swift-codes and /api/institutions. */
export interface SwiftCode {
  id: string;
  institutionId: string;
  bicCode: string;
  bankCode: string;
  countryCode: string;
  locationCode: string;
  branchCode: string | null;
  membershipType: string | null;
  status: string;
  validFrom: string;
  validUntil: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

export const SWIFT_CODES_KEY = "/api/swift-codes";
export const MEMBERSHIP_TYPES = ["full", "subgroup", "correspondent"] as const;
