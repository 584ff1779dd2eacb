/**
 * A consistent copy of the running primary (sqld), taken while it serves and takes writes: what
 * `deno task backup` (scripts/backup.ts) and the console's scheduled backup at headquarters
 * (src/server/backup/runs.ts) both run (docs/deployment.md, "Backup and restore").
 *
 * The copy is an embedded replica made for the occasion: libSQL applies the primary's frames a
 * whole transaction at a time and its sync answers the frame number it stopped at, so the replica
 * is the primary's database as of that frame. Its WAL is checkpointed, its integrity checked, and
 * its file copied byte for byte to DIR/<time>/primary.db, with manifest.json beside it. The work
 * happens in DIR/.<time>.partial, renamed once complete, so a folder without that prefix is a whole
 * backup. Files are mode 0600, folders 0700.
 *
 * The replica replays each transaction of the primary's current replication log, with two fsyncs
 * each; what came before the log's last compaction arrives as snapshots. A busy log therefore
 * costs more time than its size (docs/bench.md, "Backup and restore").
 */
import NativeDatabase from "libsql";
import {
  BACKUP_FILE,
  digestFile,
  logIdFromBytes,
  type Manifest,
  MANIFEST_FILE,
  MANIFEST_FORMAT,
  MANIFEST_FORMAT_VERSION,
  SECRET_DIR_MODE,
  SECRET_FILE_MODE,
  SQLD_PAGE_SIZE_BYTES,
  timestampName,
} from "./manifest.ts";

/** A full copy of a large database over a slow link fits; a primary that stops answering does not hold the backup for ever. */
export const DEFAULT_SYNC_TIMEOUT_S = 600;
const REPLICA_FILE = "primary-replica.db";
/**
 * libSQL's record of the log and frame an embedded replica holds, beside its file: the log id as a
 * little-endian 128-bit integer, then the committed frame number as a little-endian 64-bit one.
 */
const CLIENT_WAL_INDEX_SUFFIX = "-client_wal_index";
const CLIENT_WAL_INDEX_BYTES = 32;

export interface PrimaryBackupOptions {
  syncUrl: string;
  authToken: string;
  outDir: string;
  syncTimeoutMs: number;
}

/** Pulls the primary into a new embedded replica at `path`; resolves to the frame number it stands at. */
async function syncReplica(path: string, options: PrimaryBackupOptions): Promise<number> {
  const worker = new Worker(new URL("./sync_worker.ts", import.meta.url).href, { type: "module" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const answer = new Promise<{ frameNo?: number | null; error?: string }>((resolve, reject) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => {
        event.preventDefault();
        reject(new Error(event.message));
      };
    });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the primary's copy did not arrive within ${options.syncTimeoutMs / 1000} s`)),
        options.syncTimeoutMs,
      );
    });
    worker.postMessage({ path, syncUrl: options.syncUrl, authToken: options.authToken });
    const reply = await Promise.race([answer, timeout]);
    if (reply.error?.includes("PrimaryHandshakeTimeout")) {
      // libSQL retries a refused handshake for about 3 s and reports only that it timed out.
      throw new Error(
        `the primary did not accept the handshake (${reply.error}): is the token right, is the URL the primary's?`,
      );
    }
    if (reply.error !== undefined) throw new Error(`the primary's copy failed: ${reply.error}`);
    if (reply.frameNo === null || reply.frameNo === undefined) {
      throw new Error("the primary holds no data yet: nothing to back up");
    }
    return reply.frameNo;
  } finally {
    clearTimeout(timer);
    worker.terminate();
  }
}

/** The primary's replication log the replica followed, as sqld names it in its own log lines. */
async function replicatedLogId(replicaPath: string, frameNo: number): Promise<string> {
  const index = await Deno.readFile(`${replicaPath}${CLIENT_WAL_INDEX_SUFFIX}`);
  if (index.byteLength !== CLIENT_WAL_INDEX_BYTES) {
    throw new Error(
      `the replica's log index is ${index.byteLength} bytes, not ${CLIENT_WAL_INDEX_BYTES}: unknown libSQL format`,
    );
  }
  const committed = new DataView(index.buffer, index.byteOffset).getBigUint64(16, true);
  if (committed !== BigInt(frameNo)) {
    throw new Error(`the replica's log index stands at frame ${committed}, its sync answered ${frameNo}`);
  }
  return logIdFromBytes(index);
}

/**
 * Moves every frame of the copy's WAL into its database file and checks the result, so the
 * file alone is the database; returns the schema's last migration.
 */
export function settleCopy(replicaPath: string): string | null {
  const db = new NativeDatabase(replicaPath);
  try {
    const checkpoint = db.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get() as {
      log: number;
      checkpointed: number;
    };
    if (checkpoint.log !== checkpoint.checkpointed) {
      throw new Error(
        `the replica's WAL could not be checkpointed (${checkpoint.checkpointed} of ${checkpoint.log} frames)`,
      );
    }
    const integrity = db.prepare("PRAGMA integrity_check").all() as { integrity_check: string }[];
    if (integrity.length !== 1 || integrity[0].integrity_check !== "ok") {
      const problems = integrity.slice(0, 5).map((row) => row.integrity_check).join("; ");
      throw new Error(`the copy fails SQLite's integrity check: ${problems}`);
    }
    const { page_size: pageSize } = db.prepare("PRAGMA page_size").get() as { page_size: number };
    if (pageSize !== SQLD_PAGE_SIZE_BYTES) {
      throw new Error(`the copy's page size is ${pageSize}, sqld needs ${SQLD_PAGE_SIZE_BYTES}`);
    }
    const migrations = db.prepare(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
    ).get();
    if (!migrations) return null;
    const last = db.prepare("SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1").get() as
      | { name: string }
      | undefined;
    return last?.name ?? null;
  } finally {
    db.close();
  }
}

/** The URL as the manifest records it: no user, password, query (where a token may ride) or fragment. */
function publicUrl(syncUrl: string): string {
  const url = new URL(syncUrl);
  url.username = "";
  url.password = "";
  url.search = "";
  url.hash = "";
  return url.toString();
}

/**
 * Lays a backup down as DIR/<time>/ with manifest.json: `fill` writes BACKUP_FILE into the folder it
 * is given (DIR/.<time>.partial, removed if anything fails) and answers the manifest's facts.
 */
export async function writeBackupFolder(
  outDir: string,
  fill: (partial: string) => Promise<Omit<Manifest, "format" | "formatVersion" | "file">>,
): Promise<{ dir: string; manifest: Manifest }> {
  const name = timestampName(new Date());
  const partial = `${outDir}/.${name}.partial`;
  const dir = `${outDir}/${name}`;
  await Deno.mkdir(outDir, { recursive: true, mode: SECRET_DIR_MODE });
  await Deno.mkdir(partial, { mode: SECRET_DIR_MODE });
  try {
    const facts = await fill(partial);
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      formatVersion: MANIFEST_FORMAT_VERSION,
      file: BACKUP_FILE,
      ...facts,
    };
    await Deno.writeTextFile(`${partial}/${MANIFEST_FILE}`, JSON.stringify(manifest, null, 2) + "\n", {
      createNew: true,
      mode: SECRET_FILE_MODE,
    });
    await Deno.rename(partial, dir);
    return { dir, manifest };
  } catch (error) {
    await Deno.remove(partial, { recursive: true }).catch(() => {});
    throw error;
  }
}

export function takePrimaryBackup(
  options: PrimaryBackupOptions,
): Promise<{ dir: string; manifest: Manifest }> {
  return writeBackupFolder(options.outDir, async (partial) => {
    const replicaDir = `${partial}/replica`;
    await Deno.mkdir(replicaDir, { mode: SECRET_DIR_MODE });
    const replicaPath = `${replicaDir}/${REPLICA_FILE}`;
    const frameNo = await syncReplica(replicaPath, options);
    const takenAt = new Date().toISOString();
    const logId = await replicatedLogId(replicaPath, frameNo);
    const lastMigration = settleCopy(replicaPath);
    const { sha256, sizeBytes } = await digestFile(replicaPath, `${partial}/${BACKUP_FILE}`);
    await Deno.remove(replicaDir, { recursive: true });
    return {
      takenAt,
      frameNo,
      logId,
      sourceUrl: publicUrl(options.syncUrl),
      sizeBytes,
      sha256,
      lastMigration,
    };
  });
}
