/**
 * Expedition requests: each request the Partnership Expediter files is recorded with who filed it
 * and why, and moves open → in progress → done, or is cancelled. Every change commits with its audit
 * row; nothing is deleted.
 */
import { eq, sql } from "drizzle-orm";
import { expeditionRequests } from "../../../../db/schema.ts";
import { EXPEDITION_STATUS_LABELS, mayMoveExpedition } from "../../../domain/expedition.ts";
import { type Actor, recordAudit, recordCreation } from "../../audit/trail.ts";
import type { Database, Queryable } from "../../db/database.ts";
import { personNameSql } from "../../db/person_name.ts";
import { conflict, notFound } from "../../http/errors.ts";
import type {
  CreateExpeditionRequestInput,
  ExpeditionRequest,
  UpdateExpeditionStatusInput,
} from "./schemas.ts";

export const EXPEDITION_AUDIT_ENTITY = "expedition_request";
/** The list shows the newest requests; older ones stay in the table and the audit trail. */
export const EXPEDITION_LIST_LIMIT = 200;

interface Row {
  id: string;
  partner: ExpeditionRequest["partner"];
  method: string;
  justification: string;
  status: ExpeditionRequest["status"];
  requestedById: string;
  requestedByName: string;
  requestedAt: string;
  statusChangedById: string | null;
  statusChangedByName: string | null;
  statusChangedAt: string | null;
  statusNote: string | null;
}

function present(row: Row): ExpeditionRequest {
  return {
    id: row.id,
    partner: row.partner,
    method: row.method,
    justification: row.justification,
    status: row.status,
    requestedBy: { id: row.requestedById, name: row.requestedByName },
    requestedAt: row.requestedAt,
    statusChangedBy: row.statusChangedById === null
      ? null
      : { id: row.statusChangedById, name: row.statusChangedByName ?? "" },
    statusChangedAt: row.statusChangedAt,
    statusNote: row.statusNote,
  };
}

async function selectRequests(db: Queryable, where: ReturnType<typeof sql>, limit: number) {
  const rows = await db.all<Row>(sql`SELECT e.id, e.partner, e.method, e.justification, e.status,
      e.requested_by AS requestedById, ${personNameSql("rq")} AS requestedByName, e.requested_at AS requestedAt,
      e.status_changed_by AS statusChangedById, ${personNameSql("sc")} AS statusChangedByName,
      e.status_changed_at AS statusChangedAt, e.status_note AS statusNote
    FROM expedition_requests e
    JOIN users rq ON rq.id = e.requested_by
    LEFT JOIN users sc ON sc.id = e.status_changed_by
    WHERE ${where}
    ORDER BY e.requested_at DESC, e.rowid DESC LIMIT ${limit}`);
  return rows.map(present);
}

export function listExpeditionRequests(db: Queryable): Promise<ExpeditionRequest[]> {
  return selectRequests(db, sql`1 = 1`, EXPEDITION_LIST_LIMIT);
}

async function findRequest(db: Queryable, id: string): Promise<ExpeditionRequest> {
  const [found] = await selectRequests(db, sql`e.id = ${id}`, 1);
  if (found === undefined) throw notFound("Expedition request");
  return found;
}

export async function createExpeditionRequest(
  db: Database,
  actor: Actor,
  input: CreateExpeditionRequestInput,
): Promise<ExpeditionRequest> {
  const id = crypto.randomUUID();
  return await db.transaction(async (tx) => {
    await tx.insert(expeditionRequests).values({
      id,
      partner: input.partner,
      method: input.method,
      justification: input.justification,
      status: "open",
      requestedBy: actor.userId,
      requestedAt: new Date().toISOString(),
    });
    const created = await findRequest(tx, id);
    await recordCreation(tx, actor, EXPEDITION_AUDIT_ENTITY, id, created);
    return created;
  });
}

/** Moves a request on; a move its current status does not allow is a 409 on `status`. */
export async function updateExpeditionStatus(
  db: Database,
  actor: Actor,
  id: string,
  input: UpdateExpeditionStatusInput,
): Promise<ExpeditionRequest> {
  return await db.transaction(async (tx) => {
    const before = await findRequest(tx, id);
    if (!mayMoveExpedition(before.status, input.status)) {
      throw conflict(
        "status",
        `A request that is ${EXPEDITION_STATUS_LABELS[before.status]} cannot become ${
          EXPEDITION_STATUS_LABELS[input.status]
        }`,
      );
    }
    await tx.update(expeditionRequests).set({
      status: input.status,
      statusChangedBy: actor.userId,
      statusChangedAt: new Date().toISOString(),
      statusNote: input.note,
    }).where(eq(expeditionRequests.id, id));
    const after = await findRequest(tx, id);
    await recordAudit(tx, actor, {
      entityType: EXPEDITION_AUDIT_ENTITY,
      entityId: id,
      action: "status_change",
      changes: {
        before: { status: before.status },
        after: { status: after.status, note: after.statusNote },
      },
    });
    return after;
  });
}
