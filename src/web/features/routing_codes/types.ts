/** The shapes this screen reads from /api/routing-codes and /api/institutions. */
export interface RoutingCode {
  id: string;
  institutionId: string;
  /** The institution's name (the list joins it in); null if the institution no longer exists. */
  institutionName: string | null;
  code: string;
  prefix: string;
  branchCode: string | null;
  description: string | null;
  status: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

export const ROUTING_CODES_KEY = "/api/routing-codes";
