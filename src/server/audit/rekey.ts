/**
 * Keys the audit chain at start, and once, for a chain written before the chain was keyed (plain SHA-256), scrubs and
 * re-chains it:
 *
 * 1. The legacy chain (plain SHA-256) is verified as it stands; a chain that does not verify is
 *    not re-chained (that would launder the tampering) and the server refuses to start.
 * 2. In one transaction, with the append-only triggers lifted and put back: each row's changes are
 *    scrubbed (connection credentials masked deny-by-default, card numbers masked), and every row is
 *    re-chained under the key (HMAC-SHA-256).
 * 3. Stored reports that may hold what was scrubbed are withdrawn: every audit-trail report (its
 *    changes predate the masking, its hashes the key) and any CSV or XML report holding a card
 *    number. The record stays, as failed with the reason; the file is deleted.
 * 4. The re-chaining is recorded in the trail itself: one row (entity `audit_trail`, action
 *    `rekey`) with the key id, the number of rows re-chained, the last legacy hash, the scrubbed
 *    rows and the withdrawn reports, chained under the key like any other. Before it, the trail
 *    verifies under the key; the legacy hash it names ties it to any copy taken before.
 */
import { sql } from "drizzle-orm";
import { SYSTEM_USER_ID } from "../../../db/schema.ts";
import { maskCredentials } from "../../domain/connection_credentials.ts";
import type { ReportFormat } from "../../domain/report.ts";
import { maskCardNumbersInRecord, maskCardNumbersOutsideIdentifiers } from "../../domain/redaction.ts";
import {
  APPEND_ONLY_TRIGGERS,
  assertAppendOnlyTriggers,
  AUDIT_CHAIN_ALGORITHM,
  auditChainKeyId,
  AuditTrailIntegrityError,
  type ChainFields,
  chainKeyIdOf,
  computeAuditHash,
  computeLegacyAuditHash,
  GENESIS_HASH,
  recordAudit,
} from "./trail.ts";
import { useAuditChainKey } from "./chain_key.ts";
import type { Config } from "../config.ts";
import type { Database, Tx } from "../db/database.ts";
import { reportFilePath } from "../features/reports/service.ts";

const PAGE_SIZE = 500;
/** The rekey row lists at most this many scrubbed rows and withdrawn reports (and counts them all). */
const MAX_LISTED = 1_000;
const AUDIT_TRAIL_TRIGGERS = ["audit_trail_no_update", "audit_trail_no_delete"];
const CREDENTIALS_FIELD = "credentialsConfig";
const TEXT_REPORT_FORMATS = new Set(["csv", "xml"]);

/**
 * Everything a process needs before it writes audit rows: the append-only triggers in place, the
 * chain key loaded and registered, and the chain keyed (a legacy chain scrubbed and re-chained).
 * With `keyChain: false` (a regional node: headquarters keys the primary's chain) the key is not
 * made up but must be configured, and must be the one the chain names once it is keyed.
 * Returns the key.
 */
export async function prepareAuditChain(
  db: Database,
  config: Config,
  log: (line: string) => void,
  { keyChain = true }: { keyChain?: boolean } = {},
): Promise<Uint8Array> {
  await assertAppendOnlyTriggers(db.read);
  const key = await useAuditChainKey(config, { create: keyChain });
  if (keyChain) {
    await ensureChainKeyed(db, config, key, log);
    return key;
  }
  const keyId = await chainKeyIdOf(db.read);
  if (keyId !== null && keyId !== auditChainKeyId(key)) {
    throw new AuditTrailIntegrityError(
      `The audit chain is keyed with key id ${keyId}, not this node's ${auditChainKeyId(key)}: ` +
        "set AUDIT_CHAIN_KEY to the key headquarters uses.",
    );
  }
  return key;
}

/** Masks credentials under their field name at any depth, then card numbers anywhere. */
export function scrubChanges(changes: unknown): unknown {
  const maskCredentialsIn = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(maskCredentialsIn);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value).map((
        [name, inner],
      ) => [
        name,
        name === CREDENTIALS_FIELD && inner !== null ? maskCredentials(inner) : maskCredentialsIn(inner),
      ]),
    );
  };
  return maskCardNumbersInRecord(maskCredentialsIn(changes));
}

/** The scrubbed JSON text, or the stored text itself when scrubbing changes nothing. */
function scrubbedText(text: string | null): string | null {
  if (text === null) return null;
  const parsed = JSON.parse(text);
  const scrubbed = JSON.stringify(scrubChanges(parsed));
  return scrubbed === JSON.stringify(parsed) ? text : scrubbed;
}

type StoredRow = ChainFields & { hash: string };

interface Rekeyed {
  rows: number;
  legacyHeadHash: string;
  scrubbedRows: number[];
  withdrawnReports: { id: string; path: string }[];
}

async function rechain(tx: Tx, key: Uint8Array): Promise<Omit<Rekeyed, "withdrawnReports">> {
  let legacyPrevious = GENESIS_HASH;
  let previous = GENESIS_HASH;
  let expectedSeq = 1;
  const scrubbedRows: number[] = [];
  for (;;) {
    const rows = await tx.all<StoredRow>(sql`SELECT
        seq, id, entity_type AS entityType, entity_id AS entityId, action, changes,
        performed_by AS performedBy, performed_at AS performedAt, ip_address AS ipAddress,
        user_agent AS userAgent, prev_hash AS prevHash, hash
      FROM audit_trail WHERE seq >= ${expectedSeq} ORDER BY seq LIMIT ${PAGE_SIZE}`);
    if (rows.length === 0) return { rows: expectedSeq - 1, legacyHeadHash: legacyPrevious, scrubbedRows };
    for (const row of rows) {
      const reason = row.seq !== expectedSeq
        ? `sequence gap: expected ${expectedSeq}`
        : row.prevHash !== legacyPrevious
        ? "prev_hash does not match the previous row"
        : computeLegacyAuditHash(row) !== row.hash
        ? "hash does not match the row's content"
        : null;
      if (reason !== null) {
        throw new AuditTrailIntegrityError(
          `The audit trail does not verify as it stands (row ${row.seq}: ${reason}), so it was not re-keyed. ` +
            "Refusing to start: investigate, and restore the database from a backup.",
        );
      }
      legacyPrevious = row.hash;
      const changes = scrubbedText(row.changes);
      const userAgent = row.userAgent === null ? null : maskCardNumbersOutsideIdentifiers(row.userAgent);
      if (changes !== row.changes || userAgent !== row.userAgent) scrubbedRows.push(row.seq);
      const rewritten: ChainFields = { ...row, changes, userAgent, prevHash: previous };
      const hash = computeAuditHash(rewritten, key);
      await tx.run(sql`UPDATE audit_trail SET changes = ${changes}, user_agent = ${userAgent},
        prev_hash = ${previous}, hash = ${hash} WHERE seq = ${row.seq}`);
      previous = hash;
      expectedSeq += 1;
    }
  }
}

/** Reports written before the scrub that may hold what it removed (see the module comment). */
async function reportsToWithdraw(tx: Tx, config: Config): Promise<{ id: string; path: string }[]> {
  const reports = await tx.all<{ id: string; reportType: string; format: string }>(sql`SELECT id,
    report_type AS reportType, format FROM generated_reports WHERE status = 'completed' ORDER BY created_at, id`);
  const withdrawn: { id: string; path: string }[] = [];
  for (const report of reports) {
    const path = reportFilePath(config, report.id, report.format as ReportFormat);
    let holdsScrubbed = report.reportType === "audit-trail";
    if (!holdsScrubbed && TEXT_REPORT_FORMATS.has(report.format)) {
      try {
        const text = await Deno.readTextFile(path);
        holdsScrubbed = maskCardNumbersOutsideIdentifiers(text) !== text;
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
    if (holdsScrubbed) withdrawn.push({ id: report.id, path });
  }
  return withdrawn;
}

async function ensureChainKeyed(
  db: Database,
  config: Config,
  key: Uint8Array,
  log: (line: string) => void,
): Promise<void> {
  if (await chainKeyIdOf(db.read) !== null) return;
  const keyId = auditChainKeyId(key);
  const rekeyed = await db.transaction(async (tx): Promise<Rekeyed | null> => {
    // Another process may have keyed it since we looked.
    if (await chainKeyIdOf(tx) !== null) return null;
    const keyedAt = new Date().toISOString();
    const [{ n }] = await tx.all<{ n: number }>(sql`SELECT count(*) AS n FROM audit_trail`);
    if (n > 0) {
      for (const name of AUDIT_TRAIL_TRIGGERS) await tx.run(sql.raw(`DROP TRIGGER ${name}`));
    }
    const chained = n > 0 ? await rechain(tx, key) : null;
    if (n > 0) {
      for (const name of AUDIT_TRAIL_TRIGGERS) await tx.run(sql.raw(APPEND_ONLY_TRIGGERS[name]));
    }
    await tx.run(sql`INSERT INTO audit_chain_state (id, algorithm, key_id, keyed_at)
      VALUES (1, ${AUDIT_CHAIN_ALGORITHM}, ${keyId}, ${keyedAt})`);
    if (chained === null) return null;
    const withdrawnReports = await reportsToWithdraw(tx, config);
    const reason = `Withdrawn on ${keyedAt.slice(0, 10)} when the audit chain was keyed: written before ` +
      "credentials and card numbers were masked in audit rows and reports. Generate the report again.";
    for (const report of withdrawnReports) {
      await tx.run(sql`UPDATE generated_reports SET status = 'failed', row_count = NULL, size_bytes = NULL,
        sha256 = NULL, error = ${reason} WHERE id = ${report.id}`);
    }
    await recordAudit(tx, { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null }, {
      entityType: "audit_trail",
      entityId: "chain",
      action: "rekey",
      changes: {
        algorithm: AUDIT_CHAIN_ALGORITHM,
        keyId,
        rowsRechained: chained.rows,
        legacyHeadHash: chained.legacyHeadHash,
        scrubbedRowCount: chained.scrubbedRows.length,
        scrubbedRows: chained.scrubbedRows.slice(0, MAX_LISTED),
        withdrawnReportCount: withdrawnReports.length,
        withdrawnReports: withdrawnReports.slice(0, MAX_LISTED).map((report) => report.id),
      },
    });
    return { ...chained, withdrawnReports };
  });
  if (rekeyed === null) return;
  for (const report of rekeyed.withdrawnReports) {
    await Deno.remove(report.path).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }
  log(
    `audit: chain keyed (${AUDIT_CHAIN_ALGORITHM}, key id ${keyId}): ${rekeyed.rows} rows re-chained, ` +
      `${rekeyed.scrubbedRows.length} scrubbed, ${rekeyed.withdrawnReports.length} reports withdrawn`,
  );
}
