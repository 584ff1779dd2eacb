/**
 * Signed checkpoints of the audit chain, appended to a file outside the database folder
 * (AUDIT_CHECKPOINT_FILE, default `<DATA_DIR>-audit-checkpoints.jsonl`): one JSON line per
 * checkpoint with the row number, its hash, the time, the key id and an HMAC-SHA-256 over them
 * under the chain key. `deno task audit:verify` checks every checkpoint against the trail, so a
 * trail cut short or re-chained after a checkpoint was written is detected even by someone who
 * could write both the database and its key. Keep the file where the database's writers cannot
 * rewrite it (another volume, `chattr +a`, a log shipper).
 *
 * Each checkpoint is also recorded in the trail (entity `audit_checkpoint`, the node's name as its
 * id), after its line is on disk: the file must hold every checkpoint the trail records, so a file
 * emptied or cut short is detected as long as any record of a lost line survives, and a file with
 * no checkpoint at all fails while the trail holds rows.
 *
 * The server writes one at start, then every AUDIT_CHECKPOINT_INTERVAL_MS while the trail grows,
 * and one at shutdown; `deno task user:add` writes one after its row.
 */
import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { SYSTEM_USER_ID } from "../../../db/schema.ts";
import { auditChainKeyId, recordAudit } from "./trail.ts";
import type { Config } from "../config.ts";
import type { Database, Queryable } from "../db/database.ts";
import { createPrivateDir } from "../file_modes.ts";
import { AppError } from "../http/errors.ts";
import { isUnreachableError } from "../topology/replication.ts";

export const AUDIT_CHECKPOINT_INTERVAL_MS = 60_000;
/** A checkpoint line is about 200 bytes; a longer one is not ours. */
const MAX_CHECKPOINT_LINE_CHARS = 1_000;
/** The trail's record of a checkpoint: entity type, and the action of writing one. */
export const CHECKPOINT_ENTITY_TYPE = "audit_checkpoint";
const CHECKPOINT_ACTION = "write";
const RECORDS_PAGE_SIZE = 1_000;
/** The node name of the process that writes the primary's trail from beside it (standalone, headquarters). */
export const PRIMARY_CHECKPOINT_NODE = "primary";

export interface AuditCheckpoint {
  seq: number;
  hash: string;
  at: string;
  keyId: string;
  mac: string;
}

/**
 * Where a process appends its checkpoints, and the node name its records in the trail carry: each
 * regional node keeps a file of its own, and verification holds a file to its own node's records.
 */
export interface CheckpointTarget {
  path: string;
  node: string;
}

export function checkpointTargetOf(
  config: Pick<Config, "auditCheckpointFile" | "replication">,
): CheckpointTarget {
  const replication = config.replication;
  return {
    path: config.auditCheckpointFile,
    node: replication?.role === "regional" ? `region:${replication.region}` : PRIMARY_CHECKPOINT_NODE,
  };
}

function macOf(key: Uint8Array, checkpoint: Omit<AuditCheckpoint, "mac">): string {
  return createHmac("sha256", key)
    .update(
      JSON.stringify(["audit-checkpoint", checkpoint.keyId, checkpoint.seq, checkpoint.hash, checkpoint.at]),
    )
    .digest("hex");
}

async function chainHead(db: Queryable): Promise<{ seq: number; hash: string } | undefined> {
  const [head] = await db.all<{ seq: number; hash: string }>(
    sql`SELECT seq, hash FROM audit_trail ORDER BY seq DESC LIMIT 1`,
  );
  return head;
}

/**
 * The newest row that is not a checkpoint's record: what "the trail grew" means to the periodic
 * writer, so that nodes do not checkpoint each other's records for ever. Read backwards by seq, it
 * passes only the few records written since.
 */
async function newestActivitySeq(db: Queryable): Promise<number | undefined> {
  const [row] = await db.all<{ seq: number }>(
    sql`SELECT seq FROM audit_trail WHERE entity_type <> ${CHECKPOINT_ENTITY_TYPE} ORDER BY seq DESC LIMIT 1`,
  );
  return row?.seq;
}

/** Whether the file's last line lacks its newline (a write cut short): the next line starts on its own. */
async function endsMidLine(path: string): Promise<boolean> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
  try {
    const size = (await file.stat()).size;
    if (size === 0) return false;
    await file.seek(size - 1, Deno.SeekMode.Start);
    const last = new Uint8Array(1);
    await file.read(last);
    return last[0] !== NEWLINE;
  } finally {
    file.close();
  }
}

const NEWLINE = 10;

/**
 * Appends `line` and syncs it: the trail records the checkpoint only after this, so a power loss
 * never leaves a record whose line the file lost.
 */
async function appendSynced(path: string, line: string): Promise<void> {
  const text = (await endsMidLine(path)) ? `\n${line}` : line;
  const file = await Deno.open(path, { append: true, create: true, mode: 0o600 });
  try {
    const bytes = new TextEncoder().encode(text);
    let written = 0;
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
    await file.syncData();
  } finally {
    file.close();
  }
}

/**
 * Appends a checkpoint of the trail's last row, then records it in the trail; null (nothing
 * written) while the trail is empty.
 */
export async function writeAuditCheckpoint(
  db: Database,
  key: Uint8Array,
  target: CheckpointTarget,
  now = new Date(),
): Promise<AuditCheckpoint | null> {
  const head = await chainHead(db.read);
  if (head === undefined) return null;
  const unsigned = { seq: head.seq, hash: head.hash, at: now.toISOString(), keyId: auditChainKeyId(key) };
  const checkpoint: AuditCheckpoint = { ...unsigned, mac: macOf(key, unsigned) };
  const line = `${JSON.stringify(checkpoint)}\n`;
  try {
    await appendSynced(target.path, line);
  } catch (error) {
    // A configured file on a volume whose folder does not exist yet (the server may write the
    // file, not read around it, so the folder is only looked at when the write says it is missing).
    const slash = target.path.lastIndexOf("/");
    if (!(error instanceof Deno.errors.NotFound) || slash <= 0) throw error;
    await createPrivateDir(target.path.slice(0, slash));
    await appendSynced(target.path, line);
  }
  await recordCheckpoint(db, target, checkpoint, now);
  return checkpoint;
}

/**
 * The checkpoint's row in the trail. A regional node that cannot reach the primary keeps the file
 * line alone (an extra line never fails verification) rather than refusing to start or stopping its
 * writer: the next checkpoint after the link returns is recorded.
 */
async function recordCheckpoint(db: Database, target: CheckpointTarget, checkpoint: AuditCheckpoint, now: Date) {
  try {
    await writeCheckpointRow(db, target, checkpoint, now);
  } catch (error) {
    if (!(error instanceof AppError && error.code === "unavailable") && !isUnreachableError(error)) throw error;
    console.warn(`Audit checkpoint at seq ${checkpoint.seq} kept in the file only: the primary cannot be reached.`);
  }
}

async function writeCheckpointRow(db: Database, target: CheckpointTarget, checkpoint: AuditCheckpoint, now: Date) {
  await db.transaction((tx) =>
    recordAudit(tx, { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null }, {
      entityType: CHECKPOINT_ENTITY_TYPE,
      entityId: target.node,
      action: CHECKPOINT_ACTION,
      // The time as numbers: the trail's records are text that reports print, and they print
      // timestamps in their own format only. Seconds and milliseconds apart, since a 13-digit count
      // of milliseconds that passes the Luhn check would be masked as a card number by the trail.
      changes: {
        seq: checkpoint.seq,
        hash: checkpoint.hash,
        atSeconds: Math.floor(now.getTime() / 1000),
        atMillis: now.getTime() % 1000,
        keyId: checkpoint.keyId,
        mac: checkpoint.mac,
        file: target.path,
      },
    })
  );
}

/** A checkpoint's record in the trail, as written now or before (`atMs`, one number). */
interface CheckpointRecord {
  seq?: unknown;
  atSeconds?: unknown;
  atMillis?: unknown;
  atMs?: unknown;
  mac?: unknown;
}

function recordedAtMs(record: CheckpointRecord): number | null {
  if (typeof record.atSeconds === "number" && typeof record.atMillis === "number") {
    return record.atSeconds * 1000 + record.atMillis;
  }
  return typeof record.atMs === "number" ? record.atMs : null;
}

export type CheckpointVerification =
  | { ok: true; checked: number; skipped: number; recorded: number }
  | { ok: false; checked: number; problem: string };

/** The signatures (macs) of the file's checkpoints that verified, or the first line that did not. */
type FileCheck =
  | { ok: true; checked: number; skipped: number; held: Set<string> }
  | { ok: false; checked: number; problem: string };

/** Checks each line's signature under `key`, and that the trail still holds its row with its hash. */
async function checkFileLines(
  db: Queryable,
  key: Uint8Array,
  path: string,
  text: string,
): Promise<FileCheck> {
  const held = new Set<string>();
  let checked = 0;
  let skipped = 0;
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index].trim();
    if (line === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // A write cut short by a crash leaves a line that is not JSON: it proves nothing either way.
      skipped += 1;
      continue;
    }
    const where = `${path} line ${index + 1}`;
    const fail = (problem: string) => ({ ok: false as const, checked, problem: `${where}: ${problem}` });
    if (line.length > MAX_CHECKPOINT_LINE_CHARS || parsed === null || typeof parsed !== "object") {
      return fail("not a checkpoint");
    }
    const { seq, hash, at, keyId, mac } = parsed as Partial<AuditCheckpoint>;
    if (
      typeof seq !== "number" || !Number.isSafeInteger(seq) || typeof hash !== "string" ||
      typeof at !== "string" ||
      typeof keyId !== "string" || typeof mac !== "string" || macOf(key, { seq, hash, at, keyId }) !== mac
    ) {
      return fail("its signature does not verify (edited, or written with another key)");
    }
    const [row] = await db.all<{ hash: string }>(sql`SELECT hash FROM audit_trail WHERE seq = ${seq}`);
    if (row === undefined) {
      return fail(
        `the checkpoint of ${at} names row ${seq}, which the trail no longer holds: rows were removed`,
      );
    }
    if (row.hash !== hash) {
      return fail(`row ${seq} differs from the checkpoint of ${at}: the trail was rewritten after it`);
    }
    held.add(mac);
    checked += 1;
  }
  return { ok: true, checked, skipped, held };
}

/**
 * The trail's records of this node's checkpoints, each of which the file must hold: the number of
 * records, or the first one the file lacks.
 */
async function checkRecorded(
  db: Queryable,
  target: CheckpointTarget,
  held: ReadonlySet<string>,
): Promise<{ recorded: number; missing: string | null }> {
  let recorded = 0;
  let afterSeq = 0;
  for (;;) {
    const rows = await db.all<{ seq: number; changes: string | null }>(
      sql`SELECT seq, changes FROM audit_trail
      WHERE entity_type = ${CHECKPOINT_ENTITY_TYPE} AND entity_id = ${target.node} AND seq > ${afterSeq}
      ORDER BY seq LIMIT ${RECORDS_PAGE_SIZE}`,
    );
    if (rows.length === 0) return { recorded, missing: null };
    for (const row of rows) {
      const record = JSON.parse(row.changes ?? "{}") as CheckpointRecord;
      const { seq, mac } = record;
      if (typeof mac !== "string" || !held.has(mac)) {
        const atMs = recordedAtMs(record);
        const at = atMs === null ? "an unknown time" : new Date(atMs).toISOString();
        return {
          recorded,
          missing: `the checkpoint at seq ${String(seq)} written at ${at} is missing from the file ` +
            `(the trail recorded it at row ${row.seq}): the file was emptied, cut short or replaced`,
        };
      }
      recorded += 1;
      afterSeq = row.seq;
    }
  }
}

async function readIfPresent(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/**
 * Checks every checkpoint of the file (its signature under `key`, and that the trail still holds
 * its row with its hash), that the file holds every checkpoint the trail records for this node, and
 * that it holds at least one while the trail holds rows.
 */
export async function verifyAuditCheckpoints(
  db: Queryable,
  key: Uint8Array,
  target: CheckpointTarget,
): Promise<CheckpointVerification> {
  const { path } = target;
  const text = await readIfPresent(path);
  const lines = await checkFileLines(db, key, path, text ?? "");
  if (!lines.ok) return lines;
  const { checked, skipped, held } = lines;
  const { recorded, missing } = await checkRecorded(db, target, held);
  if (missing !== null) return { ok: false, checked, problem: `${path}: ${missing}` };
  if (checked === 0 && await chainHead(db) !== undefined) {
    const problem = text === null
      ? `no checkpoint file at ${path} (AUDIT_CHECKPOINT_FILE)`
      : `${path} holds no checkpoint while the trail holds rows: the file was emptied or replaced`;
    return { ok: false, checked, problem };
  }
  return { ok: true, checked, skipped, recorded };
}

/**
 * Writes a checkpoint every `intervalMs` while the trail grows (by more than checkpoint records),
 * and one more on stop (before the database is closed).
 */
export function startAuditCheckpoints(
  db: Database,
  key: Uint8Array,
  target: CheckpointTarget,
  intervalMs = AUDIT_CHECKPOINT_INTERVAL_MS,
): { stop(): Promise<void> } {
  let lastActivitySeq: number | null = null;
  let running: Promise<void> = Promise.resolve();
  const write = async () => {
    const activity = await newestActivitySeq(db.read);
    if (activity === undefined || activity === lastActivitySeq) return;
    await writeAuditCheckpoint(db, key, target);
    lastActivitySeq = activity;
  };
  const tick = () => {
    running = running.then(write).catch((error) => console.error("audit checkpoint failed:", error));
  };
  const timer = setInterval(tick, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      tick();
      await running;
    },
  };
}
