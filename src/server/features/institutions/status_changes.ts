/**
 * An institution's lifecycle with dates (docs/institutions.md): onboarding, suspension (optionally
 * to a date), reactivation and termination, each from an effective date, always approved by a
 * second person. A termination also ends the institution's own routing codes and BICs, each with
 * its successor, and announces their deletion at once, so that the next directory edition flags it.
 */
import { eq, sql } from "drizzle-orm";
import { institutions } from "../../../../db/schema.ts";
import { asciiUpperCase } from "../../../domain/ascii.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import type { Database, Queryable, Tx } from "../../db/database.ts";
import { type RecordData, recordVersion, type RegistryEntityType } from "../../registry_history/versions.ts";
import {
  type ChangePeople,
  fieldError,
  publishStatusEvents,
  recordAt,
  refuseTransition,
  SCHEDULE_CHANGE_ACTION,
  statusAt,
} from "./lifecycle.ts";
import { effectiveFromOrNow } from "../../registry_history/instants.ts";
import type { Institution, StatusChangeInput } from "./schemas.ts";
import { AUDIT_ENTITY_TYPE, getInstitution, type InstitutionRow } from "./service.ts";

export const SUSPENSION_ENDS_BEFORE_START = "A suspension ends after it begins";
export const SUCCESSOR_NOT_FOUND = "Institution not found";
export const SUCCESSOR_IS_ITSELF = "An institution cannot succeed itself";
export const SUCCESSOR_TERMINATED = "The successor is terminated by then";

/** Moves an institution along its lifecycle from a date; a refused move is a 409 listing the allowed ones. */
export function changeInstitutionStatus(
  db: Database,
  actor: Actor,
  id: string,
  input: StatusChangeInput,
  people: ChangePeople,
  nowMs: number,
): Promise<Institution> {
  return db.transaction((tx) => applyStatusChange(tx, actor, id, input, people, nowMs));
}

/** The status change itself, inside the caller's transaction, with its audit row and (when in force now) its events. */
export async function applyStatusChange(
  tx: Tx,
  actor: Actor,
  id: string,
  input: StatusChangeInput,
  people: ChangePeople,
  nowMs: number,
): Promise<Institution> {
  const validFrom = effectiveFromOrNow(input.effectiveFrom, nowMs);
  const record = await recordAt(tx, id, validFrom);
  const from = statusAt(record, validFrom);
  refuseTransition(from, input.status);
  const until = input.until === undefined ? null : effectiveFromOrNow(input.until, nowMs, "until");
  if (until !== null && until <= validFrom) throw fieldError("until", SUSPENSION_ENDS_BEFORE_START);
  const reason = input.reason ?? null;
  if (input.status === "terminated") {
    await terminate(tx, id, record, input, validFrom, people, nowMs);
  } else {
    const version = { entityType: "institution" as const, entityId: id, ...people };
    const summary = `status → ${input.status}${reason ? `: ${reason}` : ""}`;
    await recordVersion(tx, { ...version, validFrom, changes: { status: input.status }, summary }, nowMs);
    if (until !== null) {
      const ending = { status: "active" };
      await recordVersion(tx, { ...version, validFrom: until, changes: ending, summary: "status → active: the suspension ends" }, nowMs);
    }
  }
  const due = validFrom <= new Date(nowMs).toISOString();
  await recordAudit(tx, actor, {
    entityType: AUDIT_ENTITY_TYPE,
    entityId: id,
    action: due ? "status_change" : SCHEDULE_CHANGE_ACTION,
    changes: {
      before: { status: from },
      after: { status: input.status, ...(input.successorId ? { successorId: input.successorId } : {}) },
      ...(reason ? { reason } : {}),
      ...(due ? {} : { effectiveFrom: validFrom }),
      ...(until !== null ? { until } : {}),
    },
  });
  if (due) {
    const subject = { id, name: record.name, registrationNumber: record.registrationNumber, status: from };
    await publishStatusEvents(tx, subject, input.status, reason, validFrom);
  }
  return (await getInstitution(tx, id))!;
}

/** The successor institution's name: another one that exists and is not terminated by `at`. */
async function requireSuccessor(tx: Queryable, id: string, successorId: string, at: string): Promise<string> {
  if (successorId === id) throw fieldError("successorId", SUCCESSOR_IS_ITSELF);
  const exists = await tx.select({ id: institutions.id }).from(institutions).where(eq(institutions.id, successorId)).get();
  if (!exists) throw fieldError("successorId", SUCCESSOR_NOT_FOUND);
  const successor = await recordAt(tx, successorId, at);
  if (statusAt(successor, at) === "terminated") throw fieldError("successorId", SUCCESSOR_TERMINATED);
  return successor.name;
}

/** A record a termination ends, with the fields its termination version sets besides terminatedAt. */
interface Ending {
  entityType: RegistryEntityType;
  entityId: string;
  label: string;
  deletionAnnouncedAt: string | null;
  successor: RecordData;
  /** The successor as the history names it. */
  successorLabel: string | null;
}

/** The institution's own codes a termination ends, per kind: where they are kept and how their successor is named. */
const CODE_KINDS = [
  {
    entityType: "routing_code",
    table: "routing_codes",
    column: "code",
    given: "routingCodes",
    field: "codeSuccessors.routingCodes",
    successorKey: "successorCode",
  },
  {
    entityType: "swift_code",
    table: "swift_codes",
    column: "bic_code",
    given: "bics",
    field: "codeSuccessors.bics",
    successorKey: "successorBic",
  },
] as const;

type CodeKind = typeof CODE_KINDS[number];

/**
 * One kind of the institution's codes still in use, each with its successor: every named code must
 * be one of them, and every successor another code of that kind in the registry (400 on the field).
 */
async function endingsOfKind(tx: Queryable, id: string, kind: CodeKind, input: StatusChangeInput): Promise<Ending[]> {
  const table = sql.raw(kind.table);
  const column = sql.raw(kind.column);
  const own = await tx.all<{ id: string; code: string; deletionAnnouncedAt: string | null }>(sql`SELECT id,
    ${column} AS code, deletion_announced_at AS deletionAnnouncedAt FROM ${table}
    WHERE institution_id = ${id} AND terminated_at IS NULL`);
  const codes = own.map((row) => row.code);
  const named = new Map(
    Object.entries(input.codeSuccessors?.[kind.given] ?? {}).map(([code, next]) => [asciiUpperCase(code), asciiUpperCase(next)]),
  );
  for (const [code, next] of named) {
    if (!codes.includes(code)) throw fieldError(kind.field, `${code} is not a code of this institution in use`);
    if (codes.includes(next)) throw fieldError(kind.field, `${next} ends with this institution: it cannot succeed ${code}`);
  }
  const wanted = [...new Set(named.values())];
  const found = wanted.length === 0 ? [] : (await tx.all<{ code: string }>(sql`SELECT ${column} AS code FROM ${table}
    WHERE ${column} IN (${sql.join(wanted.map((code) => sql`${code}`), sql`, `)})`)).map((row) => row.code);
  const missing = wanted.find((next) => !found.includes(next));
  if (missing !== undefined) throw fieldError(kind.field, `${missing} is not in the registry`);
  return own.map((row) => ({
    entityType: kind.entityType,
    entityId: row.id,
    label: row.code,
    deletionAnnouncedAt: row.deletionAnnouncedAt,
    successor: { [kind.successorKey]: named.get(row.code) ?? null },
    successorLabel: named.get(row.code) ?? null,
  }));
}

/** The institution's routing codes and BICs still in use, each with its successor, checked. */
async function codeEndings(tx: Queryable, id: string, input: StatusChangeInput): Promise<Ending[]> {
  const endings: Ending[] = [];
  for (const kind of CODE_KINDS) endings.push(...await endingsOfKind(tx, id, kind, input));
  return endings;
}

/**
 * Versions that end the institution and its codes at `validFrom` (with their successors), and
 * announce their deletion now: in the same version when the termination is at once.
 */
async function terminate(
  tx: Tx,
  id: string,
  record: InstitutionRow,
  input: StatusChangeInput,
  validFrom: string,
  people: ChangePeople,
  nowMs: number,
): Promise<void> {
  const successorId = input.successorId ?? null;
  const successorName = successorId === null ? null : await requireSuccessor(tx, id, successorId, validFrom);
  const endings: Ending[] = [{
    entityType: "institution",
    entityId: id,
    label: record.name,
    deletionAnnouncedAt: record.deletionAnnouncedAt ?? null,
    successor: { successorId },
    successorLabel: successorName,
  }, ...await codeEndings(tx, id, input)];
  const nowIso = new Date(nowMs).toISOString();
  const date = validFrom.slice(0, 10);
  for (const ending of endings) {
    const base = { entityType: ending.entityType, entityId: ending.entityId, ...people };
    const changes: RecordData = { terminatedAt: validFrom, ...ending.successor };
    if (ending.deletionAnnouncedAt === null && validFrom > nowIso) {
      const summary = `deletion announced: ${ending.label} ends on ${date}`;
      await recordVersion(tx, { ...base, validFrom: nowIso, changes: { deletionAnnouncedAt: nowIso }, summary }, nowMs);
    } else if (ending.deletionAnnouncedAt === null) {
      changes.deletionAnnouncedAt = nowIso;
    }
    const summary = `terminated${ending.successorLabel ? `; successor ${ending.successorLabel}` : ""}`;
    await recordVersion(tx, { ...base, validFrom, changes, summary }, nowMs);
  }
}
