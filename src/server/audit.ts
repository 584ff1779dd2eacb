/**
 * The audit trail: every mutation calls `recordAudit` inside its own transaction, so the change and
 * its audit row commit or roll back together. Rows form a hash chain (each hash covers the row and
 * the previous row's hash), so an edited, deleted or reordered row is detected by `verifyAuditChain`.
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Queryable, statementsOf, type Writer } from "./db.ts";

export const GENESIS_HASH = "0".repeat(64);
const VERIFY_PAGE_SIZE = 1_000;

export interface Actor {
  userId: string;
  ipAddress: string | null;
  userAgent: string | null;
}

export interface AuditEntry {
  entityType: string;
  entityId: string;
  action: string;
  /** Usually `{ before, after }`; secrets must be masked by the caller. */
  changes?: unknown;
}

interface ChainFields {
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

export function computeAuditHash(row: ChainFields): string {
  const content = JSON.stringify([
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
  return createHash("sha256").update(content).digest("hex");
}

const MAX_USER_AGENT_LENGTH = 512;

export async function recordAudit(writer: Writer, actor: Actor, entry: AuditEntry): Promise<string> {
  const statements = statementsOf(writer);
  const last = await statements.get<{ seq: number; hash: string }>(
    "SELECT seq, hash FROM audit_trail ORDER BY seq DESC LIMIT 1",
    [],
  );
  const fields: ChainFields = {
    seq: (last?.seq ?? 0) + 1,
    id: crypto.randomUUID(),
    entityType: entry.entityType,
    entityId: entry.entityId,
    action: entry.action,
    changes: entry.changes === undefined ? null : JSON.stringify(entry.changes),
    performedBy: actor.userId,
    performedAt: new Date().toISOString(),
    ipAddress: actor.ipAddress?.slice(0, 45) ?? null,
    userAgent: actor.userAgent?.slice(0, MAX_USER_AGENT_LENGTH) ?? null,
    prevHash: last?.hash ?? GENESIS_HASH,
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
      computeAuditHash(fields),
    ],
  );
  return fields.id;
}

export type ChainVerification =
  | { ok: true; checked: number; lastHash: string }
  | { ok: false; checked: number; firstBroken: { seq: number; id: string; reason: string } };

export async function verifyAuditChain(db: Queryable): Promise<ChainVerification> {
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
      if (computeAuditHash(row) !== row.hash) return broken("hash does not match the row's content");
      previousHash = row.hash;
      expectedSeq += 1;
      checked += 1;
    }
  }
}
