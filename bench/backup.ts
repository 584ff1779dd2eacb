/**
 * Backup and restore of the primary (docs/deployment.md, "Backup and restore"), against a real sqld
 * holding a database of BACKUP_BENCH_MB megabytes (400 by default, 50 with BENCH_QUICK=1):
 * - `deno task backup` of the idle primary, then while a writer inserts one row at a time: wall
 *   time and MB/s, and the writer's insert latency during the backup against the seconds before it;
 * - sqld stopped, `deno task restore` of the second backup into its db-path: wall time; sqld's start on the restored
 *   db-path to its answer to a first query (it builds a new replication log from the whole file);
 * - an embedded replica made before the restore: its first sync after it (a full copy again).
 * Each task runs as its own process with its deno.json permissions (tests/replication/support/tasks.ts).
 */
import NativeDatabase from "libsql";
import { readManifest } from "../src/server/backup/manifest.ts";
import { type LonePrimary, startLonePrimary } from "../tests/replication/support/lone_primary.ts";
import { runTask } from "../tests/replication/support/tasks.ts";
import { BENCH_QUICK, type BenchRow, formatMs, formatNumber } from "./lib/report.ts";

const DATABASE_MB = Number(Deno.env.get("BACKUP_BENCH_MB") ?? (BENCH_QUICK ? 50 : 400));
/** Rows per filling statement: about 10 MB, one transaction each. */
const FILL_ROWS_PER_STATEMENT = 20_000;
/** How long the writer runs before the backup starts, for its baseline latency. */
const BASELINE_MS = 3_000;
const BYTES_PER_MB = 1e6;
/** The console's default sync interval: how soon a failed sync is tried again. */
const RESYNC_RETRY_MS = 1_000;
const RESYNC_TIMEOUT_MS = 120_000;

/** Fills the primary with institution-like rows (a name index, 400 hex characters each) up to `mb` MB. */
async function fill(primary: LonePrimary, mb: number): Promise<{ rows: number; bytes: number }> {
  const client = primary.client();
  try {
    await client.execute(
      "CREATE TABLE bulk (id INTEGER PRIMARY KEY, name TEXT NOT NULL, body TEXT NOT NULL)",
    );
    await client.execute("CREATE INDEX bulk_name ON bulk (name)");
    await client.execute("CREATE TABLE ticks (id INTEGER PRIMARY KEY, at TEXT NOT NULL)");
    let rows = 0;
    for (;;) {
      const size = await client.execute(
        "SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()",
      );
      const bytes = Number(size.rows[0].bytes);
      if (bytes >= mb * BYTES_PER_MB) return { rows, bytes };
      await client.execute({
        sql: `WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM n WHERE i < ?)
              INSERT INTO bulk (id, name, body) SELECT i, 'institution ' || i, hex(randomblob(200)) FROM n`,
        args: [rows + 1, rows + FILL_ROWS_PER_STATEMENT],
      });
      rows += FILL_ROWS_PER_STATEMENT;
    }
  } finally {
    client.close();
  }
}

/** Inserts one row at a time until stopped, recording when each insert ended and how long it took. */
function startWriter(primary: LonePrimary) {
  const client = primary.client();
  const inserts: { endedAt: number; ms: number }[] = [];
  let stopping = false;
  const done = (async () => {
    while (!stopping) {
      const started = performance.now();
      await client.execute("INSERT INTO ticks (at) VALUES (strftime('%Y-%m-%dT%H:%M:%f', 'now'))");
      inserts.push({ endedAt: performance.now(), ms: performance.now() - started });
    }
    client.close();
  })();
  return {
    /** Insert latencies (ms) of the inserts that ended within [from, to). */
    between: (from: number, to: number) =>
      inserts.filter((i) => i.endedAt >= from && i.endedAt < to).map((i) => i.ms),
    async stop() {
      stopping = true;
      await done;
    },
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function info(what: string, ours: string, note: string): BenchRow {
  return { what, reference: "—", ours, ratio: null, target: "—", pass: null, note };
}

/** `deno task backup` into `out`, the folder it made, its manifest and its wall time. */
async function backup(primary: LonePrimary, out: string, log: (line: string) => void) {
  const started = performance.now();
  const run = await runTask("backup", ["--out", out, "--token-file", primary.tokenFile], {
    DATABASE_SYNC_URL: primary.url,
  });
  const ms = performance.now() - started;
  if (run.code !== 0) throw new Error(`backup failed: ${run.stderr}`);
  log(run.stdout.trim());
  const dir = `${out}/${[...Deno.readDirSync(out)][0].name}`;
  return { dir, ms, started, manifest: await readManifest(dir) };
}

async function backupUnderWrites(primary: LonePrimary, out: string, log: (line: string) => void) {
  const writer = startWriter(primary);
  await new Promise((resolve) => setTimeout(resolve, BASELINE_MS));
  const taken = await backup(primary, out, log);
  await writer.stop();
  const during = writer.between(taken.started, taken.started + taken.ms);
  const before = writer.between(taken.started - BASELINE_MS, taken.started);
  return { ...taken, before, during };
}

/**
 * Syncs the replica as a console's sync loop does, again after each failure, until it succeeds: right
 * after sqld's start the new log of a database past --max-log-size is being compacted, and a replica
 * that asks for it meanwhile is told "snapshot not found".
 */
function resyncAfterRestore(replica: NativeDatabase.Database) {
  const started = performance.now();
  const failures: string[] = [];
  for (;;) {
    try {
      const synced = replica.sync() as { frames_synced: number };
      return { ms: performance.now() - started, framesSynced: synced.frames_synced, failures };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // libSQL wraps sqld's answer in a long debug dump; its message says what happened.
      failures.push(message.match(/message: "([^"]*)"/)?.[1] ?? message);
      if (performance.now() - started > RESYNC_TIMEOUT_MS) {
        throw new Error(`no sync after the restore: ${failures.at(-1)}`);
      }
      // A blocking pause: the sync is blocking too, and nothing else runs meanwhile.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RESYNC_RETRY_MS);
    }
  }
}

/** The primary stopped, `deno task restore` from `dir`, the primary started: each step's time. */
async function restoreInto(primary: LonePrimary, dir: string, rows: number) {
  await primary.stop();
  const restore = await runTask("restore", ["--from", dir, "--db-path", primary.dbPath]);
  if (restore.code !== 0) throw new Error(`restore failed: ${restore.stderr}`);
  const starting = performance.now();
  await primary.start();
  const client = primary.client();
  const restored = Number((await client.execute("SELECT count(*) AS n FROM bulk")).rows[0].n);
  const startMs = performance.now() - starting;
  client.close();
  if (restored !== rows) throw new Error(`the restored primary holds ${restored} rows, not ${rows}`);
  return { restoreMs: restore.ms, startMs };
}

const rate = (mb: number, ms: number) => `${formatMs(ms)}, ${formatNumber(mb / (ms / 1000), 1)} MB/s`;

/** The bench's rows from its measurements. */
function figures(
  { rows, idle, busy, restoreMs, startMs, resync }: {
    rows: number;
    idle: Awaited<ReturnType<typeof backup>>;
    busy: Awaited<ReturnType<typeof backupUnderWrites>>;
    restoreMs: number;
    startMs: number;
    resync: ReturnType<typeof resyncAfterRestore>;
  },
): BenchRow[] {
  const mb = busy.manifest.sizeBytes / BYTES_PER_MB;
  // A copy of the primary always names its frame (null only for a standalone node's copy).
  const replayed = (busy.manifest.frameNo ?? 0) - (idle.manifest.frameNo ?? 0);
  const p = (values: number[]) =>
    `p50 ${formatMs(percentile(values, 50))}, p99 ${formatMs(percentile(values, 99))}`;
  return [
    info(
      `backup of the running primary, idle, ${formatNumber(mb)} MB`,
      rate(mb, idle.ms),
      `${
        formatNumber(rows)
      } rows of about 430 bytes and a name index, written in ${FILL_ROWS_PER_STATEMENT}-row transactions; deno task backup as its own process, start to exit: a new embedded replica's sync, checkpoint, integrity check, copy with SHA-256`,
    ),
    info(
      `backup of the running primary under single-row inserts, ${formatNumber(mb)} MB`,
      rate(mb, busy.ms),
      `the same, ${BASELINE_MS / 1000} s after a writer started inserting one row per transaction: ${
        formatNumber(replayed)
      } more frames in the log, each transaction replayed with its fsyncs, the writer going on alongside`,
    ),
    info(
      "single-row inserts during that backup",
      `${p(busy.during)} (before it: ${p(busy.before)})`,
      `${busy.during.length} inserts during the backup, ${busy.before.length} in the ${
        BASELINE_MS / 1000
      } s before`,
    ),
    info(
      `restore, ${formatNumber(mb)} MB`,
      formatMs(restoreMs),
      "deno task restore as its own process: lock check, SHA-256, copy with SHA-256, renames",
    ),
    info(
      `sqld's start on the restored db-path, ${formatNumber(mb)} MB`,
      formatMs(startMs),
      "to its answer to a first query (the rows counted); it writes every page of the file into a new replication log first",
    ),
    info(
      `a console's replica's first sync after the restore, ${formatNumber(mb)} MB`,
      rate(mb, resync.ms),
      `${
        formatNumber(resync.framesSynced)
      } frames: the replica copies the whole database again from the new log; ` +
        (resync.failures.length === 0
          ? "its first try succeeded"
          : `${resync.failures.length} tries failed first, ${RESYNC_RETRY_MS / 1000} s apart ("${
            resync.failures[0]
          }")`),
    ),
  ];
}

export async function backupBench(log: (line: string) => void): Promise<BenchRow[]> {
  const primary = await startLonePrimary("cbr-bench-backup-");
  try {
    const filling = performance.now();
    const { rows, bytes } = await fill(primary, DATABASE_MB);
    log(
      `filled ${formatNumber(bytes / BYTES_PER_MB)} MB (${formatNumber(rows)} rows) in ${
        formatMs(performance.now() - filling)
      }`,
    );
    const replica = primary.replica(`${primary.dir}/console-replica.db`);
    replica.sync();

    const idle = await backup(primary, `${primary.dir}/idle`, log);
    const busy = await backupUnderWrites(primary, `${primary.dir}/busy`, log);
    const { restoreMs, startMs } = await restoreInto(primary, busy.dir, rows);
    const resync = resyncAfterRestore(replica);
    replica.close();

    return figures({ rows, idle, busy, restoreMs, startMs, resync });
  } finally {
    await primary.remove();
  }
}

if (import.meta.main) {
  for (const row of await backupBench(console.log)) console.log(JSON.stringify(row));
}
