/**
 * What routing codes, BICs and national routing entries share over time (docs/codes.md): the dated
 * versions a creation or a status change records, and how a code's lifecycle reads at an instant (the
 * instants themselves are instants.ts). Each feature keeps its own table and rules beside this.
 */
import { and, asc, eq, isNull, lte, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { registryVersions } from "../../../db/schema.ts";
import { MAX_REASON_LENGTH } from "../../domain/approval.ts";
import {
  CODE_LIFECYCLE_STATUSES,
  type CodeLifecycleStatus,
  type CodeState,
  codeStatusAt,
  instantLabel,
  planCodeStatusChange,
  type PlannedVersion,
} from "../../domain/code_lifecycle.ts";
import { type Actor, recordAudit } from "../audit/trail.ts";
import { fromDomainError } from "../http/errors.ts";
import { requiredEnum, requiredText } from "../http/validation.ts";
import type { Queryable, Tx } from "../db/database.ts";
import { effectiveFromOrNow, instantField } from "./instants.ts";
import { type RecordData, recordVersion, type RegistryEntityType, versionAsOf } from "./versions.ts";

/** A code's status change request, besides its successor field (successorCode, successorBic). */
export const codeStatusChangeFields = {
  status: requiredEnum(CODE_LIFECYCLE_STATUSES),
  effectiveFrom: instantField,
  /** When a suspension ends. */
  until: instantField,
  reason: requiredText(MAX_REASON_LENGTH),
};

/** A change still to come, beside the record in lists: "from 2027-03-01: Status active → suspended". */
export const pendingChangeSchema = z.object({ validFrom: z.string(), summary: z.string() });
export type PendingChange = z.infer<typeof pendingChangeSchema>;

/** Who stands behind a version: the maker, and the second person when four-eyes. */
export interface VersionPeople {
  requestedBy: string | null;
  approvedBy: string | null;
  approvalRequestId?: string | null;
}

/** Records each planned version in order, inside the caller's transaction. */
export async function recordPlanned(
  tx: Tx,
  entityType: RegistryEntityType,
  entityId: string,
  plans: readonly PlannedVersion[],
  people: VersionPeople,
  nowMs: number,
): Promise<void> {
  for (const plan of plans) {
    await recordVersion(tx, { entityType, entityId, ...plan, ...people }, nowMs);
  }
}

/**
 * A creation's versions: the row as inserted (already written, in force from now), then, when the
 * record takes effect later, the version that switches it on at that date.
 */
export async function recordCreationVersions(
  tx: Tx,
  entityType: RegistryEntityType,
  row: RecordData & { id: string },
  activation: PlannedVersion | null,
  people: VersionPeople,
  nowMs: number,
): Promise<void> {
  const validFrom = new Date(nowMs).toISOString();
  await recordVersion(
    tx,
    {
      entityType,
      entityId: row.id,
      validFrom,
      changes: row,
      summary: activation === null ? "Registered" : "Registered, not yet in force",
      ...people,
    },
    nowMs,
    { alreadyApplied: true },
  );
  if (activation !== null) await recordPlanned(tx, entityType, row.id, [activation], people, nowMs);
}

/** The lifecycle fields every code answer carries, read at `at`. */
export interface CodeLifecycleView {
  status: string;
  terminatedAt: string | null;
  deletionAnnouncedAt: string | null;
  deletionAnnounced: boolean;
}

/** A code's answer from its whole record as read at `at`: the answer's fields (absent ones null) and its lifecycle then. */
export function codeAnswerAt<Answer>(fields: readonly string[], data: RecordData, at: string): Answer {
  const answer: RecordData = {};
  for (const field of fields) answer[field] = data[field] ?? null;
  return { ...answer, ...lifecycleAt(data, at) } as Answer;
}

export function lifecycleAt(data: RecordData, at: string): CodeLifecycleView {
  const terminatedAt = (data.terminatedAt as string | null | undefined) ?? null;
  const deletionAnnouncedAt = (data.deletionAnnouncedAt as string | null | undefined) ?? null;
  return {
    status: codeStatusAt({ status: String(data.status), terminatedAt }, at),
    terminatedAt,
    deletionAnnouncedAt,
    deletionAnnounced: deletionAnnouncedAt !== null && deletionAnnouncedAt <= at,
  };
}

/** The changes of every record of a kind still to come, soonest first, by record id. */
export async function pendingChangesOf(
  db: Queryable,
  entityType: RegistryEntityType,
): Promise<Map<string, PendingChange[]>> {
  const rows = await db.select({
    entityId: registryVersions.entityId,
    validFrom: registryVersions.validFrom,
    summary: registryVersions.summary,
  }).from(registryVersions)
    .where(and(eq(registryVersions.entityType, entityType), isNull(registryVersions.appliedAt)))
    .orderBy(asc(registryVersions.validFrom), asc(registryVersions.seq)).all();
  const byId = new Map<string, PendingChange[]>();
  for (const row of rows) {
    const list = byId.get(row.entityId) ?? [];
    list.push({ validFrom: row.validFrom, summary: row.summary });
    byId.set(row.entityId, list);
  }
  return byId;
}

/** A code's status change as requested, its successor field named by the feature. */
export interface CodeStatusRequest {
  status: CodeLifecycleStatus;
  effectiveFrom: string | null;
  until: string | null;
  successor: string | null;
  reason: string;
}

export interface CodeStatusTarget {
  entityType: "routing_code" | "swift_code";
  /** The record's id and its state in force when the change takes effect. */
  id: string;
  state: CodeState;
  /** The request's name for the successor: successorCode or successorBic. */
  successorField: "successorCode" | "successorBic";
}

/**
 * Records the versions of a code's status change (domain/code_lifecycle.ts decides them) and its
 * audit row, inside the caller's transaction. `effectiveFrom` is the instant already bounded.
 */
export async function recordCodeStatusChange(
  tx: Tx,
  actor: Actor,
  target: CodeStatusTarget,
  request: CodeStatusRequest & { effectiveFrom: string },
  people: VersionPeople,
  nowMs: number,
): Promise<void> {
  // A suspension's end is bounded like any instant a change takes effect at.
  if (request.until !== null) effectiveFromOrNow(request.until, nowMs, "until");
  const plan = planCodeStatusChange(
    target.state,
    request,
    target.successorField,
    new Date(nowMs).toISOString(),
  );
  if (!plan.ok) {
    const field = plan.error.field === "successor" ? target.successorField : plan.error.field;
    throw fromDomainError({ ...plan.error, field });
  }
  await recordPlanned(tx, target.entityType, target.id, plan.value, people, nowMs);
  await recordAudit(tx, actor, {
    entityType: target.entityType,
    entityId: target.id,
    action: "status_change",
    changes: {
      before: { status: target.state.status },
      after: { status: request.status },
      effectiveFrom: request.effectiveFrom,
      until: request.until,
      [target.successorField]: request.successor,
      reason: request.reason,
      versions: plan.value.map((version) => ({ validFrom: version.validFrom, summary: version.summary })),
    },
  });
}

/** What the approval queue shows of a code's status change: one sentence and its parts. */
export function codeChangeSummary(
  noun: string,
  key: string,
  statusBefore: string,
  request: CodeStatusRequest,
) {
  const when = request.effectiveFrom === null ? "at once" : `from ${instantLabel(request.effectiveFrom)}`;
  const until = request.until === null ? "" : ` until ${instantLabel(request.until)}`;
  const successor = request.successor === null ? "" : `, succeeded by ${request.successor}`;
  return {
    description:
      `Change the status of ${noun} ${key} from ${statusBefore} to ${request.status} ${when}${until}${successor}: ${request.reason}`,
    code: {
      key,
      statusBefore,
      statusAfter: request.status,
      effectiveFrom: request.effectiveFrom,
      until: request.until,
      successor: request.successor,
    },
  };
}

/** "Registered by `asOf`" on a code table's id column, for searches as of an instant; none without one. */
export function registeredBy(
  idColumn: SQLiteColumn,
  entityType: RegistryEntityType,
  asOf: string | null,
): SQL | undefined {
  if (asOf === null) return undefined;
  return sql`EXISTS (SELECT 1 FROM ${registryVersions} WHERE ${
    and(eq(registryVersions.entityType, entityType), lte(registryVersions.validFrom, asOf))
  } AND ${registryVersions.entityId} = ${idColumn})`;
}

/**
 * Search results (current rows) as in force at `asOf`, with their lifecycle read then; without
 * `asOf` the current rows are read at `nowIso`, so that a terminated code shows so in both.
 */
export async function codesAsOf(
  db: Queryable,
  entityType: "routing_code" | "swift_code",
  rows: readonly { id: string }[],
  asOf: string | null,
  nowIso: string,
): Promise<(RecordData & CodeLifecycleView)[]> {
  return await Promise.all(rows.map(async (row) => {
    const current = row as RecordData;
    const data = asOf === null ? current : (await versionAsOf(db, entityType, row.id, asOf))?.data ?? current;
    return { ...data, ...lifecycleAt(data, asOf ?? nowIso) };
  }));
}
