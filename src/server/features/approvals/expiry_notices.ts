/**
 * "Your request expired": a request expires by the clock, not by a write (its stored status stays
 * 'pending'), so nothing else tells the requester. This task, run at headquarters or on a standalone
 * node, finds requests past their expiry that have no approval_expired event yet and publishes one
 * each; the check and the publication share one write transaction, so two processes never both do.
 */
import { sql } from "drizzle-orm";
import type { ApprovalKind } from "../../../domain/approval.ts";
import type { Database } from "../../db/database.ts";
import { publishEvent } from "../../events/outbox.ts";
import { type PeriodicTask, startPeriodic } from "../../periodic.ts";
import { APPROVAL_AUDIT_ENTITY, APPROVALS_LINK, requestTitle } from "./four_eyes.ts";

/** How often expired requests are looked for: a notice comes at most this late. */
export const EXPIRY_CHECK_INTERVAL_MS = 30_000;
/** Notices published per transaction; the rest follow on the next run. */
export const EXPIRY_NOTICES_PER_RUN = 100;

interface ExpiredRow {
  [column: string]: unknown;
  id: string;
  kind: ApprovalKind;
  amountMinor: number | null;
  currency: string | null;
  requestedBy: string;
  expiresAt: string;
}

/** Publishes the notices due now; returns how many. */
export async function publishExpiryNotices(db: Database, now = new Date()): Promise<number> {
  return await db.transaction(async (tx) => {
    const rows = await tx.all<ExpiredRow>(sql`SELECT a.id, a.kind, a.amount_minor AS amountMinor,
        a.currency, a.requested_by AS requestedBy, a.expires_at AS expiresAt
      FROM approval_requests a
      WHERE a.status = 'pending' AND a.expires_at <= ${now.toISOString()}
        AND NOT EXISTS (SELECT 1 FROM events e WHERE e.subject_id = a.id AND e.kind = 'approval_expired')
      ORDER BY a.expires_at LIMIT ${EXPIRY_NOTICES_PER_RUN}`);
    for (const row of rows) {
      await publishEvent(tx, {
        kind: "approval_expired",
        subjectType: APPROVAL_AUDIT_ENTITY,
        subjectId: row.id,
        summary: `Your request (${requestTitle(row.kind, row.amountMinor, row.currency)}) expired at ${
          row.expiresAt
        } without a decision`,
        link: APPROVALS_LINK,
        data: { approvalKind: row.kind, expiresAt: row.expiresAt },
        audience: { userId: row.requestedBy },
      }, now);
    }
    return rows.length;
  });
}

export function startExpiryNotices(db: Database): PeriodicTask {
  return startPeriodic("Approval expiry notices", EXPIRY_CHECK_INTERVAL_MS, async () => {
    await publishExpiryNotices(db);
  });
}
