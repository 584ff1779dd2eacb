/**
 * Routing-code assignment: the next serial for a prefix is computed inside the write transaction,
 * so assignments in one process never race. Across processes the transaction (BEGIN IMMEDIATE)
 * serialises them too; the UNIQUE constraint on `code` plus a bounded retry is the last guard.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { institutions, routingCodes } from "../../../../db/schema.ts";
import { nextRoutingCode, ROUTING_CODE_LENGTH, validateRoutingCode } from "../../../domain/routing_code.ts";
import { type Actor, recordCreation } from "../../audit/trail.ts";
import { requireInstitution } from "../institutions/service.ts";
import { EpochCache } from "../../db/change_epochs.ts";
import type { Database, Queryable } from "../../db/database.ts";
import { fromDomainError } from "../../http/errors.ts";
import type { AssignRoutingCodeInput, RoutingCode, RoutingCodeListItem } from "./schemas.ts";

/** Attempts before a lost race on the UNIQUE code gives up (each attempt recomputes the serial). */
export const MAX_ASSIGN_ATTEMPTS = 5;

/** Every code, newest first, with its institution's name so screens show a name rather than an id. */
export async function listRoutingCodes(db: Queryable): Promise<RoutingCodeListItem[]> {
  const rows = await db.select({ code: routingCodes, institutionName: institutions.name }).from(routingCodes)
    .leftJoin(institutions, eq(institutions.id, routingCodes.institutionId))
    .orderBy(desc(routingCodes.createdAt), desc(routingCodes.code)).all();
  return rows.map((row) => ({ ...row.code, institutionName: row.institutionName }));
}

/** Codes kept in memory for the public lookup; past this the oldest is forgotten (and re-read). */
export const MAX_CACHED_ROUTING_CODES = 10_000;

const FIND_BY_CODE_SQL = `SELECT id, institution_id AS institutionId, code, prefix, branch_code AS branchCode,
  description, status, created_at AS createdAt, updated_at AS updatedAt, created_by AS createdBy
  FROM routing_codes WHERE code = ?`;

/**
 * The public API's hottest lookup (GET /api/routing-codes/{code}). A code read once is answered from
 * memory while the routing_codes epoch (src/server/db/change_epochs.ts) has not moved; the epoch is
 * read after the request arrived, so an assignment or change in any process shows at once.
 */
export class RoutingCodeLookup {
  readonly #db: Database;
  readonly #cache = new EpochCache<string, RoutingCode>(MAX_CACHED_ROUTING_CODES);

  constructor(db: Database) {
    this.#db = db;
  }

  async find(code: string): Promise<RoutingCode | undefined> {
    const epoch = (await this.#db.epochs.fresh()).routing_codes;
    const cached = this.#cache.get(code, epoch);
    if (cached !== undefined) return cached;
    const row = await this.#db.statements.get<RoutingCode & { [column: string]: unknown }>(FIND_BY_CODE_SQL, [
      code,
    ]);
    if (row === undefined) return undefined;
    const { id, institutionId, prefix, branchCode, description, status, createdAt, updatedAt, createdBy } =
      row;
    const record: RoutingCode = {
      id,
      institutionId,
      code: row.code,
      prefix,
      branchCode,
      description,
      status,
      createdAt,
      updatedAt,
      createdBy,
    };
    this.#cache.set(code, record, epoch);
    return record;
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
): Promise<RoutingCode> {
  for (let attempt = 1;; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        await requireInstitution(tx, input.institutionId);
        const now = new Date().toISOString();
        const record: RoutingCode = {
          id: crypto.randomUUID(),
          institutionId: input.institutionId,
          code: await nextCodeFor(tx, input.prefix),
          prefix: input.prefix,
          branchCode: input.branchCode,
          description: input.description,
          status: "active",
          createdAt: now,
          updatedAt: now,
          createdBy: actor.userId,
        };
        await tx.insert(routingCodes).values(record);
        await recordCreation(tx, actor, "routing_code", record.id, record);
        return record;
      });
    } catch (error) {
      if (attempt < MAX_ASSIGN_ATTEMPTS && isDuplicateCodeError(error)) continue;
      throw error;
    }
  }
}
