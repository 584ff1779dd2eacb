/**
 * Owner-only file modes for what the server keeps on disk: the data folder is created 0700 and the
 * database file with its WAL and shared-memory files is 0600, like the secrets key.
 *
 * SQLite creates `-wal` and `-shm` with the mode of the database file itself, so creating the
 * (empty, hence valid) database file 0600 before the driver opens it is what keeps them private;
 * files left by an earlier version with a wider mode are narrowed to 0600 at open.
 */

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** The files SQLite (and an embedded replica's sync: `-info`, `-client_wal_index`) keeps next to a database file. */
export const DATABASE_SIDE_FILE_SUFFIXES = ["-wal", "-shm", "-journal", "-info", "-client_wal_index"] as const;

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

async function narrowToOwner(path: string): Promise<void> {
  let mode: number | null;
  try {
    mode = (await Deno.stat(path)).mode;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  if (mode !== null && (mode & 0o077) !== 0) await Deno.chmod(path, PRIVATE_FILE_MODE);
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
