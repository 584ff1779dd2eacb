/**
 * Disaster recovery on the replicated topology (docs/deployment.md), against a real sqld, at the
 * default sync interval:
 * - the time from a primary restored from a cold copy (started again) until every node serves the
 *   restored state, each node having found the divergence and rebuilt its replica;
 * - how fast a replica rebuilds, in MB/s of replica file, on a database filled to FILL_MB;
 * - the longest answer to a change while a region's link to headquarters is black-holed
 *   (target ≤ CHANGE_DEADLINE_MS).
 */
import { createClient } from "@libsql/client";
import { DEFAULT_SYNC_INTERVAL_MS } from "../src/server/config.ts";
import { CHANGE_DEADLINE_MS } from "../src/server/topology/deadline.ts";
import { call, type Cluster, startCluster, within } from "../tests/replication/support/cluster.ts";
import { type Desk, sweep, sweepDesks, type SweepPair } from "../tests/replication/support/sweep_desks.ts";
import { BENCH_QUICK, type BenchRow, formatMs } from "./lib/report.ts";

const FILL_MB = BENCH_QUICK ? 20 : 200;
const FILL_ROW_BYTES = 64 * 1024;
const FILL_ROWS_PER_BATCH = 16;
const LOST_SWEEPS = 10;
const PAUSE_MS = BENCH_QUICK ? 8_000 : 20_000;
const RESTORE_TIMEOUT_MS = 300_000;
const OPERATOR_EMAIL = "bench.recovery@centralbank.test";

async function fillPrimary(cluster: Cluster): Promise<void> {
  const token = (await Deno.readTextFile(`${cluster.dir}/keys/headquarters.token`)).trim();
  const client = createClient({ url: cluster.primary.url, authToken: token });
  try {
    await client.execute("CREATE TABLE IF NOT EXISTS bench_filler (id INTEGER PRIMARY KEY, body BLOB NOT NULL)");
    const batches = Math.ceil((FILL_MB * 1024 * 1024) / (FILL_ROW_BYTES * FILL_ROWS_PER_BATCH));
    for (let b = 0; b < batches; b++) {
      await client.batch(Array.from({ length: FILL_ROWS_PER_BATCH }, () => ({
        sql: "INSERT INTO bench_filler (body) VALUES (randomblob(?))",
        args: [FILL_ROW_BYTES],
      })), "write");
    }
  } finally {
    client.close();
  }
}

async function balance(desk: Desk, id: string): Promise<{ status: number; balance?: string }> {
  const res = await call(desk.baseUrl, "GET", "/api/ledger-accounts", desk.cookie);
  if (res.status !== 200) return { status: res.status };
  return { status: 200, balance: res.body.find((row: { id: string }) => row.id === id)?.currentBalance };
}

/** Per node: ms from `startMs` until it shows `expected`, and how long it answered "re-synchronising". */
async function watchRecovery(desks: Desk[], source: string, expected: string, startMs: number) {
  return await Promise.all(desks.map(async (desk) => {
    let resyncFirst: number | null = null;
    let resyncLast: number | null = null;
    for (;;) {
      const now = performance.now();
      const read = await balance(desk, source);
      if (read.status === 503) {
        resyncFirst ??= now;
        resyncLast = performance.now();
      }
      if (read.status === 200 && read.balance === expected) {
        return { servedMs: now - startMs, rebuildMs: resyncFirst === null ? null : resyncLast! - resyncFirst };
      }
      if (now - startMs > RESTORE_TIMEOUT_MS) throw new Error(`${desk.baseUrl} did not recover`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }));
}

async function restoreFigures(cluster: Cluster, desks: Desk[], pair: SweepPair) {
  const before = (await balance(desks[0], pair.source)).balance!;
  const copy = `${cluster.dir}/bench-copy.sqld`;
  await cluster.stopPrimary();
  await new Deno.Command("cp", { args: ["-a", cluster.primaryDbPath, copy] }).output();
  await cluster.restartPrimary();
  for (let n = 0; n < LOST_SWEEPS; n++) await within(10_000, async () => (await sweep(desks[0], pair, "1.00")).status === 201);
  await cluster.killPrimary();
  await Deno.rename(cluster.primaryDbPath, `${cluster.dir}/bench-killed.sqld`);
  await new Deno.Command("cp", { args: ["-a", copy, cluster.primaryDbPath] }).output();
  const startMs = performance.now();
  await cluster.restartPrimary();
  return await watchRecovery(desks, pair.source, before, startMs);
}

async function longestAnswerWhileCut(cluster: Cluster, desk: Desk, pair: SweepPair) {
  const link = cluster.regions[0].headquartersLink;
  link.pause();
  const started = performance.now();
  let longest = 0;
  let attempts = 0;
  while (performance.now() - started < PAUSE_MS) {
    const res = await sweep(desk, pair, "1.00");
    longest = Math.max(longest, res.ms);
    attempts++;
  }
  link.resume();
  return { longest, attempts };
}

export async function recoveryBench(log: (line: string) => void): Promise<BenchRow[]> {
  const cluster = await startCluster({ syncIntervalMs: DEFAULT_SYNC_INTERVAL_MS });
  try {
    const { pair, desks } = await sweepDesks(cluster, OPERATOR_EMAIL, "REC", "100000.00");
    log(`filling the primary with ${FILL_MB} MB…`);
    await fillPrimary(cluster);
    // One sweep after the fill carries a history mark, and every node syncs the fill before the copy.
    await sweep(desks[0], pair, "1.00");
    await within(RESTORE_TIMEOUT_MS, async () => {
      const reads = await Promise.all(desks.map((desk) => balance(desk, pair.source)));
      return reads.every((read) => read.balance === "99999.00");
    });
    log("restoring the primary from a cold copy…");
    const recovered = await restoreFigures(cluster, desks, pair);
    const replicaBytes = (await Deno.stat(`${cluster.dir}/nodes/north/replica.db`)).size;
    const slowest = Math.max(...recovered.map((node) => node.servedMs));
    const rebuilds = recovered.flatMap((node) => node.rebuildMs === null ? [] : [node.rebuildMs]);
    const rebuildMs = rebuilds.length === 0 ? null : Math.max(...rebuilds);
    log("black-holing north's link to headquarters during sweeps…");
    const cut = await longestAnswerWhileCut(cluster, desks[1], pair);
    const mb = replicaBytes / (1024 * 1024);
    return [
      {
        what: `primary restored from a cold copy: until every node serves it (${formatMbOf(mb)} database)`,
        reference: "—",
        ours: formatMs(slowest),
        ratio: null,
        target: "informational",
        pass: null,
        note: `per node: ${recovered.map((node) => formatMs(node.servedMs)).join(", ")}; sync interval ${DEFAULT_SYNC_INTERVAL_MS} ms`,
      },
      {
        what: "replica rebuild from the primary",
        reference: "—",
        ours: rebuildMs === null ? "not observed" : `${(mb / (rebuildMs / 1000)).toFixed(1)} MB/s`,
        ratio: null,
        target: "informational",
        pass: null,
        note: `${formatMbOf(mb)} replica; slowest node answered "re-synchronising" for ${rebuildMs === null ? "—" : formatMs(rebuildMs)}`,
      },
      {
        what: "longest change answer while headquarters is unreachable",
        reference: `${CHANGE_DEADLINE_MS} ms`,
        ours: formatMs(cut.longest),
        ratio: cut.longest / CHANGE_DEADLINE_MS,
        target: `≤ ${CHANGE_DEADLINE_MS / 1000} s`,
        pass: cut.longest <= CHANGE_DEADLINE_MS,
        note: `${cut.attempts} sweeps during a ${PAUSE_MS / 1000} s black-holed link`,
      },
    ];
  } finally {
    await cluster.stop();
  }
}

function formatMbOf(mb: number): string {
  return `${mb.toFixed(0)} MB`;
}
