/**
 * What `deno task backup` and the console's own backups (src/server/backup/) write and
 * `deno task restore` reads (docs/deployment.md, "Backup and
 * restore"): one folder per backup, holding the primary's database as one standalone SQLite file
 * and manifest.json beside it, which names the file, its size and SHA-256, and the point of the
 * primary's replication log the copy stands at.
 */
import { createHash } from "node:crypto";
import { z } from "zod";

export const MANIFEST_FILE = "manifest.json";
export const BACKUP_FILE = "primary.db";
export const MANIFEST_FORMAT = "cbr-primary-backup";
export const MANIFEST_FORMAT_VERSION = 1;
/** sqld's replication log carries 4 KiB pages only: it refuses a database file with another page size. */
export const SQLD_PAGE_SIZE_BYTES = 4096;
/** Backups and what restore lays down hold every record of the bank: owner only. */
export const SECRET_FILE_MODE = 0o600;
export const SECRET_DIR_MODE = 0o700;

export const manifestSchema = z.strictObject({
  format: z.literal(MANIFEST_FORMAT),
  formatVersion: z.literal(MANIFEST_FORMAT_VERSION),
  /** When the copy was consistent with the primary: the moment its sync ended. */
  takenAt: z.iso.datetime(),
  /**
   * The primary's replication frame number the copy stands at, within the log `logId`; both null for
   * a standalone node's copy of its embedded file, which has no replication log.
   */
  frameNo: z.number().int().nonnegative().nullable(),
  logId: z.uuid().nullable(),
  /** The primary's URL without credentials or query. */
  sourceUrl: z.string().min(1),
  /** The database file's name inside the backup folder: a plain name, never a path. */
  file: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/),
  sizeBytes: z.number().int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The last entry of schema_migrations, or null when the database has none. */
  lastMigration: z.string().nullable(),
});

export type Manifest = z.infer<typeof manifestSchema>;

/** Reads and checks `dir`/manifest.json; throws a message naming what is wrong. */
export async function readManifest(dir: string): Promise<Manifest> {
  const path = `${dir}/${MANIFEST_FILE}`;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(`${path} does not exist: is ${dir} a backup folder?`);
    }
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not JSON`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      `${issue.path.join(".") || "(root)"}: ${issue.message}`
    );
    throw new Error(`${path} is not a backup manifest this version reads (${problems.join("; ")})`);
  }
  return parsed.data;
}

/** How much of a file is read at a time while it is digested or copied. */
const CHUNK_BYTES = 1 << 20;

/**
 * Reads `from` once, returning its SHA-256 (hex) and size; with `to`, writes the same bytes there
 * (created, never overwritten, mode 0600) and syncs them to disk, so the digest is of what was written.
 */
export async function digestFile(from: string, to?: string): Promise<{ sha256: string; sizeBytes: number }> {
  const hash = createHash("sha256");
  const buffer = new Uint8Array(CHUNK_BYTES);
  let sizeBytes = 0;
  using source = await Deno.open(from, { read: true });
  using target = to === undefined
    ? null
    : await Deno.open(to, { write: true, createNew: true, mode: SECRET_FILE_MODE });
  for (;;) {
    const read = await source.read(buffer);
    if (read === null) break;
    const chunk = buffer.subarray(0, read);
    hash.update(chunk);
    sizeBytes += read;
    if (target) {
      for (let written = 0; written < read;) written += await target.write(chunk.subarray(written));
    }
  }
  await target?.sync();
  return { sha256: hash.digest("hex"), sizeBytes };
}

/**
 * A replication log id as sqld writes it in its log lines and the manifest records it, from the 16
 * bytes libSQL stores it in (a little-endian 128-bit integer, in sqld's log header and in a replica's
 * log index alike).
 */
export function logIdFromBytes(bytes: Uint8Array): string {
  const hex = Array.from(bytes.subarray(0, 16)).reverse().map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A folder name for an instant, sortable and free of characters shells or other systems mind. */
export function timestampName(at: Date): string {
  return at.toISOString().replace(/[-:]/g, "").replace(".", "-");
}
