/**
 * Owner-only file modes for what the server keeps on disk: the data folder is created 0700 and the
 * database file with its WAL and shared-memory files is 0600, like the secrets key and generated
 * reports (their folder 0700).
 *
 * SQLite creates `-wal` and `-shm` with the mode of the database file itself, so creating the
 * (empty, hence valid) database file 0600 before the driver opens it is what keeps them private;
 * files left by an earlier version with a wider mode are narrowed to 0600 at open.
 */

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** The files SQLite (and an embedded replica's sync: `-info`, `-client_wal_index`) keeps next to a database file. */
export const DATABASE_SIDE_FILE_SUFFIXES = [
  "-wal",
  "-shm",
  "-journal",
  "-info",
  "-client_wal_index",
] as const;

/**
 * Creates `dir` (and missing parents) with mode 0700. A folder that already exists is left as it
 * is: it may be a shared one the operator chose (DATABASE_URL=file:/srv/shared/console.db).
 */
export async function createPrivateDir(dir: string): Promise<void> {
  try {
    await Deno.stat(dir);
    return;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  await Deno.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  // mkdir's mode passes through the umask; the folder must end up exactly owner-only.
  await Deno.chmod(dir, PRIVATE_DIR_MODE);
}

/** Narrows `path` to `mode` when group or others may reach it; whether it had to. */
async function narrowToOwner(path: string, mode = PRIVATE_FILE_MODE): Promise<boolean> {
  let current: number | null;
  try {
    current = (await Deno.stat(path)).mode;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
  if (current === null || (current & 0o077) === 0) return false;
  await Deno.chmod(path, mode);
  return true;
}

/**
 * A folder the server owns outright (generated reports): 0700, and every file directly in it 0600.
 * Folders and files left wider by an earlier version are narrowed; returns how many were.
 */
export async function narrowOwnedFolder(dir: string): Promise<number> {
  let narrowed = 0;
  try {
    if (await narrowToOwner(dir, PRIVATE_DIR_MODE)) narrowed += 1;
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && await narrowToOwner(`${dir}/${entry.name}`)) narrowed += 1;
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return narrowed;
}

/**
 * Before a database file is opened: its folder exists (created 0700 when missing), the file exists
 * with mode 0600, and any side file beside it (DATABASE_SIDE_FILE_SUFFIXES) is 0600 too.
 * `create: false` (an embedded replica, whose first sync refuses a file it did not create) only
 * makes the folder and narrows the files that exist: call it again once the driver made them.
 */
export async function preparePrivateDatabaseFile(path: string, { create = true } = {}): Promise<void> {
  const slash = path.lastIndexOf("/");
  if (slash > 0) await createPrivateDir(path.slice(0, slash));
  if (create) {
    try {
      (await Deno.open(path, { write: true, createNew: true, mode: PRIVATE_FILE_MODE })).close();
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
  for (const file of [path, ...DATABASE_SIDE_FILE_SUFFIXES.map((suffix) => `${path}${suffix}`)]) {
    await narrowToOwner(file);
  }
}
