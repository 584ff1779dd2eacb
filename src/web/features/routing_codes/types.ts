/** The shapes this screen reads from /api/routing-codes and /api/institutions. */
export interface RoutingCode {
  id: string;
  institutionId: string;
  code: string;
  prefix: string;
  branchCode: string | null;
  description: string | null;
  status: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

export interface InstitutionOption {
  id: string;
  name: string;
}

export const ROUTING_CODES_KEY = "/api/routing-codes";
/** The API's page-size limit: the select offers every institution up to it. */
export const INSTITUTION_OPTIONS_KEY = "/api/institutions?limit=500";
