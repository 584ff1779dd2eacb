/**
 * Signed checkpoints of the audit chain, appended to a file outside the database folder
 * (AUDIT_CHECKPOINT_FILE, default `<DATA_DIR>-audit-checkpoints.jsonl`): one JSON line per
 * checkpoint with the row number, its hash, the time, the key id and an HMAC-SHA-256 over them
 * under the chain key. `deno task audit:verify` checks every checkpoint against the trail, so a
 * trail cut short or re-chained after a checkpoint was written is detected even by someone who
 * could write both the database and its key. Keep the file where the database's writers cannot
 * rewrite it (another volume, `chattr +a`, a log shipper).
 *
 * The server writes one at start, then every AUDIT_CHECKPOINT_INTERVAL_MS while the trail grows,
 * and one at shutdown; `deno task user:add` writes one after its row.
 */
import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { auditChainKeyId } from "./trail.ts";
import type { Queryable } from "../db/database.ts";
import { createPrivateDir } from "../file_modes.ts";

export const AUDIT_CHECKPOINT_INTERVAL_MS = 60_000;
/** A checkpoint line is about 200 bytes; a longer one is not ours. */
const MAX_CHECKPOINT_LINE_CHARS = 1_000;

export interface AuditCheckpoint {
  seq: number;
  hash: string;
  at: string;
  keyId: string;
  mac: string;
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

/** Appends a checkpoint of the trail's last row; null (nothing written) while the trail is empty. */
export async function writeAuditCheckpoint(
  db: Queryable,
  key: Uint8Array,
  path: string,
  now = new Date(),
): Promise<AuditCheckpoint | null> {
  const head = await chainHead(db);
  if (head === undefined) return null;
  const unsigned = { seq: head.seq, hash: head.hash, at: now.toISOString(), keyId: auditChainKeyId(key) };
  const checkpoint: AuditCheckpoint = { ...unsigned, mac: macOf(key, unsigned) };
  const line = `${JSON.stringify(checkpoint)}\n`;
  const append = async () =>
    await Deno.writeTextFile(path, (await endsMidLine(path)) ? `\n${line}` : line, {
      append: true,
      create: true,
      mode: 0o600,
    });
  try {
    await append();
  } catch (error) {
    // A configured file on a volume whose folder does not exist yet (the server may write the
    // file, not read around it, so the folder is only looked at when the write says it is missing).
    const slash = path.lastIndexOf("/");
    if (!(error instanceof Deno.errors.NotFound) || slash <= 0) throw error;
    await createPrivateDir(path.slice(0, slash));
    await append();
  }
  return checkpoint;
}

export type CheckpointVerification =
  | { ok: true; checked: number; skipped: number }
  | { ok: false; checked: number; problem: string };

/**
 * Checks every checkpoint of the file: its signature under `key`, and that the trail still holds
 * its row with its hash. A missing file fails unless the trail is empty.
 */
export async function verifyAuditCheckpoints(
  db: Queryable,
  key: Uint8Array,
  path: string,
): Promise<CheckpointVerification> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    if (await chainHead(db) === undefined) return { ok: true, checked: 0, skipped: 0 };
    return { ok: false, checked: 0, problem: `no checkpoint file at ${path} (AUDIT_CHECKPOINT_FILE)` };
  }
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
    checked += 1;
  }
  return { ok: true, checked, skipped };
}

/**
 * Writes a checkpoint every `intervalMs` while the trail grows, and one more on stop (before the
 * database is closed).
 */
export function startAuditCheckpoints(
  db: Queryable,
  key: Uint8Array,
  path: string,
  intervalMs = AUDIT_CHECKPOINT_INTERVAL_MS,
): { stop(): Promise<void> } {
  let lastHeadSeq: number | null = null;
  let running: Promise<void> = Promise.resolve();
  const write = async () => {
    const head = await chainHead(db);
    if (head === undefined || head.seq === lastHeadSeq) return;
    await writeAuditCheckpoint(db, key, path);
    lastHeadSeq = head.seq;
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
