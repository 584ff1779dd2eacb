/** Filters of the audit trail viewer. */
import { z } from "zod";
import { paginationQuery } from "../../validation.ts";

export const auditTrailQuery = paginationQuery.extend({
  /** A user id, or part of a user's e-mail or name. */
  actor: z.string().trim().max(255).optional(),
  entityType: z.string().trim().max(50).optional(),
  entityId: z.string().trim().max(255).optional(),
  action: z.string().trim().max(50).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export type AuditTrailQuery = z.output<typeof auditTrailQuery>;
