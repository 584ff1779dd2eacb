/**
 * An institution over time (docs/institutions.md, "Institutions over time"): its details and its
 * status change from an effective date, each change a registry version (registry_history/versions.ts)
 * recorded when a second person approves it. Due at once, it is written now; later, the scheduler
 * writes it at its instant and the hook below tells downstream systems then.
 */
import { eq, sql } from "drizzle-orm";
import { institutions } from "../../../../db/schema.ts";
import { effectiveFromOrNow } from "../../registry_history/instants.ts";
import {
  checkStatusTransition,
  type InstitutionLifecycleStatus,
  lifecycleStatus,
} from "../../../domain/institution.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import type { Queryable, Tx } from "../../db/database.ts";
import { publishEvent } from "../../events/outbox.ts";
import { AppError, notFound } from "../../http/errors.ts";
import { onVersionApplied } from "../../registry_history/scheduler.ts";
import { type RegistryVersion, recordVersion, versionAsOf } from "../../registry_history/versions.ts";
import {
  INSTITUTION_EDITABLE_FIELDS,
  type Institution,
  type InstitutionChangeInput,
} from "./schemas.ts";
import { AUDIT_ENTITY_TYPE, getInstitution, type InstitutionRow, requireLeiFree } from "./service.ts";

/** Who asked for a change and who approved it (null while it is only rehearsed at submission). */
export interface ChangePeople {
  requestedBy: string;
  approvedBy: string | null;
  approvalRequestId: string | null;
}

/** The audit action of a change recorded now that takes effect later. */
export const SCHEDULE_CHANGE_ACTION = "schedule_change";
export const NOTHING_CHANGES = "The change sets every field to what it already is";

/** A field error of the request. */
export function fieldError(field: string, message: string): AppError {
  return new AppError("validation", `${field}: ${message}`, { field, fields: { [field]: message } });
}

/** The institution's whole record as in force at `at`: its version then, else its current row; 404 if none. */
export async function recordAt(db: Queryable, id: string, at: string): Promise<InstitutionRow> {
  const version = await versionAsOf(db, "institution", id, at);
  if (version) return version.data as unknown as InstitutionRow;
  const row = await db.select().from(institutions).where(eq(institutions.id, id)).get();
  if (!row) throw notFound("Institution");
  return row;
}

export const statusAt = (record: InstitutionRow, at: string): InstitutionLifecycleStatus =>
  lifecycleStatus(record.status, record.terminatedAt ?? null, at);

/** "name → Acme Bank; lei → none": what a version sets, for the history and the page. */
export function describeChanges(changes: Record<string, unknown>): string {
  return Object.entries(changes)
    .map(([field, value]) => `${field} → ${value === null || value === "" ? "none" : String(value)}`)
    .join("; ");
}

/** The fields of the edit that differ from the record in force at its effective date. */
function changedFields(record: InstitutionRow, input: InstitutionChangeInput): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const field of INSTITUTION_EDITABLE_FIELDS) {
    const value = input[field];
    if (value !== undefined && value !== (record[field] ?? null)) changes[field] = value;
  }
  return changes;
}

/**
 * An edit of an institution's details from its effective date (at once when none or past), with its
 * audit row: "update" when in force now, "schedule_change" when it waits for its date.
 */
export async function applyInstitutionChange(
  tx: Tx,
  actor: Actor,
  id: string,
  input: InstitutionChangeInput,
  people: ChangePeople,
  nowMs: number,
): Promise<{ version: RegistryVersion; institution: Institution }> {
  const validFrom = effectiveFromOrNow(input.effectiveFrom, nowMs);
  const record = await recordAt(tx, id, validFrom);
  if (statusAt(record, validFrom) === "terminated") {
    throw new AppError("conflict", "A terminated institution's details no longer change", { field: "status" });
  }
  const changes = changedFields(record, input);
  if (Object.keys(changes).length === 0) {
    throw fieldError(INSTITUTION_EDITABLE_FIELDS.find((field) => input[field] !== undefined) ?? "name", NOTHING_CHANGES);
  }
  if (typeof changes.lei === "string") await requireLeiFree(tx, changes.lei, id);
  const version = await recordVersion(tx, {
    entityType: "institution",
    entityId: id,
    validFrom,
    changes,
    summary: describeChanges(changes),
    ...people,
  }, nowMs);
  const before = Object.fromEntries(Object.keys(changes).map((field) => [field, record[field as keyof InstitutionRow]]));
  await recordAudit(tx, actor, {
    entityType: AUDIT_ENTITY_TYPE,
    entityId: id,
    action: version.appliedAt === null ? SCHEDULE_CHANGE_ACTION : "update",
    changes: { before, after: changes, effectiveFrom: validFrom, ...(input.reason ? { reason: input.reason } : {}) },
  });
  return { version, institution: (await getInstitution(tx, id))! };
}

/** The refusal of a move the lifecycle does not allow, as before: 409 listing the allowed ones. */
export function refuseTransition(from: InstitutionLifecycleStatus, to: InstitutionLifecycleStatus): void {
  const check = checkStatusTransition(from, to);
  if (check.ok) return;
  const { message, allowed } = check.error;
  throw new AppError("conflict", message, {
    field: "status",
    fields: { status: message },
    extra: { reason: "invalid_transition", from, to, allowed },
  });
}

/** What the status events say about the institution, as it was before the change. */
type EventSubject = Pick<Institution, "id" | "name" | "registrationNumber"> & { status: InstitutionLifecycleStatus };

/**
 * Downstream systems hear of the change when it takes effect (webhooks, docs/webhooks.md): every
 * status change, and a suspension once more as participant_suspended. Webhook-only events: no one's feed.
 */
export async function publishStatusEvents(
  tx: Tx,
  institution: EventSubject,
  to: InstitutionLifecycleStatus,
  reason: string | null,
  changedAt: string,
): Promise<void> {
  const data = {
    institutionId: institution.id,
    name: institution.name,
    registrationNumber: institution.registrationNumber,
    previousStatus: institution.status,
    status: to,
    reason,
    changedAt,
  };
  const link = `/institutions/${institution.id}`;
  const subject = { subjectType: AUDIT_ENTITY_TYPE, subjectId: institution.id, link };
  await publishEvent(tx, {
    kind: "institution_status_changed",
    ...subject,
    summary: `${institution.name} changed from ${institution.status} to ${to}`,
    data,
  });
  if (to === "suspended") {
    await publishEvent(tx, { kind: "participant_suspended", ...subject, summary: `${institution.name} was suspended`, data });
  }
}

/** The reason the approved request gave for the status change, for the events of a scheduled one. */
async function requestedReason(tx: Tx, approvalRequestId: string | null): Promise<string | null> {
  if (approvalRequestId === null) return null;
  const [row] = await tx.all<{ reason: string | null }>(
    sql`SELECT json_extract(payload, '$.reason') AS reason FROM approval_requests WHERE id = ${approvalRequestId}`,
  );
  return row?.reason ?? null;
}

/** A scheduled version of an institution that moves its status publishes the events when it takes effect. */
async function publishWhenApplied(tx: Tx, version: RegistryVersion, before: Record<string, unknown>): Promise<void> {
  const previous = before as unknown as InstitutionRow;
  const after = version.data as unknown as InstitutionRow;
  const from = statusAt(previous, version.validFrom);
  const to = statusAt(after, version.validFrom);
  if (from === to) return;
  const subject = { id: version.entityId, name: after.name, registrationNumber: after.registrationNumber, status: from };
  await publishStatusEvents(tx, subject, to, await requestedReason(tx, version.approvalRequestId), version.validFrom);
}

/** Registered by the institutions routes: the scheduler runs it inside the applying transaction. */
export function registerInstitutionHooks(): void {
  onVersionApplied("institution", publishWhenApplied);
}
