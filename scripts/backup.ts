/**
 * `deno task backup --out DIR [--token-file FILE] [--sync-timeout-s SECONDS]`: a consistent copy of
 * the running primary (sqld), taken while it serves and takes writes (docs/deployment.md, "Backup
 * and restore"). The primary's URL comes from DATABASE_SYNC_URL and its token from --token-file,
 * else DATABASE_AUTH_TOKEN, as for a console node; the token is never printed.
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
import { parseArgs } from "node:util";
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
} from "./backup_manifest.ts";

/** A full copy of a large database over a slow link fits; a primary that stops answering does not hold the backup for ever. */
const DEFAULT_SYNC_TIMEOUT_S = 600;
const REPLICA_FILE = "primary-replica.db";
/**
 * libSQL's record of the log and frame an embedded replica holds, beside its file: the log id as a
 * little-endian 128-bit integer, then the committed frame number as a little-endian 64-bit one.
 */
const CLIENT_WAL_INDEX_SUFFIX = "-client_wal_index";
const CLIENT_WAL_INDEX_BYTES = 32;
const USAGE = "usage: deno task backup --out DIR [--token-file FILE] [--sync-timeout-s SECONDS]\n" +
  "  the primary's URL from DATABASE_SYNC_URL; its token from --token-file, else DATABASE_AUTH_TOKEN";

interface BackupOptions {
  syncUrl: string;
  authToken: string;
  outDir: string;
  syncTimeoutMs: number;
}

/** Pulls the primary into a new embedded replica at `path`; resolves to the frame number it stands at. */
async function syncReplica(path: string, options: BackupOptions): Promise<number> {
  const worker = new Worker(new URL("./backup_sync_worker.ts", import.meta.url).href, { type: "module" });
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
 * Moves every frame of the replica's WAL into its database file and checks the result, so the
 * file alone is the database; returns the schema's last migration.
 */
function settleReplica(replicaPath: string): string | null {
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

async function takeBackup(options: BackupOptions): Promise<{ dir: string; manifest: Manifest }> {
  const name = timestampName(new Date());
  const partial = `${options.outDir}/.${name}.partial`;
  const dir = `${options.outDir}/${name}`;
  await Deno.mkdir(options.outDir, { recursive: true, mode: SECRET_DIR_MODE });
  await Deno.mkdir(partial, { mode: SECRET_DIR_MODE });
  const replicaDir = `${partial}/replica`;
  try {
    await Deno.mkdir(replicaDir, { mode: SECRET_DIR_MODE });
    const replicaPath = `${replicaDir}/${REPLICA_FILE}`;
    const frameNo = await syncReplica(replicaPath, options);
    const takenAt = new Date().toISOString();
    const logId = await replicatedLogId(replicaPath, frameNo);
    const lastMigration = settleReplica(replicaPath);
    const { sha256, sizeBytes } = await digestFile(replicaPath, `${partial}/${BACKUP_FILE}`);
    await Deno.remove(replicaDir, { recursive: true });
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      formatVersion: MANIFEST_FORMAT_VERSION,
      takenAt,
      frameNo,
      logId,
      sourceUrl: publicUrl(options.syncUrl),
      file: BACKUP_FILE,
      sizeBytes,
      sha256,
      lastMigration,
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

function usage(problem: string): never {
  console.error(`${problem}\n${USAGE}`);
  Deno.exit(2);
}

async function parseOptions(): Promise<BackupOptions> {
  let values: { out?: string; "token-file"?: string; "sync-timeout-s": string };
  try {
    values = parseArgs({
      args: Deno.args,
      options: {
        out: { type: "string" },
        "token-file": { type: "string" },
        "sync-timeout-s": { type: "string", default: String(DEFAULT_SYNC_TIMEOUT_S) },
      },
    }).values;
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error));
  }
  const syncUrl = Deno.env.get("DATABASE_SYNC_URL") ?? "";
  if (!URL.canParse(syncUrl) || !["http:", "https:", "libsql:"].includes(new URL(syncUrl).protocol)) {
    usage("DATABASE_SYNC_URL must be the primary's http(s):// or libsql:// URL");
  }
  if (!values.out) usage("--out DIR is required");
  const seconds = Number(values["sync-timeout-s"]);
  if (!Number.isInteger(seconds) || seconds <= 0) usage("--sync-timeout-s must be a whole number of seconds");
  const tokenFile = values["token-file"];
  const token = tokenFile
    ? await Deno.readTextFile(tokenFile).catch((error) =>
      usage(`cannot read --token-file ${tokenFile}: ${error.message}`)
    )
    : Deno.env.get("DATABASE_AUTH_TOKEN") ?? "";
  const authToken = token.trim();
  if (authToken === "") usage("no token: give --token-file or set DATABASE_AUTH_TOKEN");
  return { syncUrl, authToken, outDir: values.out, syncTimeoutMs: seconds * 1000 };
}

if (import.meta.main) {
  const options = await parseOptions();
  const started = performance.now();
  try {
    const { dir, manifest } = await takeBackup(options);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Backup of ${manifest.sourceUrl} written to ${dir} in ${seconds} s: ${manifest.file}, ` +
        `${manifest.sizeBytes} bytes, SHA-256 ${manifest.sha256}, frame ${manifest.frameNo} of log ${manifest.logId}.`,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // libSQL's messages are not ours: the token must not leave in one of them.
    console.error(`Backup failed: ${message.replaceAll(options.authToken, "[token]")}`);
    // The sync thread may still be blocked in native code; exiting ends it.
    Deno.exit(1);
  }
}
