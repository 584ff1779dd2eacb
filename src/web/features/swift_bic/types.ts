/** The shapes this screen reads from /api/swift-codes and /api/institutions. */
export type { SwiftCode, SwiftCodeListItem } from "../../../server/features/swift_codes/schemas.ts";

export const SWIFT_CODES_KEY = "/api/swift-codes";
export const MEMBERSHIP_TYPES = ["full", "subgroup", "correspondent"] as const;
