/**
 * The disaster-recovery drill with real processes: sweeps, a cold copy of the primary, ten more
 * sweeps, the primary SIGKILLed and brought back from the copy. Every node (headquarters and two
 * regions, one of them down through the restore while headquarters writes far past its frames)
 * must find that the primary no longer holds its replica, set the file aside, rebuild, and report
 * the sweeps the restore lost; no node may ever answer 500 or serve a corrupt file.
 */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { call, type Call, type Cluster, startCluster, within } from "./support/cluster.ts";
import { type Desk, sweep as sweepOnce, sweepDesks, type SweepPair } from "./support/sweep_desks.ts";
import { runTask } from "./support/tasks.ts";

/** Every node serves the restored state within this of the primary's restart (docs/deployment.md). */
const CONVERGENCE_BOUND_MS = 30_000;
const OPERATOR_EMAIL = "drill-operator@hq.test";
const LOST_SWEEPS = 10;

async function copyFolder(from: string, to: string): Promise<void> {
  const copied = await new Deno.Command("cp", { args: ["-a", from, to] }).output();
  if (!copied.success) throw new Error(`cp failed: ${new TextDecoder().decode(copied.stderr)}`);
}

const sweep = (desk: Desk, pair: SweepPair, key: string) => sweepOnce(desk, pair, "10.00", key);

async function sourceBalance(desk: Desk, source: string): Promise<Call & { balance?: string }> {
  const res = await call(desk.baseUrl, "GET", "/api/ledger-accounts", desk.cookie);
  const account = Array.isArray(res.body) ? res.body.find((row: { id: string }) => row.id === source) : undefined;
  return { ...res, balance: account?.currentBalance };
}

/** Reads at every node until each shows `balance`, recording every answer; none may be a 500. */
async function converge(desks: Desk[], source: string, balance: string, answers: Call[]): Promise<number> {
  return await within(CONVERGENCE_BOUND_MS, async () => {
    const reads = await Promise.all(desks.map((desk) => sourceBalance(desk, source)));
    answers.push(...reads);
    return reads.every((read) => read.status === 200 && read.balance === balance);
  });
}

async function integrityOf(path: string): Promise<string> {
  const client = createClient({ url: `file:${path}` });
  try {
    const result = await client.execute("PRAGMA integrity_check");
    return result.rows.map((row) => String(row[0])).join("; ");
  } finally {
    client.close();
  }
}

/** Sessions are signed in before any copy is taken, so that the restored primary still holds them. */
function prepare(cluster: Cluster) {
  return sweepDesks(cluster, OPERATOR_EMAIL, "DRILL", "100000.00");
}

/** Ten sweeps the restore will lose, spread over the nodes; answers their keys once every node shows them. */
async function loseSweeps(desks: Desk[], pair: SweepPair, answers: Call[]): Promise<string[]> {
  const lostKeys: string[] = [];
  for (let n = 0; n < LOST_SWEEPS; n++) {
    const key = crypto.randomUUID();
    lostKeys.push(key);
    // Right after a restart a node may not have synced yet: a paused change is tried again.
    await within(10_000, async () => (await sweep(desks[n % 3], pair, key)).status === 201);
  }
  await converge(desks, pair.source, "99850.00", answers);
  return lostKeys;
}

/** No answer was a 500, and every node's replica file passes integrity_check. */
async function assertSound(cluster: Cluster, answers: Call[]): Promise<void> {
  const failures = answers.filter((answer) => answer.status >= 500 && answer.status !== 503);
  assert.deepEqual(failures.map((answer) => `${answer.status} ${JSON.stringify(answer.body)}`), []);
  for (const node of ["headquarters", ...cluster.regions.map((region) => region.region)]) {
    assert.equal(await integrityOf(`${cluster.dir}/nodes/${node}/replica.db`), "ok", node);
  }
}

Deno.test({
  name: "restore drill: a primary restored from a cold copy never corrupts a replica, and what it lost is reported",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const cluster = await startCluster();
    const [, south] = cluster.regions;
    try {
      const { adminCookie, pair, desks } = await prepare(cluster);
      for (let n = 0; n < 5; n++) assert.equal((await sweep(desks[n % 3], pair, crypto.randomUUID())).status, 201);
      const answers: Call[] = [];
      await converge(desks, pair.source, "99950.00", answers);

      const copy = `${cluster.dir}/cold-copy.sqld`;
      await cluster.stopPrimary();
      await copyFolder(cluster.primaryDbPath, copy);
      await cluster.restartPrimary();

      const lostKeys = await loseSweeps(desks, pair, answers);

      await t.step("the primary is restored from the cold copy while south is down", async () => {
        await south.stop();
        await cluster.killPrimary();
        await Deno.rename(cluster.primaryDbPath, `${cluster.dir}/killed.sqld`);
        await copyFolder(copy, cluster.primaryDbPath);
        await cluster.restartPrimary();
        const running = desks.slice(0, 2);
        const ms = await converge(running, pair.source, "99950.00", answers);
        console.log(`headquarters and north serve the restored state ${Math.round(ms)} ms after the restart`);
      });

      await t.step("headquarters writes far past the lost frames; south, started after, rebuilds too", async () => {
        for (let n = 0; n < 30; n++) {
          await within(10_000, async () => (await sweep(desks[0], pair, crypto.randomUUID())).status === 201);
        }
        await south.start();
        desks[2].baseUrl = south.server.baseUrl;
        await converge(desks, pair.source, "99650.00", answers);
      });

      await t.step("no node ever answered 500; every replica passes integrity_check", async () => {
        await assertSound(cluster, answers);
        for (const desk of desks) {
          const stats = await call(desk.baseUrl, "GET", "/api/api-logs/stats", adminCookie);
          assert.notEqual(stats.status, 500, `${desk.name}: ${JSON.stringify(stats.body)}`);
        }
      });

      await t.step("reconciliation is clean at every node", async () => {
        for (const desk of desks) {
          const res = await call(desk.baseUrl, "GET", "/api/ledger-accounts/reconciliation", desk.cookie);
          assert.equal(res.status, 200, `${desk.name}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.ok, true, `${desk.name}: ${JSON.stringify(res.body.problems)}`);
        }
      });

      await t.step("each node reports the ten lost sweeps; a retry with a lost key is linked to it", async () => {
        const retried = await sweep(desks[0], pair, lostKeys[0]);
        assert.equal(retried.status, 201, JSON.stringify(retried.body));
        const reports = await within(10_000, async () => {
          const res = await call(desks[0].baseUrl, "GET", "/api/system/divergence-reports", adminCookie);
          return res.status === 200 && res.body.length >= 3;
        }).then(() => call(desks[0].baseUrl, "GET", "/api/system/divergence-reports", adminCookie));
        const nodes = reports.body.map((report: { node: string }) => report.node).sort();
        assert.deepEqual(nodes, ["headquarters", "region:north", "region:south"]);
        for (const report of reports.body) {
          assert.equal(report.sweeps.length, LOST_SWEEPS, `${report.node}: ${JSON.stringify(report.counts)}`);
          assert.equal(report.counts.sweeps >= LOST_SWEEPS, true);
          assert.deepEqual(
            report.sweeps.map((lost: { idempotencyKey: string }) => lost.idempotencyKey).sort(),
            [...lostKeys].sort(),
          );
          const relinked = report.sweeps.find((lost: { idempotencyKey: string }) => lost.idempotencyKey === lostKeys[0]);
          assert.equal(relinked.reExecutedAs, retried.body.id);
          assert.match(report.setAsidePath, /diverged/);
          await Deno.stat(report.setAsidePath.replace(/^.*\/nodes\//, `${cluster.dir}/nodes/`));
        }
        const trail = await call(desks[0].baseUrl, "GET", "/api/audit-trail?action=replica_rebuilt_after_restore", adminCookie);
        assert.equal(trail.status, 200);
      });
    } finally {
      await cluster.stop();
    }
  },
});

/** Each node's lost-change report lists `keys` as its lost sweeps, once every node has recorded one. */
async function assertReportsList(desk: Desk, adminCookie: string, keys: string[]): Promise<void> {
  await within(15_000, async () => {
    const res = await call(desk.baseUrl, "GET", "/api/system/divergence-reports", adminCookie);
    return res.status === 200 && res.body.length >= 3;
  });
  const reports = await call(desk.baseUrl, "GET", "/api/system/divergence-reports", adminCookie);
  assert.deepEqual(reports.body.map((report: { node: string }) => report.node).sort(), [
    "headquarters",
    "region:north",
    "region:south",
  ]);
  for (const report of reports.body) {
    assert.deepEqual(report.sweeps.map((lost: { idempotencyKey: string }) => lost.idempotencyKey).sort(), [...keys].sort());
  }
}

Deno.test({
  name: "restore drill through deno task backup and deno task restore: online copy, restore, every node rebuilds",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const cluster = await startCluster();
    try {
      const { adminCookie, pair, desks } = await prepare(cluster);
      for (let n = 0; n < 5; n++) assert.equal((await sweep(desks[n % 3], pair, crypto.randomUUID())).status, 201);
      const answers: Call[] = [];
      await converge(desks, pair.source, "99950.00", answers);

      // The copy is taken while the primary runs and the consoles keep writing their request logs.
      const token = `${cluster.dir}/keys/headquarters.token`;
      const backup = await runTask("backup", ["--out", `${cluster.dir}/backups`, "--token-file", token], {
        DATABASE_SYNC_URL: cluster.primary.url,
      });
      assert.equal(backup.code, 0, backup.stderr);
      const [folder] = (await Array.fromAsync(Deno.readDir(`${cluster.dir}/backups`))).map((entry) => entry.name);

      const lostKeys = await loseSweeps(desks, pair, answers);

      await cluster.stopPrimary();
      const restore = await runTask("restore", ["--from", `${cluster.dir}/backups/${folder}`, "--db-path", cluster.primaryDbPath]);
      assert.equal(restore.code, 0, restore.stderr);
      const restartedAt = performance.now();
      await cluster.restartPrimary();
      await converge(desks, pair.source, "99950.00", answers);
      console.log(`every node serves the restored state ${Math.round(performance.now() - restartedAt)} ms after sqld started`);

      await assertSound(cluster, answers);
      await assertReportsList(desks[0], adminCookie, lostKeys);
    } finally {
      await cluster.stop();
    }
  },
});
