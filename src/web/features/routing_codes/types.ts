/** The shapes this screen reads from /api/routing-codes and /api/institutions. */
export type { RoutingCodeListItem } from "../../../server/features/routing_codes/schemas.ts";

export const ROUTING_CODES_KEY = "/api/routing-codes";
