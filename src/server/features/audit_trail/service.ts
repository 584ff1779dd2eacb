/**
 * The audit trail viewer: events filtered by actor, entity, action and date range,
 * paginated on the server, and the state of the hash chain (src/server/audit/trail.ts) and of the
 * node's signed checkpoints (src/server/audit/checkpoints.ts).
 */
import { type SQL, sql } from "drizzle-orm";
import { type CheckpointTarget, verifyAuditCheckpoints } from "../../audit/checkpoints.ts";
import { type ChainVerification, registeredChainKey, verifyAuditChain } from "../../audit/trail.ts";
import type { Queryable } from "../../db/database.ts";
import { orderBySql } from "../../http/list_sorting.ts";
import { auditSentence, type SentencePart } from "../../../domain/audit_phrases.ts";
import { auditFactsOf, type NamedRow } from "./names.ts";
import type { AuditSortKey, AuditTrailQuery } from "./schemas.ts";

/** An event: the row's fields (entity type and id, action, changes, who) and what the screen shows. */
export interface AuditEventDto extends NamedRow {
  id: string;
  seq: number;
  /** Beside the name wherever a person is shown: two accounts can share a name, never an address. */
  performedByEmail: string;
  performedAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  /** The screen that shows the actor; null for the system's own rows. */
  actorLink: string | null;
  /** The entity's name as a person knows it (an institution's name, an account's name and number), when it has one. */
  entityLabel: string | null;
  /** The screen that shows the entity, when there is one. */
  entityLink: string | null;
  /** The event as a sentence, in parts the screen renders: text, the actor, entities (with links) and amounts. */
  sentence: SentencePart[];
}

/** A stored event as read back: the DTO's fields, with `changes` as the stored JSON text. */
interface AuditRow
  extends Omit<AuditEventDto, "changes" | "actorLink" | "entityLabel" | "entityLink" | "sentence"> {
  [column: string]: unknown;
  changes: string | null;
}

const SORT_COLUMNS: Record<AuditSortKey, SQL> = {
  seq: sql`a.seq`,
  performedAt: sql`a.performed_at`,
  // The actor's name as the table shows it (an output column of the query below).
  actor: sql`performedByName COLLATE NOCASE`,
  entityType: sql`a.entity_type`,
  action: sql`a.action`,
};

/** LIKE pattern for a fragment typed by a person: its own % and _ match only themselves. */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listAuditEvents(
  db: Queryable,
  query: AuditTrailQuery,
): Promise<{ items: AuditEventDto[]; total: number }> {
  const conditions = [sql`1 = 1`];
  if (query.actor) {
    const pattern = containing(query.actor);
    conditions.push(sql`(a.performed_by = ${query.actor} OR lower(u.email) LIKE ${pattern} ESCAPE '\\'
      OR lower(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) LIKE ${pattern} ESCAPE '\\')`);
  }
  if (query.entityType) conditions.push(sql`a.entity_type = ${query.entityType}`);
  if (query.entityId) conditions.push(sql`a.entity_id = ${query.entityId}`);
  if (query.action) conditions.push(sql`a.action = ${query.action}`);
  if (query.from) conditions.push(sql`a.performed_at >= ${new Date(query.from).toISOString()}`);
  if (query.to) conditions.push(sql`a.performed_at <= ${new Date(query.to).toISOString()}`);
  if (query.search) {
    // The stored changes hold names, numbers and reasons as recorded (card numbers masked).
    const pattern = containing(query.search);
    conditions.push(sql`(lower(a.entity_id) LIKE ${pattern} ESCAPE '\\' OR lower(a.action) LIKE ${pattern} ESCAPE '\\'
      OR lower(coalesce(a.changes, '')) LIKE ${pattern} ESCAPE '\\')`);
  }
  const where = sql.join(conditions, sql` AND `);
  const rows = await db.all<AuditRow>(
    sql`SELECT a.id, a.seq, a.entity_type AS entityType, a.entity_id AS entityId,
      a.action, a.changes, a.performed_by AS performedBy,
      coalesce(nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), ''), u.email) AS performedByName,
      u.email AS performedByEmail,
      a.performed_at AS performedAt, a.ip_address AS ipAddress, a.user_agent AS userAgent
    FROM audit_trail a JOIN users u ON u.id = a.performed_by
    WHERE ${where} ORDER BY ${orderBySql(SORT_COLUMNS, query, sql`a.seq DESC`)} LIMIT ${query.limit} OFFSET ${query.offset}`,
  );
  const [count] = await db.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM audit_trail a JOIN users u ON u.id = a.performed_by WHERE ${where}`,
  );
  const parsed = rows.map((row) => ({ ...row, changes: row.changes === null ? null : JSON.parse(row.changes) }));
  const facts = await auditFactsOf(db, parsed);
  const items = parsed.map((row, i) => ({
    ...row,
    actorLink: facts[i].actor.link,
    entityLabel: facts[i].entity?.label ?? null,
    entityLink: facts[i].entity?.link ?? facts[i].screenLink ?? null,
    sentence: auditSentence(facts[i]),
  }));
  return { items, total: count?.n ?? 0 };
}

/** The names filters offer: every entity type and action the trail holds. */
export async function auditFacets(db: Queryable): Promise<{ entityTypes: string[]; actions: string[] }> {
  const types = await db.all<{ v: string }>(
    sql`SELECT DISTINCT entity_type AS v FROM audit_trail ORDER BY v`,
  );
  const actions = await db.all<{ v: string }>(sql`SELECT DISTINCT action AS v FROM audit_trail ORDER BY v`);
  return { entityTypes: types.map((row) => row.v), actions: actions.map((row) => row.v) };
}

/** The node's checkpoint file against the trail, as `deno task audit:verify` checks it. */
export type CheckpointState =
  | { verified: true; checked: number; recorded: number }
  | { verified: false; checked: number; problem: string };

export type ChainState =
  & (
    | { verified: true; verifiedUpToSeq: number; checked: number }
    | {
      verified: false;
      verifiedUpToSeq: number;
      checked: number;
      firstBroken: { seq: number; id: string; reason: string };
    }
  )
  & { checkpoints: CheckpointState };

async function checkpointState(db: Queryable, target: CheckpointTarget): Promise<CheckpointState> {
  const key = await registeredChainKey(db);
  if (key === null) return { verified: false, checked: 0, problem: "the chain is not keyed" };
  const result = await verifyAuditCheckpoints(db, key, target);
  if (!result.ok) return { verified: false, checked: result.checked, problem: result.problem };
  return { verified: true, checked: result.checked, recorded: result.recorded };
}

export async function chainState(db: Queryable, target: CheckpointTarget): Promise<ChainState> {
  const result: ChainVerification = await verifyAuditChain(db);
  const checkpoints = await checkpointState(db, target);
  if (result.ok) return { verified: true, verifiedUpToSeq: result.checked, checked: result.checked, checkpoints };
  return {
    verified: false,
    verifiedUpToSeq: result.firstBroken.seq - 1,
    checked: result.checked,
    firstBroken: result.firstBroken,
    checkpoints,
  };
}
