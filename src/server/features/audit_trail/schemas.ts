/** Filters of the audit trail viewer. */
import { z } from "zod";
import { sortingFields } from "../../http/list_sorting.ts";
import { paginationQuery } from "../../http/validation.ts";

/** The columns the viewer can be ordered by (the sortable table). */
export const AUDIT_SORT_KEYS = ["seq", "performedAt", "actor", "entityType", "action"] as const;
export type AuditSortKey = (typeof AUDIT_SORT_KEYS)[number];

export const auditTrailQuery = paginationQuery.extend({
  /** A user id, or part of a user's e-mail or name. */
  actor: z.string().trim().max(255).optional(),
  entityType: z.string().trim().max(50).optional(),
  entityId: z.string().trim().max(255).optional(),
  action: z.string().trim().max(50).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /** Words to find in the entity id, the action or the recorded changes. */
  search: z.string().trim().max(255).optional(),
  /** Ties and the unsorted trail: newest first (by sequence number). */
  ...sortingFields(AUDIT_SORT_KEYS),
});
export type AuditTrailQuery = z.output<typeof auditTrailQuery>;
