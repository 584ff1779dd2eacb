/**
 * Routing-code assignment: the next serial for a prefix is computed inside the write transaction,
 * so assignments in one process never race. Across processes the transaction (BEGIN IMMEDIATE)
 * serialises them too; the UNIQUE constraint on `code` plus a bounded retry is the last guard.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { institutions, registryVersions, routingCodes } from "../../../../db/schema.ts";
import { activationVersion } from "../../../domain/code_lifecycle.ts";
import { nextRoutingCode, ROUTING_CODE_LENGTH, validateRoutingCode } from "../../../domain/routing_code.ts";
import { type Actor, recordCreation } from "../../audit/trail.ts";
import { requireInstitution } from "../institutions/service.ts";
import { EpochCache } from "../../db/change_epochs.ts";
import type { Database, Queryable } from "../../db/database.ts";
import type { Statements } from "../../db/statements.ts";
import { fromDomainError } from "../../http/errors.ts";
import { codeAnswerAt, pendingChangesOf, recordCreationVersions } from "../../registry_history/code_changes.ts";
import { effectiveFromOrNow } from "../../registry_history/instants.ts";
import { inForceAt, type RecordData } from "../../registry_history/versions.ts";
import {
  type AssignRoutingCodeInput,
  type RoutingCode,
  type RoutingCodeListItem,
  type RoutingCodeLookupAnswer,
  routingCodeSchema,
} from "./schemas.ts";

/** Attempts before a lost race on the UNIQUE code gives up (each attempt recomputes the serial). */
export const MAX_ASSIGN_ATTEMPTS = 5;

/** Every code as in force at `asOf` (now when null), newest first, with its institution's name and changes still to come. */
export async function listRoutingCodes(
  db: Queryable,
  asOf: string | null,
  nowIso: string,
): Promise<RoutingCodeListItem[]> {
  const rows = asOf === null
    ? await db.select({ data: routingCodes, institutionName: institutions.name }).from(routingCodes)
      .leftJoin(institutions, eq(institutions.id, routingCodes.institutionId)).all()
    : await db.select({ data: registryVersions.data, institutionName: institutions.name }).from(registryVersions)
      .leftJoin(institutions, eq(institutions.id, sql`json_extract(${registryVersions.data}, '$.institutionId')`))
      .where(inForceAt("routing_code", asOf)).all();
  const pending = await pendingChangesOf(db, "routing_code");
  return rows.map((row) => {
    const record = routingCodeView(row.data as RecordData, asOf ?? nowIso);
    return { ...record, institutionName: row.institutionName, pendingChanges: pending.get(record.id) ?? [] };
  }).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.code.localeCompare(a.code));
}

/** Codes kept in memory for the public lookup; past this the oldest is forgotten (and re-read). */
export const MAX_CACHED_ROUTING_CODES = 10_000;

const FIND_BY_CODE_SQL = `SELECT id, institution_id AS institutionId, code, prefix, branch_code AS branchCode,
  description, status, created_at AS createdAt, updated_at AS updatedAt, created_by AS createdBy,
  successor_code AS successorCode, terminated_at AS terminatedAt, deletion_announced_at AS deletionAnnouncedAt
  FROM routing_codes WHERE code = ?`;

/** The version of a code in force at an instant, and when that version ends (null: not yet known to end). */
const VERSION_AT_SQL = `SELECT r.created_at AS createdAt, v.data AS data, v.valid_to AS validTo
  FROM routing_codes r LEFT JOIN registry_versions v ON v.seq = (
    SELECT seq FROM registry_versions WHERE entity_type = 'routing_code' AND entity_id = r.id AND valid_from <= ?
    ORDER BY valid_from DESC, seq DESC LIMIT 1)
  WHERE r.code = ?`;

const ROUTING_CODE_FIELDS = Object.keys(routingCodeSchema.shape);

/** A code's answer from its whole record (a version's data or the current row) as read at `at`. */
export function routingCodeView(data: RecordData, at: string): RoutingCode {
  return codeAnswerAt<RoutingCode>(ROUTING_CODE_FIELDS, data, at);
}

interface ResolvedCode {
  record: RoutingCode;
  /** When the version read ends: the answer holds until then (null: until a change is recorded). */
  until: string | null;
}

/** The code as in force at `at`; undefined when it does not exist or was not yet registered then. */
async function resolveAt(statements: Statements, code: string, at: string): Promise<ResolvedCode | undefined> {
  const row = await statements.get<{ createdAt: string; data: string | null; validTo: string | null }>(
    VERSION_AT_SQL,
    [at, code],
  );
  if (row === undefined) return undefined;
  if (row.data !== null) return { record: routingCodeView(JSON.parse(row.data), at), until: row.validTo };
  // A row from before versions existed (headquarters gives it its first version at start).
  if (row.createdAt > at) return undefined;
  const current = await statements.get<RecordData>(FIND_BY_CODE_SQL, [code]);
  return current && { record: routingCodeView(current, at), until: null };
}

const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null || a < b ? a : b);

/** A lookup at `at`: the code, and for a terminated one its successor as of the same instant. */
export async function lookupRoutingCodeAt(
  statements: Statements,
  code: string,
  at: string,
): Promise<{ answer: RoutingCodeLookupAnswer; until: string | null } | undefined> {
  const found = await resolveAt(statements, code, at);
  if (found === undefined) return undefined;
  const { record } = found;
  if (record.status !== "terminated" || record.successorCode === null) {
    return { answer: { ...record, successor: null }, until: found.until };
  }
  const next = await resolveAt(statements, record.successorCode, at);
  const successor = next === undefined
    ? null
    : { code: next.record.code, institutionId: next.record.institutionId, status: next.record.status };
  return { answer: { ...record, successor }, until: earlier(found.until, next?.until ?? null) };
}

/**
 * The public API's hottest lookup (GET /api/routing-codes/{code}). A code read once is answered from
 * memory while the routing_codes epoch (src/server/db/change_epochs.ts) has not moved and the version
 * it came from is still in force: the epoch moves with every change and every version recorded, in
 * any process, and an entry never outlives its version's validTo, so a change due at an instant is
 * answered from that instant on, on every node, before headquarters' scheduler has written it.
 */
export class RoutingCodeLookup {
  readonly #db: Database;
  readonly #clock: { now(): number };
  readonly #cache = new EpochCache<string, { answer: RoutingCodeLookupAnswer; until: string | null }>(
    MAX_CACHED_ROUTING_CODES,
  );

  constructor(db: Database, clock: { now(): number }) {
    this.#db = db;
    this.#clock = clock;
  }

  /** The code as in force at `asOf`, or now when absent. */
  async find(code: string, asOf: string | null = null): Promise<RoutingCodeLookupAnswer | undefined> {
    if (asOf !== null) return (await lookupRoutingCodeAt(this.#db.statements, code, asOf))?.answer;
    const epoch = (await this.#db.epochs.fresh()).routing_codes;
    const now = new Date(this.#clock.now()).toISOString();
    const cached = this.#cache.get(code, epoch);
    if (cached !== undefined && (cached.until === null || now < cached.until)) return cached.answer;
    const found = await lookupRoutingCodeAt(this.#db.statements, code, now);
    if (found === undefined) return undefined;
    this.#cache.set(code, found, epoch);
    return found.answer;
  }
}

/** The highest serial assigned under `prefix`, null when none; `(prefix, code)` is indexed. */
async function highestSerialUsed(db: Queryable, prefix: string): Promise<number | null> {
  const row = await db.select({ code: routingCodes.code }).from(routingCodes)
    .where(and(eq(routingCodes.prefix, prefix), sql`length(${routingCodes.code}) = ${ROUTING_CODE_LENGTH}`))
    .orderBy(desc(routingCodes.code)).limit(1).get();
  if (row === undefined) return null;
  const parsed = validateRoutingCode(row.code);
  if (!parsed.ok) throw new Error(`stored routing code ${row.code} is invalid: ${parsed.error.message}`);
  return parsed.value.serial;
}

async function nextCodeFor(db: Queryable, prefix: string): Promise<string> {
  const next = nextRoutingCode(prefix, await highestSerialUsed(db, prefix));
  if (!next.ok) throw fromDomainError({ ...next.error, field: "prefix" });
  return next.value.code;
}

/** The code the next assignment for `prefix` would get now; nothing is reserved. */
export function previewRoutingCode(db: Queryable, prefix: string): Promise<string> {
  return nextCodeFor(db, prefix);
}

function isDuplicateCodeError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : "";
  return text.includes("UNIQUE constraint failed: routing_codes.code");
}

export async function assignRoutingCode(
  db: Database,
  actor: Actor,
  input: AssignRoutingCodeInput,
  nowMs: number,
): Promise<RoutingCode> {
  const now = new Date(nowMs).toISOString();
  const effectiveFrom = effectiveFromOrNow(input.effectiveFrom, nowMs);
  const later = effectiveFrom > now;
  for (let attempt = 1;; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        await requireInstitution(tx, input.institutionId);
        const id = crypto.randomUUID();
        await tx.insert(routingCodes).values({
          id,
          institutionId: input.institutionId,
          code: await nextCodeFor(tx, input.prefix),
          prefix: input.prefix,
          branchCode: input.branchCode,
          description: input.description,
          // Registered for later: not in force before its date (docs/codes.md).
          status: later ? "inactive" : "active",
          createdAt: now,
          updatedAt: now,
          createdBy: actor.userId,
        });
        const row = (await tx.select().from(routingCodes).where(eq(routingCodes.id, id)).get())!;
        const activation = later ? activationVersion("status", "active", effectiveFrom) : null;
        const people = { requestedBy: actor.userId, approvedBy: null };
        await recordCreationVersions(tx, "routing_code", row, activation, people, nowMs);
        const record = routingCodeView(row, now);
        await recordCreation(tx, actor, "routing_code", id, record);
        return record;
      });
    } catch (error) {
      if (attempt < MAX_ASSIGN_ATTEMPTS && isDuplicateCodeError(error)) continue;
      throw error;
    }
  }
}
