/**
 * The replicated topology (docs/deployment.md), against a real sqld:
 * - local reads at a regional node (IBAN validation, routing code lookup, institution search)
 *   against the same on a standalone node, under wrk, in alternating runs: requests per second of
 *   the node's own CPU, target ≥ 0.9×. Both nodes write every request to their log; the regional
 *   one sends it to the primary and pulls it back with its syncs. Requests per second of the whole
 *   machine would charge it for the primary's and the other nodes' work too, which in production
 *   runs elsewhere;
 * - a manual sweep at a regional node over an 80 ms round trip (a delaying relay on loopback):
 *   target p50 ≤ 1.5 round trips (120 ms);
 * - how long a registration at one region takes to be read at another, at the default sync interval.
 */
import { createStaffSession, HTTP_STAFF_PASSWORD, openAccount } from "../tests/helpers/http_staff.ts";
import { DEFAULT_SYNC_INTERVAL_MS } from "../src/server/config.ts";
import { call, signIn, startCluster } from "../tests/replication/support/cluster.ts";
import { BENCH_QUICK, type BenchRow, formatMs, formatNumber } from "./lib/report.ts";
import { startServer } from "./lib/servers.ts";
import {
  clockTicksPerSecond,
  LOAD_CPU,
  pinProcess,
  SERVER_CPU,
  settledCpuTicks,
  unpinProcess,
} from "./lib/cpu.ts";
import { median, runWrk, type WrkRequest } from "./lib/wrk.ts";

const ROUND_TRIP_MS = 80;
const RUN_SECONDS = BENCH_QUICK ? 2 : 5;
const ROUNDS = BENCH_QUICK ? 1 : 3;
const SWEEPS = BENCH_QUICK ? 10 : 40;
const PROPAGATIONS = BENCH_QUICK ? 10 : 40;
const READ_RATIO_TARGET = 0.9;
const SWEEP_P50_TARGET_MS = 1.5 * ROUND_TRIP_MS;
const SEED_INSTITUTIONS = 300;
/** The operator who registers and sweeps on each deployment: the first administrator holds administrator alone. */
const OPERATOR_EMAIL = "bench.operator@centralbank.test";

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function institution(i: number) {
  return {
    name: `Bench Regional Bank ${i}`,
    type: "commercial",
    registrationNumber: `BR-${i}-${crypto.randomUUID().slice(0, 6)}`,
    address: `${i} Harbour Road`,
    phoneNumber: "+1 555 0100",
    emailAddress: "ops@bank.example",
  };
}

/** The same data at `baseUrl`: institutions and one routing code; returns that code. */
async function seed(baseUrl: string, cookie: string): Promise<string> {
  let firstId = "";
  for (let i = 0; i < SEED_INSTITUTIONS; i++) {
    const res = await call(baseUrl, "POST", "/api/institutions", cookie, institution(i));
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${JSON.stringify(res.body)}`);
    firstId ||= res.body.id;
  }
  const code = await call(baseUrl, "POST", "/api/routing-codes", cookie, { institutionId: firstId, prefix: "BEN" });
  if (code.status !== 201) throw new Error(`routing code failed: ${code.status} ${JSON.stringify(code.body)}`);
  return code.body.code;
}

function readPaths(baseUrl: string, cookie: string, code: string): [string, WrkRequest][] {
  const headers = { cookie };
  return [
    ["POST /api/iban/validate", {
      url: `${baseUrl}/api/iban/validate`,
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ iban: "DE89 3704 0044 0532 0130 00" }),
    }],
    [`GET /api/routing-codes/{code}`, { url: `${baseUrl}/api/routing-codes/${code}`, headers }],
    ["GET /api/institutions?search=", { url: `${baseUrl}/api/institutions?search=harbour&limit=20`, headers }],
  ];
}

export async function replicationBench(log: (line: string) => void): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const standalone = await startServer();
  const cluster = await startCluster({
    regions: ["north", "south"],
    oneWayDelayMs: ROUND_TRIP_MS / 2,
    syncIntervalMs: DEFAULT_SYNC_INTERVAL_MS,
  });
  try {
    const [north, south] = cluster.regions;
    const operatorOf = async (baseUrl: string, adminCookie: string) =>
      await createStaffSession(baseUrl, adminCookie, OPERATOR_EMAIL, ["operator"]);
    const standaloneCookie = await operatorOf(standalone.baseUrl, await signIn(standalone.baseUrl));
    const hqAdminCookie = await signIn(cluster.headquarters.baseUrl);
    const hqCookie = await operatorOf(cluster.headquarters.baseUrl, hqAdminCookie);
    log(`seeding ${SEED_INSTITUTIONS} institutions on the standalone node and through headquarters…`);
    const standaloneCode = await seed(standalone.baseUrl, standaloneCookie);
    const clusterCode = await seed(cluster.headquarters.baseUrl, hqCookie);
    const northCookie = await signIn(north.server.baseUrl, OPERATOR_EMAIL, HTTP_STAFF_PASSWORD);
    // The regional replica must carry the seed before it is measured.
    await new Promise((resolve) => setTimeout(resolve, 2 * DEFAULT_SYNC_INTERVAL_MS + 500));

    const local = readPaths(standalone.baseUrl, standaloneCookie, standaloneCode);
    const regional = readPaths(north.server.baseUrl, northCookie, clusterCode);
    // The two nodes under test share one core; wrk, the primary, headquarters and the other region
    // have the other. Those three stand for other machines, so only each node's own CPU time is
    // charged to it.
    const underTest = [standalone.pid, north.server.pid];
    const elsewhere = [cluster.primary.process.pid, cluster.headquarters.pid, south.server.pid];
    for (const pid of underTest) await pinProcess(pid, SERVER_CPU);
    for (const pid of elsewhere) await pinProcess(pid, LOAD_CPU);
    const ticksPerSecond = await clockTicksPerSecond();
    const measured = async (pid: number, request: WrkRequest) => {
      const before = await settledCpuTicks(pid);
      const result = await runWrk(request, RUN_SECONDS, { cpu: LOAD_CPU });
      const after = await settledCpuTicks(pid);
      return { result, usPerRequest: ((after - before) / ticksPerSecond) * 1e6 / result.requests };
    };
    for (const [i, [what, request]] of local.entries()) {
      const ratios: number[] = [];
      let lastStandalone = { requestsPerSec: 0, usPerRequest: 0 };
      let lastRegional = { requestsPerSec: 0, usPerRequest: 0, p99Ms: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        const a = await measured(standalone.pid, request);
        const b = await measured(north.server.pid, regional[i][1]);
        if (a.result.non2xx > 0 || b.result.non2xx > 0) {
          throw new Error(`${what}: ${a.result.non2xx} / ${b.result.non2xx} non-2xx answers`);
        }
        ratios.push(a.usPerRequest / b.usPerRequest);
        lastStandalone = { requestsPerSec: a.result.requestsPerSec, usPerRequest: a.usPerRequest };
        lastRegional = { requestsPerSec: b.result.requestsPerSec, usPerRequest: b.usPerRequest, p99Ms: b.result.p99Ms };
      }
      const ratio = median(ratios);
      log(`${what}: requests per CPU second, regional/standalone ${ratios.map((r) => r.toFixed(2)).join(", ")}`);
      rows.push({
        what: `regional node's local read: ${what} (requests per second of the node's own CPU)`,
        reference: `standalone ${formatNumber(lastStandalone.usPerRequest, 1)} µs/req, ${
          formatNumber(lastStandalone.requestsPerSec)
        } req/s`,
        ours: `${formatNumber(lastRegional.usPerRequest, 1)} µs/req, ${
          formatNumber(lastRegional.requestsPerSec)
        } req/s, p99 ${formatMs(lastRegional.p99Ms)}`,
        ratio,
        target: `≥ ${READ_RATIO_TARGET}×`,
        pass: ratio >= READ_RATIO_TARGET,
        note: `median of ${ROUNDS} alternating runs; each node's CPU time (all threads, /proc) includes its request log`,
      });
    }

    // The sweeps and propagations measure latency, with every core free as before.
    for (const pid of [...underTest, ...elsewhere]) await unpinProcess(pid);
    log(`manual sweeps at a regional node over a ${ROUND_TRIP_MS} ms round trip…`);
    const account = (accountNumber: string, accountType: string, currentBalance: string) =>
      openAccount(cluster.headquarters.baseUrl, hqCookie, {
        accountNumber,
        accountName: accountNumber,
        accountType,
        currency: "USD",
        currentBalance,
      }, hqAdminCookie);
    const source = await account("BENCH-SRC", "ledger", "100000.00");
    const target = await account("BENCH-DST", "liquid", "0.00");
    await new Promise((resolve) => setTimeout(resolve, 2 * DEFAULT_SYNC_INTERVAL_MS));
    const sweepMs: number[] = [];
    for (let i = 0; i < SWEEPS; i++) {
      const res = await call(north.server.baseUrl, "POST", "/api/balance-sweeps", northCookie, {
        sourceAccountId: source,
        targetAccountId: target,
        sweepAmount: "1.00",
      }, { "Idempotency-Key": crypto.randomUUID() });
      if (res.status !== 201) throw new Error(`sweep failed: ${res.status} ${JSON.stringify(res.body)}`);
      sweepMs.push(res.ms);
    }
    const sweepP50 = percentile(sweepMs, 50);
    rows.push({
      what: `manual sweep at a regional node, ${ROUND_TRIP_MS} ms round trip`,
      reference: `${ROUND_TRIP_MS} ms round trip`,
      ours: `p50 ${formatMs(sweepP50)}, p99 ${formatMs(percentile(sweepMs, 99))}`,
      ratio: null,
      target: `p50 ≤ ${SWEEP_P50_TARGET_MS} ms`,
      pass: sweepP50 <= SWEEP_P50_TARGET_MS,
      note: `${SWEEPS} sweeps in a row`,
    });

    log(`propagation north → south at a ${DEFAULT_SYNC_INTERVAL_MS} ms sync interval…`);
    const southCookie = await signIn(south.server.baseUrl);
    const propagationMs: number[] = [];
    for (let i = 0; i < PROPAGATIONS; i++) {
      const created = await call(north.server.baseUrl, "POST", "/api/institutions", northCookie, institution(10_000 + i));
      const started = performance.now() - created.ms / 2;
      for (;;) {
        if ((await call(south.server.baseUrl, "GET", `/api/institutions/${created.body.id}`, southCookie)).status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      propagationMs.push(performance.now() - started);
      // Registrations land at random points of the sync cycle.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * DEFAULT_SYNC_INTERVAL_MS));
    }
    rows.push({
      what: `propagation north → south (${DEFAULT_SYNC_INTERVAL_MS} ms sync, ${ROUND_TRIP_MS} ms round trip)`,
      reference: "—",
      ours: `p50 ${formatMs(percentile(propagationMs, 50))}, p99 ${formatMs(percentile(propagationMs, 99))}`,
      ratio: null,
      target: "—",
      pass: null,
      note: `${PROPAGATIONS} registrations; documented bound: sync interval + 1 s`,
    });
  } finally {
    await cluster.stop();
    await standalone.stop();
  }
  return rows;
}

if (import.meta.main) {
  for (const row of await replicationBench(console.log)) console.log(JSON.stringify(row));
}
