/**
 * The console's own backups (System Settings, Backup tab): on a schedule and on an administrator's
 * "Back up now". At headquarters the copy is the primary's, by the same code as `deno task backup`
 * (primary_copy.ts); on a standalone node an online copy of the embedded file (standalone_copy.ts).
 * Regional nodes take none: their database is a replica of the one headquarters copies.
 *
 * Each run is a backup_runs row: claimed as "running" (one at a time, whichever process of the
 * database asks, so two processes on one file never copy at once), then completed or failed with
 * its audit row in one transaction. A failure also tells the administrators (event backup_failed).
 * Copies beyond the Backup tab's "copies kept" are removed, oldest first, after a successful run.
 */
import { sql } from "drizzle-orm";
import { SYSTEM_USER_ID } from "../../../db/schema.ts";
import { backupsToRemove, nextBackupDueMs } from "../../domain/system_settings.ts";
import { type Actor, recordAudit } from "../audit/trail.ts";
import { publishEvent } from "../events/outbox.ts";
import type { AppDeps } from "../http/context.ts";
import { conflict } from "../http/errors.ts";
import { readSystemSettings } from "../settings/system_settings.ts";
import { CHANGE_DEADLINE_MS, withDeadline } from "../topology/deadline.ts";
import type { Manifest } from "./manifest.ts";
import { DEFAULT_SYNC_TIMEOUT_S, takePrimaryBackup } from "./primary_copy.ts";
import { takeStandaloneBackup } from "./standalone_copy.ts";

export type BackupTrigger = "scheduled" | "manual";
type BackupDeps = Pick<AppDeps, "db" | "config" | "clock">;

export interface BackupRun {
  id: string;
  trigger: BackupTrigger;
  startedAt: string;
  finishedAt: string | null;
  status: "running" | "completed" | "failed";
  folder: string | null;
  sizeBytes: number | null;
  sha256: string | null;
  error: string | null;
}

/** A run still "running" after this long died with its process: the next claim marks it failed. */
export const STALE_BACKUP_RUN_MS = 2 * (DEFAULT_SYNC_TIMEOUT_S * 1000);
/** How often the scheduler looks whether a backup is due. */
export const BACKUP_CHECK_INTERVAL_MS = 60_000;
const MAX_ERROR_LENGTH = 1000;
const SCHEDULER_ACTOR: Actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: "backup-scheduler" };

const RUN_COLUMNS = `id, trigger, started_at AS startedAt, finished_at AS finishedAt, status, folder,
  size_bytes AS sizeBytes, sha256, error`;

/** The newest run (of one trigger, when given), or null. */
export async function lastBackupRun(
  deps: Pick<AppDeps, "db">,
  trigger?: BackupTrigger,
): Promise<BackupRun | null> {
  const where = trigger ? sql`WHERE trigger = ${trigger}` : sql``;
  const [row] = await deps.db.read.all<BackupRun>(
    sql`SELECT ${
      sql.raw(RUN_COLUMNS)
    } FROM backup_runs ${where} ORDER BY started_at DESC, rowid DESC LIMIT 1`,
  );
  return row ?? null;
}

/** Whether this node takes backups: headquarters and standalone nodes do, regional nodes do not. */
export const takesBackups = (config: AppDeps["config"]) => config.role !== "regional";

/** Claims the one running slot; a stale claim (its process died) is marked failed first. */
async function claimRun(
  deps: BackupDeps,
  trigger: BackupTrigger,
  requestedBy: string | null,
): Promise<BackupRun> {
  const id = crypto.randomUUID();
  const startedAt = new Date(deps.clock.now()).toISOString();
  const staleBefore = new Date(deps.clock.now() - STALE_BACKUP_RUN_MS).toISOString();
  const claimed = await deps.db.transaction(async (tx) => {
    await tx.run(sql`UPDATE backup_runs SET status = 'failed', finished_at = ${startedAt},
      error = 'The process taking this backup stopped before it finished'
      WHERE status = 'running' AND started_at < ${staleBefore}`);
    const inserted = await tx.run(sql`INSERT INTO backup_runs (id, trigger, started_at, status, requested_by)
      SELECT ${id}, ${trigger}, ${startedAt}, 'running', ${requestedBy}
      WHERE NOT EXISTS (SELECT 1 FROM backup_runs WHERE status = 'running')`);
    return inserted.rowsAffected === 1;
  });
  if (!claimed) throw conflict("backup", "A backup is already running; wait for it to finish");
  return {
    id,
    trigger,
    startedAt,
    finishedAt: null,
    status: "running",
    folder: null,
    sizeBytes: null,
    sha256: null,
    error: null,
  };
}

function takeCopy(deps: BackupDeps): Promise<{ dir: string; manifest: Manifest }> {
  const { config } = deps;
  if (config.replication?.role === "headquarters") {
    return takePrimaryBackup({
      syncUrl: config.replication.syncUrl,
      authToken: config.replication.authToken,
      outDir: config.backupDir,
      syncTimeoutMs: DEFAULT_SYNC_TIMEOUT_S * 1000,
    });
  }
  return takeStandaloneBackup(deps.db, config.backupDir);
}

/** The whole backups, their folder names sorting by time (partial folders start with a dot). */
async function backupFolders(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory && !entry.name.startsWith(".")) names.push(entry.name);
  }
  return names;
}

/** Removes the copies beyond the newest `keep`; answers their names. */
async function removeOldCopies(dir: string, keep: number): Promise<string[]> {
  const removed = backupsToRemove(await backupFolders(dir), keep);
  for (const name of removed) await Deno.remove(`${dir}/${name}`, { recursive: true });
  return removed;
}

/** libSQL's messages are not ours: the primary's token must not leave in one of them. */
function errorText(error: unknown, config: AppDeps["config"]): string {
  const message = error instanceof Error ? error.message : String(error);
  const token = config.replication?.authToken;
  return (token ? message.replaceAll(token, "[token]") : message).slice(0, MAX_ERROR_LENGTH);
}

/**
 * Claims the running slot and starts the copy: answers the run as claimed at once, and `finished`,
 * which resolves to the run as recorded (failed runs too: the caller reads `status`). Refused (409)
 * while another backup runs, and on a regional node.
 */
export async function startBackup(
  deps: BackupDeps,
  trigger: BackupTrigger,
  actor: Actor,
): Promise<{ run: BackupRun; finished: Promise<BackupRun> }> {
  if (!takesBackups(deps.config)) {
    throw conflict(
      "backup",
      "Backups are taken at headquarters: this regional node holds a replica of its database",
    );
  }
  const run = await claimRun(deps, trigger, actor.userId === SYSTEM_USER_ID ? null : actor.userId);
  return { run, finished: completeRun(deps, actor, run) };
}

/** Takes one backup and answers it as recorded: what the scheduler runs. */
export async function runBackup(deps: BackupDeps, trigger: BackupTrigger, actor: Actor): Promise<BackupRun> {
  return await (await startBackup(deps, trigger, actor)).finished;
}

async function completeRun(deps: BackupDeps, actor: Actor, run: BackupRun): Promise<BackupRun> {
  let finished: BackupRun;
  let removed: string[] = [];
  try {
    const { dir, manifest } = await takeCopy(deps);
    const settings = await readSystemSettings(deps.db);
    removed = await removeOldCopies(deps.config.backupDir, settings.backupRetentionCopies);
    finished = {
      ...run,
      status: "completed",
      folder: dir,
      sizeBytes: manifest.sizeBytes,
      sha256: manifest.sha256,
    };
  } catch (error) {
    finished = { ...run, status: "failed", error: errorText(error, deps.config) };
  }
  finished.finishedAt = new Date(deps.clock.now()).toISOString();
  // A copy outlasts the deadline of the request that asked for it: its record gets a deadline of its own.
  return await withDeadline(Date.now() + CHANGE_DEADLINE_MS, () => finishRun(deps, actor, finished, removed));
}

async function finishRun(
  deps: BackupDeps,
  actor: Actor,
  run: BackupRun,
  removed: string[],
): Promise<BackupRun> {
  await deps.db.transaction(async (tx) => {
    await tx.run(sql`UPDATE backup_runs SET status = ${run.status}, finished_at = ${run.finishedAt},
      folder = ${run.folder}, size_bytes = ${run.sizeBytes}, sha256 = ${run.sha256}, error = ${run.error}
      WHERE id = ${run.id}`);
    const { id: _, ...after } = run;
    await recordAudit(tx, actor, {
      entityType: "backup",
      entityId: run.id,
      action: run.status === "completed" ? "backup" : "backup_failed",
      changes: { after: { ...after, removedCopies: removed } },
    });
    if (run.status === "failed") {
      await publishEvent(tx, {
        kind: "backup_failed",
        subjectType: "backup",
        subjectId: run.id,
        summary: `The ${run.trigger} backup failed: ${run.error}`.slice(0, 500),
        link: "/settings",
        data: { startedAt: run.startedAt, trigger: run.trigger },
        audience: { roles: ["administrator"] },
      });
    }
  });
  return run;
}

/** When the next scheduled backup is due (ms on the app clock), or null with automatic backups off. */
export async function nextScheduledBackupMs(deps: Pick<AppDeps, "db">): Promise<number | null> {
  const settings = await readSystemSettings(deps.db);
  if (!settings.autoBackup) return null;
  const last = await lastBackupRun(deps, "scheduled");
  return nextBackupDueMs(settings.backupFrequency, last ? Date.parse(last.startedAt) : null);
}

/** One look of the scheduler: takes the scheduled backup if it is due; answers the run, or null. */
export async function runDueBackup(deps: BackupDeps): Promise<BackupRun | null> {
  const dueMs = await nextScheduledBackupMs(deps);
  if (dueMs === null || deps.clock.now() < dueMs) return null;
  return await runBackup(deps, "scheduled", SCHEDULER_ACTOR);
}

/**
 * Looks every BACKUP_CHECK_INTERVAL_MS whether a scheduled backup is due, at headquarters and on a
 * standalone node; returns the stop function, or null on a regional node.
 */
export function startBackupScheduler(deps: BackupDeps, log: (message: string) => void): (() => void) | null {
  if (!takesBackups(deps.config)) return null;
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const run = await runDueBackup(deps);
      if (run?.status === "failed") log(`Scheduled backup failed: ${run.error}`);
    } catch (error) {
      // Another process holds the running slot, or the database did not answer: the next look retries.
      log(`Scheduled backup not taken: ${errorText(error, deps.config)}`);
    } finally {
      busy = false;
    }
  }, BACKUP_CHECK_INTERVAL_MS);
  return () => clearInterval(timer);
}
