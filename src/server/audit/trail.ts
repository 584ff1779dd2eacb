/**
 * audit/ owns the tamper-evident trail: this module (rows and their chain), the chain key
 * (chain_key.ts), signed checkpoints outside the database (checkpoints.ts) and re-keying (rekey.ts).
 *
 * The audit trail: every mutation calls `recordAudit` inside its own transaction, so the change and
 * its audit row commit or roll back together. Rows form a keyed hash chain: each row's hash is
 * HMAC-SHA-256, under a key kept outside the database, over the row and the previous row's hash, so
 * an edited, deleted or reordered row is detected by `verifyAuditChain`, and someone who can write
 * the database file but does not hold the key cannot compute a chain that verifies again.
 *
 * The database names the key it was chained with (`audit_chain_state.key_id`, a fingerprint, never
 * the key); each process registers the keys it holds, so a writer finds its key from the database
 * it writes to and no call site passes a key around.
 */
import { createHash, createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { maskCardNumbersInRecord, maskCardNumbersOutsideIdentifiers } from "../../domain/redaction.ts";
import { type Queryable, statementsOf, type Writer } from "../db/database.ts";

export const GENESIS_HASH = "0".repeat(64);
export const AUDIT_CHAIN_ALGORITHM = "HMAC-SHA-256";
const VERIFY_PAGE_SIZE = 1_000;
const KEY_ID_LENGTH = 16;

/**
 * The append-only triggers, as db/migrations/0001_foundation.sql and 1000_audit_chain_key.sql
 * create them. The server refuses to start, and audit:verify fails, when one is missing or altered.
 */
export const APPEND_ONLY_TRIGGERS: Readonly<Record<string, string>> = {
  audit_trail_no_update: `CREATE TRIGGER audit_trail_no_update BEFORE UPDATE ON audit_trail
BEGIN SELECT RAISE(ABORT, 'audit_trail is append-only'); END`,
  audit_trail_no_delete: `CREATE TRIGGER audit_trail_no_delete BEFORE DELETE ON audit_trail
BEGIN SELECT RAISE(ABORT, 'audit_trail is append-only'); END`,
  audit_chain_state_no_update: `CREATE TRIGGER audit_chain_state_no_update BEFORE UPDATE ON audit_chain_state
BEGIN SELECT RAISE(ABORT, 'audit_chain_state is append-only'); END`,
  audit_chain_state_no_delete: `CREATE TRIGGER audit_chain_state_no_delete BEFORE DELETE ON audit_chain_state
BEGIN SELECT RAISE(ABORT, 'audit_chain_state is append-only'); END`,
};

const normalizeSql = (text: string) => text.replace(/\s+/g, " ").replace(/;\s*$/, "").trim();

/** The append-only triggers that are missing or differ from APPEND_ONLY_TRIGGERS (an empty list when all are in place). */
export async function missingAppendOnlyTriggers(db: Queryable): Promise<string[]> {
  const rows = await db.all<{ name: string; sql: string | null }>(
    sql`SELECT name, sql FROM sqlite_master WHERE type = 'trigger'`,
  );
  const present = new Map(rows.map((row) => [row.name, normalizeSql(row.sql ?? "")]));
  return Object.entries(APPEND_ONLY_TRIGGERS)
    .filter(([name, text]) => present.get(name) !== normalizeSql(text))
    .map(([name]) => name);
}

/** The trail cannot be trusted as it stands: the server refuses to start and says why. */
export class AuditTrailIntegrityError extends Error {
  override name = "AuditTrailIntegrityError";
}

/** Throws, with what to do, unless every append-only trigger is in place. */
export async function assertAppendOnlyTriggers(db: Queryable): Promise<void> {
  const missing = await missingAppendOnlyTriggers(db);
  if (missing.length === 0) return;
  throw new AuditTrailIntegrityError(
    `The audit trail's append-only triggers are missing or altered (${missing.join(", ")}): ` +
      "someone with write access to the database file may have edited the trail. Refusing to start. " +
      "Run `deno task audit:verify`, investigate, and restore the database from a backup.",
  );
}

/** Keys this process holds, by key id. */
const chainKeys = new Map<string, Uint8Array>();

/** The fingerprint stored in audit_chain_state: names a key without revealing it. */
export function auditChainKeyId(key: Uint8Array): string {
  return createHmac("sha256", key).update("audit-chain key id").digest("hex").slice(0, KEY_ID_LENGTH);
}

/** Lets this process write and verify chains keyed with `key`; returns its key id. */
export function registerAuditChainKey(key: Uint8Array): string {
  const keyId = auditChainKeyId(key);
  chainKeys.set(keyId, key);
  return keyId;
}

function registeredKey(keyId: string): Uint8Array {
  const key = chainKeys.get(keyId);
  if (key === undefined) {
    throw new Error(
      `The audit chain is keyed with key id ${keyId}, which this process does not hold ` +
        "(AUDIT_CHAIN_KEY or DATA_DIR/audit-chain.key)",
    );
  }
  return key;
}

export interface Actor {
  userId: string;
  ipAddress: string | null;
  userAgent: string | null;
}

export interface AuditEntry {
  entityType: string;
  entityId: string;
  action: string;
  /** Usually `{ before, after }`; secrets must be masked by the caller (card numbers are masked here). */
  changes?: unknown;
}

export interface ChainFields {
  seq: number;
  id: string;
  entityType: string;
  entityId: string;
  action: string;
  changes: string | null;
  performedBy: string;
  performedAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  prevHash: string;
}

function chainContent(row: ChainFields): string {
  return JSON.stringify([
    row.seq,
    row.id,
    row.entityType,
    row.entityId,
    row.action,
    row.changes,
    row.performedBy,
    row.performedAt,
    row.ipAddress,
    row.userAgent,
    row.prevHash,
  ]);
}

/** A row's hash: HMAC-SHA-256 under the chain key over its fields and the previous row's hash. */
export function computeAuditHash(row: ChainFields, key: Uint8Array): string {
  return createHmac("sha256", key).update(chainContent(row)).digest("hex");
}

/**
 * The unkeyed SHA-256 of chains written before the chain was keyed: read only to check a legacy chain before
 * it is re-chained under the key (rekey.ts).
 */
export function computeLegacyAuditHash(row: ChainFields): string {
  return createHash("sha256").update(chainContent(row)).digest("hex");
}

/** The key id the database's chain is keyed with, or null before it is keyed. */
export async function chainKeyIdOf(db: Queryable): Promise<string | null> {
  const [row] = await db.all<{ keyId: string }>(
    sql`SELECT key_id AS keyId FROM audit_chain_state WHERE id = 1`,
  );
  return row?.keyId ?? null;
}

/** The key this process registered for the database's chain, or null before the chain is keyed. */
export async function registeredChainKey(db: Queryable): Promise<Uint8Array | null> {
  const keyId = await chainKeyIdOf(db);
  return keyId === null ? null : registeredKey(keyId);
}

/** The hash function of the database's chain, with the key this process registered for it. */
export async function auditChainHasher(db: Queryable): Promise<(row: ChainFields) => string> {
  const keyId = await chainKeyIdOf(db);
  if (keyId === null) throw new Error("The audit chain is not keyed yet (the server keys it at start)");
  const key = registeredKey(keyId);
  return (row) => computeAuditHash(row, key);
}

const MAX_USER_AGENT_LENGTH = 512;

/** The audit row of a created entity: nothing before, `after` after. */
export function recordCreation(
  writer: Writer,
  actor: Actor,
  entityType: string,
  entityId: string,
  after: unknown,
  action = "create",
): Promise<string> {
  return recordAudit(writer, actor, { entityType, entityId, action, changes: { before: null, after } });
}

export async function recordAudit(writer: Writer, actor: Actor, entry: AuditEntry): Promise<string> {
  const statements = statementsOf(writer);
  const head = await statements.get<{ keyId: string; seq: number | null; hash: string | null }>(
    `SELECT s.key_id AS keyId, t.seq AS seq, t.hash AS hash FROM audit_chain_state s
      LEFT JOIN (SELECT seq, hash FROM audit_trail ORDER BY seq DESC LIMIT 1) t ON 1 WHERE s.id = 1`,
    [],
  );
  if (head === undefined) throw new Error("The audit chain is not keyed yet (the server keys it at start)");
  const key = registeredKey(head.keyId);
  const fields: ChainFields = {
    seq: (head.seq ?? 0) + 1,
    id: crypto.randomUUID(),
    entityType: entry.entityType,
    entityId: entry.entityId,
    action: entry.action,
    changes: entry.changes === undefined ? null : JSON.stringify(maskCardNumbersInRecord(entry.changes)),
    performedBy: actor.userId,
    performedAt: new Date().toISOString(),
    ipAddress: actor.ipAddress?.slice(0, 45) ?? null,
    userAgent: actor.userAgent == null
      ? null
      : maskCardNumbersOutsideIdentifiers(actor.userAgent.slice(0, MAX_USER_AGENT_LENGTH)),
    prevHash: head.hash ?? GENESIS_HASH,
  };
  await statements.run(
    `INSERT INTO audit_trail (id, seq, entity_type, entity_id, action, changes, performed_by,
      performed_at, ip_address, user_agent, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      fields.id,
      fields.seq,
      fields.entityType,
      fields.entityId,
      fields.action,
      fields.changes,
      fields.performedBy,
      fields.performedAt,
      fields.ipAddress,
      fields.userAgent,
      fields.prevHash,
      computeAuditHash(fields, key),
    ],
  );
  return fields.id;
}

export type ChainVerification =
  | { ok: true; checked: number; lastHash: string }
  | { ok: false; checked: number; firstBroken: { seq: number; id: string; reason: string } };

/** A broken chain as a whole (wrong key, not keyed, triggers gone) is reported at seq 0. */
const WHOLE_CHAIN = { seq: 0, id: "-" };

/**
 * Verifies the chain with `key` (by default the key this process registered for the database's
 * key id): every row links to the previous one and its hash is the keyed hash of its content.
 */
export async function verifyAuditChain(db: Queryable, key?: Uint8Array): Promise<ChainVerification> {
  const keyId = await chainKeyIdOf(db);
  if (keyId === null) {
    const [row] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM audit_trail`);
    if (row.n === 0) return { ok: true, checked: 0, lastHash: GENESIS_HASH };
    return { ok: false, checked: 0, firstBroken: { ...WHOLE_CHAIN, reason: "the chain is not keyed" } };
  }
  if (key !== undefined && auditChainKeyId(key) !== keyId) {
    return {
      ok: false,
      checked: 0,
      firstBroken: {
        ...WHOLE_CHAIN,
        reason: `the chain names key id ${keyId}, not the configured key's ${auditChainKeyId(key)}`,
      },
    };
  }
  const chainKey = key ?? registeredKey(keyId);
  let previousHash = GENESIS_HASH;
  let expectedSeq = 1;
  let checked = 0;
  for (;;) {
    const rows = await db.all<ChainFields & { hash: string }>(sql`SELECT
        seq, id, entity_type AS entityType, entity_id AS entityId, action, changes,
        performed_by AS performedBy, performed_at AS performedAt, ip_address AS ipAddress,
        user_agent AS userAgent, prev_hash AS prevHash, hash
      FROM audit_trail WHERE seq >= ${expectedSeq} ORDER BY seq LIMIT ${VERIFY_PAGE_SIZE}`);
    if (rows.length === 0) return { ok: true, checked, lastHash: previousHash };
    for (const row of rows) {
      const broken = (reason: string) => ({
        ok: false as const,
        checked,
        firstBroken: { seq: row.seq, id: row.id, reason },
      });
      if (row.seq !== expectedSeq) return broken(`sequence gap: expected ${expectedSeq}`);
      if (row.prevHash !== previousHash) return broken("prev_hash does not match the previous row");
      if (computeAuditHash(row, chainKey) !== row.hash) return broken("hash does not match the row's content");
      previousHash = row.hash;
      expectedSeq += 1;
      checked += 1;
    }
  }
}
