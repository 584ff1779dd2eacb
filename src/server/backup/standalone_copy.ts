/**
 * A consistent copy of a standalone node's embedded database, taken while the server runs:
 * SQLite's VACUUM INTO writes the database as one read transaction sees it, so writes may go on
 * meanwhile. The copy is checked like a copy of the primary (settleCopy) and laid down in the same
 * folder and manifest format, so `deno task restore` and the checks of a restore read both alike.
 */
import type { Database } from "../db/database.ts";
import { BACKUP_FILE, digestFile, type Manifest, SECRET_FILE_MODE } from "./manifest.ts";
import { settleCopy, writeBackupFolder } from "./primary_copy.ts";

const VACUUM_FILE = "vacuum.db";

/** The database URL as the manifest records it: the file's path, without any query. */
const sourceOf = (url: string) => url.split("?")[0];

export function takeStandaloneBackup(
  db: Database,
  outDir: string,
): Promise<{ dir: string; manifest: Manifest }> {
  return writeBackupFolder(outDir, async (partial) => {
    const vacuumPath = `${partial}/${VACUUM_FILE}`;
    const takenAt = new Date().toISOString();
    await db.readClient.execute({ sql: "VACUUM INTO ?", args: [vacuumPath] });
    await Deno.chmod(vacuumPath, SECRET_FILE_MODE);
    const lastMigration = settleCopy(vacuumPath);
    const { sha256, sizeBytes } = await digestFile(vacuumPath, `${partial}/${BACKUP_FILE}`);
    await Deno.remove(vacuumPath);
    return {
      takenAt,
      frameNo: null,
      logId: null,
      sourceUrl: sourceOf(db.url),
      sizeBytes,
      sha256,
      lastMigration,
    };
  });
}
