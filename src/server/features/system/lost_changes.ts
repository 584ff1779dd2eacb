/**
 * The lost-change report: after a node rebuilt its replica because the primary was restored from
 * an older copy (db/local_replica.ts), it reads the set-aside copy and lists what that copy had
 * confirmed that the restored primary no longer holds: the audit rows past the last one both
 * share (the trail is a hash chain, so one shared row vouches for every row before it), and the
 * sweeps, card movements, approvals and registrations they record. Each node records its report
 * once, as one audit event on the restored primary and one row the System screen lists.
 */
import NativeDatabase from "libsql";
import { SYSTEM_USER_ID } from "../../../../db/schema.ts";
import { formatMoney } from "../../../domain/money.ts";
import { recordAudit } from "../../audit/trail.ts";
import type { Config } from "../../config.ts";
import { type Database, statementsOf } from "../../db/database.ts";
import type { RebuiltReplica } from "../../db/local_replica.ts";
import type { Statements } from "../../db/statements.ts";

/** The most audit rows one report lists; past it the report says how many more it left out. */
export const LOST_REPORT_MAX_ROWS = 10_000;
/** Audit rows compared with the primary per round trip. */
const COMPARE_CHUNK_ROWS = 500;

export type LostCategory = "sweeps" | "cardMovements" | "approvals" | "registrations" | "other";

export interface LostAuditRow {
  seq: number;
  entityType: string;
  entityId: string;
  action: string;
  performedBy: string;
  performedAt: string;
  category: LostCategory;
}

export interface LostSweep {
  id: string;
  /** A decimal string, as the API speaks money. */
  amount: string;
  currency: string;
  sourceAccountId: string;
  targetAccountId: string;
  executedAt: string;
  executedBy: string | null;
  /** The Idempotency-Key it was made with, so that a retry re-executing it can be linked to it. */
  idempotencyKey: string | null;
}

export interface LostChangeReport {
  node: string;
  reason: string;
  detectedAt: string;
  setAsidePath: string;
  /** The newest audit row the set-aside copy and the restored primary share; 0 if none. */
  lastSharedAuditSeq: number;
  counts: Record<LostCategory, number>;
  auditRows: LostAuditRow[];
  /** Lost audit rows left out past LOST_REPORT_MAX_ROWS. */
  moreAuditRows: number;
  sweeps: LostSweep[];
}

const REGISTRATION_TYPES = new Set(["institution", "routing_code", "swift_code", "iban_config", "ledger_account"]);

export function categoryOf(entityType: string): LostCategory {
  if (entityType === "balance_sweep" || entityType === "sweep_schedule_run") return "sweeps";
  if (entityType === "card") return "cardMovements";
  if (entityType.includes("approval")) return "approvals";
  return REGISTRATION_TYPES.has(entityType) ? "registrations" : "other";
}

export function nodeName(config: Config): string {
  return config.replication?.role === "regional" ? `region:${config.replication.region}` : "headquarters";
}

type AuditRow = Omit<LostAuditRow, "category"> & { hash: string };

const SET_ASIDE_ROWS_SQL = `SELECT seq, entity_type AS entityType, entity_id AS entityId, action,
  performed_by AS performedBy, performed_at AS performedAt, hash FROM audit_trail
  WHERE seq < ? ORDER BY seq DESC LIMIT ?`;

/** The set-aside copy's audit rows the primary does not hold as they are, newest first. */
async function lostAuditRows(copy: NativeDatabase.Database, primary: Statements) {
  const lost: AuditRow[] = [];
  let before = Number.MAX_SAFE_INTEGER;
  let more = 0;
  for (;;) {
    const rows = copy.prepare(SET_ASIDE_ROWS_SQL).all([before, COMPARE_CHUNK_ROWS]) as AuditRow[];
    if (rows.length === 0) return { lost, more, lastShared: 0 };
    const held = await primary.all<{ seq: number; hash: string }>(
      `SELECT seq, hash FROM audit_trail WHERE seq IN (${rows.map(() => "?").join(",")})`,
      rows.map((row) => row.seq),
    );
    const heldHash = new Map(held.map((row) => [row.seq, row.hash]));
    for (const row of rows) {
      if (heldHash.get(row.seq) === row.hash) return { lost, more, lastShared: row.seq };
      if (lost.length < LOST_REPORT_MAX_ROWS) lost.push(row);
      else more++;
    }
    before = rows.at(-1)!.seq;
  }
}

const SWEEP_SQL = `SELECT s.id, s.sweep_amount_minor AS amountMinor, a.currency, s.source_account_id AS sourceAccountId,
  s.target_account_id AS targetAccountId, s.executed_at AS executedAt, s.executed_by AS executedBy
  FROM balance_sweeps s JOIN ledger_accounts a ON a.id = s.source_account_id WHERE s.id = ?`;
/** The keys of the sweeps answered since `?`: each kept answer names its sweep. */
const SWEEP_KEYS_SQL = `SELECT json_extract(response_body, '$.id') AS sweepId, idempotency_key AS idempotencyKey
  FROM idempotency_keys WHERE route = 'balance_sweep' AND created_at >= ? AND response_status = 201`;

type SweepRow = Omit<LostSweep, "amount" | "idempotencyKey"> & { amountMinor: number };

/** The lost sweeps as the set-aside copy holds them, each with the Idempotency-Key it was made with. */
function lostSweeps(copy: NativeDatabase.Database, auditRows: LostAuditRow[]): LostSweep[] {
  const sweepRows = auditRows.filter((row) => row.entityType === "balance_sweep");
  if (sweepRows.length === 0) return [];
  const since = sweepRows.map((row) => row.performedAt).sort()[0].slice(0, 10);
  const keys = new Map(
    (copy.prepare(SWEEP_KEYS_SQL).all([since]) as { sweepId: string; idempotencyKey: string }[])
      .map((row) => [row.sweepId, row.idempotencyKey]),
  );
  const ids = new Set(sweepRows.map((row) => row.entityId));
  return [...ids].flatMap((id) =>
    (copy.prepare(SWEEP_SQL).all([id]) as SweepRow[]).slice(0, 1).map(({ amountMinor, ...row }) => ({
      ...row,
      amount: formatMoney(BigInt(amountMinor)),
      idempotencyKey: keys.get(id) ?? null,
    }))
  );
}

/** Reads the set-aside copy against the primary (as `primary`, inside the transaction that records it). */
export async function buildLostChangeReport(
  rebuilt: RebuiltReplica,
  node: string,
  primary: Statements,
): Promise<LostChangeReport> {
  const copy = new NativeDatabase(rebuilt.setAsidePath, { readonly: true });
  try {
    const { lost, more, lastShared } = await lostAuditRows(copy, primary);
    const auditRows = lost.map(({ hash: _hash, ...row }) => ({ ...row, category: categoryOf(row.entityType) }));
    const counts: Record<LostCategory, number> = { sweeps: 0, cardMovements: 0, approvals: 0, registrations: 0, other: 0 };
    for (const row of auditRows) counts[row.category]++;
    const sweeps = lostSweeps(copy, auditRows);
    return {
      node,
      reason: rebuilt.reason,
      detectedAt: rebuilt.detectedAt,
      setAsidePath: rebuilt.setAsidePath,
      lastSharedAuditSeq: lastShared,
      counts,
      auditRows,
      moreAuditRows: more,
      sweeps,
    };
  } finally {
    copy.close();
  }
}

/**
 * Builds the report and records it on the restored primary: one audit event and one report row. A
 * rebuild's report is recorded once: a retry after an answer that was lost finds it and stops.
 */
export async function recordLostChanges(db: Database, config: Config, rebuilt: RebuiltReplica): Promise<void> {
  const node = nodeName(config);
  await db.transaction(async (tx) => {
    const statements = statementsOf(tx);
    const recorded = await statements.get(
      "SELECT 1 AS found FROM divergence_reports WHERE node = ? AND set_aside_path = ?",
      [node, rebuilt.setAsidePath],
    );
    if (recorded) return;
    const report = await buildLostChangeReport(rebuilt, node, statements);
    const id = crypto.randomUUID();
    await statements.run(
      `INSERT INTO divergence_reports (id, node, detected_at, reason, set_aside_path, report) VALUES (?, ?, ?, ?, ?, ?)`,
      [id, node, rebuilt.detectedAt, rebuilt.reason, rebuilt.setAsidePath, JSON.stringify(report)],
    );
    const summary = {
      node,
      reason: rebuilt.reason,
      setAsidePath: rebuilt.setAsidePath,
      lastSharedAuditSeq: report.lastSharedAuditSeq,
      lost: report.counts,
      lostAuditSeqs: report.auditRows.map((row) => row.seq),
      lostSweeps: report.sweeps.map((sweep) => sweep.id),
    };
    await recordAudit(tx, { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null }, {
      entityType: "divergence_report",
      entityId: id,
      action: "replica_rebuilt_after_restore",
      changes: { before: null, after: summary },
    });
  });
}
