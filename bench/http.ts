/**
 * HTTP throughput and latency with wrk: the hello-world reference and institution search on a
 * 100,000-institution database, interleaved round by round so that both see the same machine
 * noise; each figure is the median over the rounds. Also reports both processes' peak memory.
 * IBAN validation, keyed routing-code lookups and the session check are measured by
 * bench/cpu_cost.ts (server CPU per request, wrk and server on cores of their own), which replaced
 * their requests-per-second ratios to the hello-world here (issue 24).
 */
import { BENCH_QUICK, type BenchRow, formatMs, formatNumber, unavailableRow } from "./lib/report.ts";
import {
  BENCH_INSTITUTION_COUNT,
  benchSearchTerms,
  bootstrapDataDir,
  peakRssKiB,
  seedInstitutions,
  signInCookie,
  startHello,
  startServer,
} from "./lib/servers.ts";
import { api } from "./lib/console_api.ts";
import { medianResult, runWrk, type WrkRequest, type WrkResult } from "./lib/wrk.ts";

export const RUN_SECONDS = BENCH_QUICK ? 3 : 10;
export const WARMUP_SECONDS = BENCH_QUICK ? 1 : 3;
export const ROUNDS = 3;

interface Target {
  key: string;
  what: string;
  request: WrkRequest;
  results: WrkResult[];
}

const describe = (r: WrkResult) =>
  `${formatNumber(r.requestsPerSec)} req/s, p50 ${formatMs(r.p50Ms)}, p99 ${formatMs(r.p99Ms)}`;

/** The catch-all's answer to a path no feature serves (a feature's own 404 names the record). */
async function routeMissing(res: Response): Promise<boolean> {
  const text = await res.text();
  if (res.status !== 404) return false;
  try {
    return JSON.parse(text).message === "Not Found";
  } catch {
    return false;
  }
}

export async function httpBench(log: (line: string) => void): Promise<BenchRow[]> {
  log(`http: seeding ${formatNumber(BENCH_INSTITUTION_COUNT)} institutions`);
  const dataDir = await bootstrapDataDir();
  const server = await startServer({}, dataDir).then(async (s) => {
    await s.stop();
    await seedInstitutions(s.databaseUrl, BENCH_INSTITUTION_COUNT);
    return startServer({}, dataDir);
  });
  const hello = await startHello();
  const rows: BenchRow[] = [];
  try {
    const cookie = await signInCookie(server.baseUrl);
    const sessionHeaders = { cookie };
    const targets: Target[] = [{
      key: "hello",
      what: "HTTP reference: bare Deno.serve hello-world",
      request: { url: hello.url },
      results: [],
    }];

    const searchProbe = await api(server, cookie, "GET", "/api/institutions?search=REG-0000001");
    if (await routeMissing(searchProbe)) {
      rows.push(
        unavailableRow(
          `GET /api/institutions?search= (${formatNumber(BENCH_INSTITUTION_COUNT)})`,
          "—",
          "route not built yet",
        ),
      );
    } else {
      targets.push({
        key: "search",
        what: `GET /api/institutions?search= (${formatNumber(BENCH_INSTITUTION_COUNT)} institutions)`,
        request: {
          url: `${server.baseUrl}/`,
          headers: sessionHeaders,
          paths: benchSearchTerms(BENCH_INSTITUTION_COUNT).map((t) =>
            `/api/institutions?search=${encodeURIComponent(t)}`
          ),
        },
        results: [],
      });
    }

    const run = (target: Target, seconds: number) => runWrk(target.request, seconds);
    for (const target of targets) {
      log(`http: warm-up ${target.key} (${WARMUP_SECONDS} s)`);
      await run(target, WARMUP_SECONDS);
    }
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of targets) {
        log(`http: round ${round}/${ROUNDS} ${target.key} (${RUN_SECONDS} s)`);
        target.results.push(await run(target, RUN_SECONDS));
      }
    }

    const ref = medianResult(targets[0].results);
    const serverPeakKiB = await peakRssKiB(server.pid);
    const helloPeakKiB = await peakRssKiB(hello.pid);
    rows.unshift({
      what: targets[0].what,
      reference: "—",
      ours: describe(ref),
      ratio: null,
      target: "—",
      pass: null,
    });
    for (const target of targets.slice(1)) {
      const ours = medianResult(target.results);
      const broken = ours.non2xx > 0 || ours.socketErrors > 0;
      rows.push({
        what: target.what,
        reference: `${formatNumber(ref.requestsPerSec)} req/s`,
        ours: describe(ours),
        ratio: ours.requestsPerSec / ref.requestsPerSec,
        target: "—",
        pass: null,
        note: broken
          ? `${ours.non2xx} non-2xx responses and ${ours.socketErrors} socket errors over ${ROUNDS} runs: figure not valid`
          : undefined,
      });
    }
    rows.push({
      what: "Peak server memory (VmHWM) over the HTTP runs",
      reference: `${formatNumber(helloPeakKiB / 1024, 1)} MiB (hello-world)`,
      ours: `${formatNumber(serverPeakKiB / 1024, 1)} MiB`,
      ratio: serverPeakKiB / helloPeakKiB,
      target: "—",
      pass: null,
    });
    return rows;
  } finally {
    await hello.stop();
    await server.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}
