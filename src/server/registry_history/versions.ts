/**
 * The registry over time (docs/directory.md): every change to an institution, routing code, BIC or
 * national routing entry is a version in force from an instant. A version due now is written into
 * the record's current table in the same transaction; a later one waits for the scheduler
 * (scheduler.ts). Features record their changes here and read `asOf` through here; the current
 * tables stay what lists, search and caches read for "now".
 */
import { and, asc, desc, eq, isNull, lte, sql } from "drizzle-orm";
import {
  institutions,
  nationalRoutingRegistry,
  REGISTRY_ENTITY_TYPES,
  registryVersions,
  routingCodes,
  swiftCodes,
  users,
} from "../../../db/schema.ts";
import type { Queryable, Tx } from "../db/database.ts";
import { compareVersions } from "../../domain/effective_dating.ts";

export type RegistryEntityType = typeof REGISTRY_ENTITY_TYPES[number];

/** The current table of each kind of record; a version's keys are the table's Drizzle property names. */
export const REGISTRY_TABLES = {
  institution: institutions,
  routing_code: routingCodes,
  swift_code: swiftCodes,
  national_routing_entry: nationalRoutingRegistry,
} as const;

export type RecordData = Record<string, unknown>;

export interface RegistryVersion {
  seq: number;
  entityType: RegistryEntityType;
  entityId: string;
  validFrom: string;
  validTo: string | null;
  data: RecordData;
  changes: RecordData;
  summary: string;
  requestedBy: string | null;
  approvedBy: string | null;
  approvalRequestId: string | null;
  appliedAt: string | null;
  createdAt: string;
}

export interface VersionInput {
  entityType: RegistryEntityType;
  entityId: string;
  /** ISO instant (domain/effective_dating.ts effectiveInstant); at or before now means at once. */
  validFrom: string;
  /** The fields this version sets, by Drizzle property name ("name", "status", "successorKey"). */
  changes: RecordData;
  /** What changes, for the history and the audit trail: "name → Acme Bank". */
  summary: string;
  requestedBy: string | null;
  approvedBy: string | null;
  approvalRequestId?: string | null;
}

export interface RecordOptions {
  /** The caller has already written the current row (a creation): only the version is recorded. */
  alreadyApplied?: boolean;
}

/**
 * Records a version inside the caller's transaction. Its whole record is the record in force just
 * before it plus its changes; versions scheduled after it are folded again so that they carry it.
 * Due at once (validFrom ≤ now): its changes are written into the current table now.
 */
export async function recordVersion(
  tx: Tx,
  input: VersionInput,
  nowMs: number,
  options: RecordOptions = {},
): Promise<RegistryVersion> {
  const existing = await versionsOf(tx, input.entityType, input.entityId);
  const base = await baseRecord(tx, input, existing);
  const nowIso = new Date(nowMs).toISOString();
  const due = input.validFrom <= nowIso;
  const next = existing.find((version) => version.validFrom > input.validFrom) ?? null;
  const inserted = await tx.insert(registryVersions).values({
    entityType: input.entityType,
    entityId: input.entityId,
    validFrom: input.validFrom,
    validTo: next?.validFrom ?? null,
    data: { ...base, ...input.changes },
    changes: input.changes,
    summary: input.summary,
    requestedBy: input.requestedBy,
    approvedBy: input.approvedBy,
    approvalRequestId: input.approvalRequestId ?? null,
    appliedAt: due ? nowIso : null,
    createdAt: nowIso,
  }).returning().get();
  const version = inserted as RegistryVersion;
  await closePrevious(tx, existing, version);
  await refoldLater(tx, existing, version);
  if (due && !options.alreadyApplied) await writeCurrent(tx, input.entityType, input.entityId, input.changes, input.validFrom);
  return version;
}

/** The record in force just before a new version: the latest earlier version, else the current row. */
async function baseRecord(tx: Tx, input: VersionInput, existing: RegistryVersion[]): Promise<RecordData> {
  const before = existing.filter((version) => version.validFrom <= input.validFrom).at(-1);
  if (before) return before.data;
  const table = REGISTRY_TABLES[input.entityType];
  const row = await tx.select().from(table).where(eq(table.id, input.entityId)).get();
  return (row ?? {}) as RecordData;
}

async function closePrevious(tx: Tx, existing: RegistryVersion[], version: RegistryVersion): Promise<void> {
  const previous = existing.filter((other) => other.validFrom <= version.validFrom).at(-1);
  if (!previous) return;
  await tx.update(registryVersions).set({ validTo: version.validFrom })
    .where(eq(registryVersions.seq, previous.seq));
}

async function refoldLater(tx: Tx, existing: RegistryVersion[], version: RegistryVersion): Promise<void> {
  let current = version.data;
  for (const later of existing.filter((other) => other.validFrom > version.validFrom)) {
    current = { ...current, ...later.changes };
    await tx.update(registryVersions).set({ data: current }).where(eq(registryVersions.seq, later.seq));
  }
}

/** Writes a version's changes into the record's current table, stamped with the instant it took effect. */
export async function writeCurrent(
  tx: Tx,
  entityType: RegistryEntityType,
  entityId: string,
  changes: RecordData,
  at: string,
): Promise<void> {
  const table = REGISTRY_TABLES[entityType];
  const stamped: RecordData = { ...changes };
  if (entityType === "national_routing_entry") stamped.lastRegistryUpdate = at;
  else stamped.updatedAt = at;
  delete stamped.id;
  // deno-lint-ignore no-explicit-any
  await tx.update(table).set(stamped as any).where(eq(table.id, entityId));
}

/** Every version of one record, oldest first. */
export async function versionsOf(
  db: Queryable,
  entityType: RegistryEntityType,
  entityId: string,
): Promise<RegistryVersion[]> {
  const rows = await db.select().from(registryVersions)
    .where(and(eq(registryVersions.entityType, entityType), eq(registryVersions.entityId, entityId)))
    .orderBy(asc(registryVersions.validFrom), asc(registryVersions.seq)).all();
  return (rows as RegistryVersion[]).sort(compareVersions);
}

/** The version of one record in force at `at` (ISO instant), or undefined before it existed. */
export async function versionAsOf(
  db: Queryable,
  entityType: RegistryEntityType,
  entityId: string,
  at: string,
): Promise<RegistryVersion | undefined> {
  const row = await db.select().from(registryVersions)
    .where(and(
      eq(registryVersions.entityType, entityType),
      eq(registryVersions.entityId, entityId),
      lte(registryVersions.validFrom, at),
    ))
    .orderBy(desc(registryVersions.validFrom), desc(registryVersions.seq)).limit(1).get();
  return row as RegistryVersion | undefined;
}

/** The condition "in force at `at`" on registry_versions, for list queries that add their own filters. */
export function inForceAt(entityType: RegistryEntityType, at: string) {
  return and(
    eq(registryVersions.entityType, entityType),
    lte(registryVersions.validFrom, at),
    sql`(${registryVersions.validTo} IS NULL OR ${registryVersions.validTo} > ${at})`,
  )!;
}

/** Every record of a kind as in force at `at`, as whole records (editions read the registry this way). */
export async function recordsAsOf(db: Queryable, entityType: RegistryEntityType, at: string): Promise<RecordData[]> {
  const rows = await db.select({ data: registryVersions.data }).from(registryVersions)
    .where(inForceAt(entityType, at)).all();
  return rows.map((row) => row.data as RecordData);
}

/** Versions not yet in force, soonest first: what the record page shows beside the current state. */
export async function scheduledVersionsOf(
  db: Queryable,
  entityType: RegistryEntityType,
  entityId: string,
): Promise<RegistryVersion[]> {
  const rows = await db.select().from(registryVersions)
    .where(and(
      eq(registryVersions.entityType, entityType),
      eq(registryVersions.entityId, entityId),
      isNull(registryVersions.appliedAt),
    ))
    .orderBy(asc(registryVersions.validFrom), asc(registryVersions.seq)).all();
  return rows as RegistryVersion[];
}

export interface HistoryEntry {
  seq: number;
  validFrom: string;
  validTo: string | null;
  summary: string;
  changes: RecordData;
  requestedBy: { id: string; name: string } | null;
  approvedBy: { id: string; name: string } | null;
  approvalRequestId: string | null;
  /** False while the version is still to come. */
  inForce: boolean;
  recordedAt: string;
}

/** A record's history for people: every version with who requested and who approved it, newest first. */
export async function historyOf(
  db: Queryable,
  entityType: RegistryEntityType,
  entityId: string,
): Promise<HistoryEntry[]> {
  const versions = await versionsOf(db, entityType, entityId);
  const ids = [...new Set(versions.flatMap((v) => [v.requestedBy, v.approvedBy]).filter((id) => id !== null))];
  const people = ids.length === 0 ? [] : await db.select({
    id: users.id,
    firstName: users.firstName,
    lastName: users.lastName,
    email: users.email,
  }).from(users).where(sql`${users.id} IN ${ids}`).all();
  const nameOf = (id: string | null) => {
    const person = people.find((candidate) => candidate.id === id);
    if (!person) return null;
    const name = [person.firstName, person.lastName].filter(Boolean).join(" ");
    return { id: person.id, name: name || person.email || person.id };
  };
  return versions.reverse().map((version) => ({
    seq: version.seq,
    validFrom: version.validFrom,
    validTo: version.validTo,
    summary: version.summary,
    changes: version.changes,
    requestedBy: nameOf(version.requestedBy),
    approvedBy: nameOf(version.approvedBy),
    approvalRequestId: version.approvalRequestId,
    inForce: version.appliedAt !== null,
    recordedAt: version.createdAt,
  }));
}

/** Versions due by `at` that the scheduler has not written yet, soonest first, at most `limit`. */
export async function dueVersions(db: Queryable, at: string, limit: number): Promise<RegistryVersion[]> {
  const rows = await db.select().from(registryVersions)
    .where(and(isNull(registryVersions.appliedAt), lte(registryVersions.validFrom, at)))
    .orderBy(asc(registryVersions.validFrom), asc(registryVersions.seq)).limit(limit).all();
  return rows as RegistryVersion[];
}
