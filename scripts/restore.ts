/**
 * `deno task restore --from BACKUP_DIR --db-path SQLD_DB_PATH`: brings the primary (sqld) back from a
 * backup of `deno task backup` (docs/deployment.md, "Backup and restore"). sqld must be stopped.
 *
 * It refuses while any process holds a lock on the database or metastore under the db-path (the
 * kernel's record, file_locks.ts: sqld locks both for as long as it runs; run restore as root or as
 * sqld's user, who can open them), a db-path that exists without sqld's dbs/ or metastore/ in it,
 * and a copy whose size or SHA-256 differs from its manifest. The current db-path is renamed to <db-path>.replaced-<time>, never deleted, and
 * a new one holds the copy alone as dbs/default/data. With no replication log beside its data, sqld
 * builds a new one from the file at start, under a new log id: every embedded replica notices the
 * new log at its next sync and copies the database again, rather than taking frames that belonged to
 * the old log (which is what goes wrong when a copy of the whole db-path, log included, is put back).
 */
import { parseArgs } from "node:util";
import { lockHolder } from "./file_locks.ts";
import {
  digestFile,
  type Manifest,
  readManifest,
  SECRET_DIR_MODE,
  SQLD_PAGE_SIZE_BYTES,
  timestampName,
} from "../src/server/backup/manifest.ts";

/** Where sqld keeps the default namespace's database under its --db-path. */
const SQLD_DATA_FILE = "dbs/default/data";
const SQLITE_MAGIC = "SQLite format 3\0";
/** The files sqld opens with SQLite, and so locks, for as long as it runs. */
const SQLD_LOCKED_FILES = [SQLD_DATA_FILE, "metastore/data"];
/** What sqld makes in its db-path at its first start. */
const SQLD_DB_PATH_ENTRIES = ["dbs", "metastore"];
const USAGE = "usage: deno task restore --from BACKUP_DIR --db-path SQLD_DB_PATH";

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, (error) => {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  });
}

/**
 * Refuses while any process has sqld's database or metastore under `dbPath` open: SQLite holds a
 * shared lock on each database file it has open, and sqld keeps both open while it runs.
 */
async function refuseWhileInUse(dbPath: string): Promise<void> {
  const holders: number[] = [];
  for (const file of SQLD_LOCKED_FILES) {
    const pid = await lockHolder(`${dbPath}/${file}`);
    if (pid !== null && !holders.includes(pid)) holders.push(pid);
  }
  if (holders.length > 0) {
    const pids = holders.map((pid) => `pid ${pid}`).join(", ");
    throw new Error(
      `refusing: sqld (or another process) has ${dbPath} open (${pids}): stop it first; nothing was changed`,
    );
  }
}

/**
 * Whether `dbPath` exists; refuses one that is not sqld's, since it is about to be renamed away
 * (a mistyped path must not move another folder).
 */
async function existingDbPath(dbPath: string): Promise<boolean> {
  if (!await exists(dbPath)) return false;
  const entries = (await Deno.stat(dbPath)).isDirectory
    ? [...Deno.readDirSync(dbPath)].map((entry) => entry.name)
    : [];
  if (!SQLD_DB_PATH_ENTRIES.some((name) => entries.includes(name))) {
    throw new Error(
      `refusing: ${dbPath} is not sqld's db-path (it holds no ${
        SQLD_DB_PATH_ENTRIES.join(" or ")
      }); nothing was changed`,
    );
  }
  return true;
}

/** Refuses a copy that is not the file its manifest describes, or not one sqld can serve. */
async function verifyCopy(path: string, manifest: Manifest): Promise<void> {
  const { sha256, sizeBytes } = await digestFile(path);
  if (sizeBytes !== manifest.sizeBytes || sha256 !== manifest.sha256) {
    throw new Error(
      `refusing: ${path} is not the copy its manifest describes (SHA-256 ${sha256}, ${sizeBytes} bytes; the manifest ` +
        `says ${manifest.sha256}, ${manifest.sizeBytes} bytes): it was altered or damaged, nothing was changed`,
    );
  }
  const header = new Uint8Array(100);
  using file = await Deno.open(path, { read: true });
  const read = await file.read(header);
  const pageSize = new DataView(header.buffer).getUint16(16);
  if (read !== header.byteLength || new TextDecoder().decode(header.subarray(0, 16)) !== SQLITE_MAGIC) {
    throw new Error(`refusing: ${path} is not an SQLite database`);
  }
  if (pageSize !== SQLD_PAGE_SIZE_BYTES || sizeBytes % SQLD_PAGE_SIZE_BYTES !== 0) {
    throw new Error(
      `refusing: ${path} has ${pageSize}-byte pages; sqld serves ${SQLD_PAGE_SIZE_BYTES}-byte pages only`,
    );
  }
}

/** Lays the copy down at `staging` as sqld's layout, checking the bytes written against the manifest. */
async function stage(copy: string, staging: string, manifest: Manifest): Promise<void> {
  const dataFile = `${staging}/${SQLD_DATA_FILE}`;
  await Deno.mkdir(staging, { mode: SECRET_DIR_MODE });
  await Deno.mkdir(dataFile.slice(0, dataFile.lastIndexOf("/")), { recursive: true, mode: SECRET_DIR_MODE });
  const { sha256 } = await digestFile(copy, dataFile);
  if (sha256 !== manifest.sha256) throw new Error(`${copy} changed while it was copied: nothing was changed`);
}

async function syncDirectory(path: string): Promise<void> {
  using dir = await Deno.open(path, { read: true });
  await dir.sync();
}

/** Restores `dbPath` from the backup folder `from`; returns its manifest and where the previous db-path went. */
async function restore(
  from: string,
  dbPath: string,
): Promise<{ manifest: Manifest; setAside: string | null }> {
  const manifest = await readManifest(from);
  const existed = await existingDbPath(dbPath);
  await refuseWhileInUse(dbPath);
  const copy = `${from}/${manifest.file}`;
  await verifyCopy(copy, manifest);
  const stamp = timestampName(new Date());
  const staging = `${dbPath}.restoring-${stamp}`;
  try {
    await stage(copy, staging, manifest);
    // Checked again: sqld may have been started while the copy was read.
    await refuseWhileInUse(dbPath);
  } catch (error) {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    throw error;
  }
  const setAside = existed ? `${dbPath}.replaced-${stamp}` : null;
  if (setAside !== null) await Deno.rename(dbPath, setAside);
  try {
    await Deno.rename(staging, dbPath);
  } catch (error) {
    if (setAside !== null) await Deno.rename(setAside, dbPath);
    throw error;
  }
  const parent = dbPath.includes("/") ? dbPath.slice(0, dbPath.lastIndexOf("/")) || "/" : ".";
  await syncDirectory(parent);
  return { manifest, setAside };
}

if (import.meta.main) {
  let values: { from?: string; "db-path"?: string } = {};
  try {
    values =
      parseArgs({ args: Deno.args, options: { from: { type: "string" }, "db-path": { type: "string" } } })
        .values;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
  }
  const from = values.from?.replace(/\/+$/, "");
  const dbPath = values["db-path"]?.replace(/\/+$/, "");
  if (!from || !dbPath) {
    console.error(USAGE);
    Deno.exit(2);
  }
  try {
    const { manifest, setAside } = await restore(from, dbPath);
    console.log(
      `Restored ${dbPath} from ${from}: the database as of ${manifest.takenAt} (${
        manifest.logId === null
          ? "a standalone node's copy"
          : `frame ${manifest.frameNo} of log ${manifest.logId}`
      }). ${
          setAside === null ? "There was no db-path before." : `The previous db-path is kept at ${setAside}.`
        }\n` +
        `Start sqld on ${dbPath}: it builds a new replication log from the copy, and every console's replica ` +
        `copies the database again at its next sync.`,
    );
  } catch (error) {
    console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(1);
  }
}
