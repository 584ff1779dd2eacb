/**
 * HTTP throughput and latency with wrk: the hello-world reference and the app's hot endpoints on a
 * 100,000-institution database, interleaved round by round so that both see the same machine
 * noise; each figure is the median over the rounds. Also reports both processes' peak memory.
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
  type TestServer,
} from "./lib/servers.ts";
import { api, createApiKeys } from "./lib/console_api.ts";
import { medianResult, runWrk, type WrkRequest, type WrkResult } from "./lib/wrk.ts";

export const RUN_SECONDS = BENCH_QUICK ? 3 : 10;
export const WARMUP_SECONDS = BENCH_QUICK ? 1 : 3;
export const ROUNDS = 3;
export const MIN_IBAN_RATIO = 0.4;
export const MIN_ROUTING_RATIO = 0.4;
export const MAX_ROUTING_P99_MS = 10;
const BENCH_IBAN = "DE89370400440532013000";
const ROUTING_PREFIX = "BNK";
/** GET /api/routing-codes/{code} allows 500 requests per hour per key (spec 7): stay under it per key. */
const REQUESTS_PER_KEY = 450;
const INITIAL_KEYS = 200;
/** Keys for this many times the fastest rate seen so far, for the next run. */
const KEY_HEADROOM = 3;

interface Target {
  key: string;
  what: string;
  request: WrkRequest;
  results: WrkResult[];
  auth: string;
  /** Called before and after each run of this target (each run gets API keys of its own). */
  beforeRun?: (seconds: number) => Promise<void>;
  afterRun?: (result: WrkResult, seconds: number) => void;
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

async function createRoutingCode(server: TestServer, cookie: string): Promise<string | null> {
  const list = await api(server, cookie, "GET", "/api/institutions?limit=1");
  if (list.status !== 200) {
    await list.body?.cancel();
    return null;
  }
  const institutions = await list.json();
  const institutionId = (Array.isArray(institutions) ? institutions : institutions.data)?.[0]?.id;
  if (!institutionId) return null;
  const res = await api(server, cookie, "POST", "/api/routing-codes", {
    institutionId,
    prefix: ROUTING_PREFIX,
    branchCode: "001",
    description: "bench",
  });
  if (res.status !== 201) {
    await res.body?.cancel();
    return null;
  }
  return (await res.json()).code ?? null;
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
      auth: "",
    }];

    // The floor every session-authenticated route pays: the session guard and nothing else.
    targets.push({
      key: "session",
      what: "GET /api/auth/user (session guard alone, for comparison)",
      request: { url: `${server.baseUrl}/api/auth/user`, headers: sessionHeaders },
      results: [],
      auth: "session",
    });

    const ibanProbe = await api(server, cookie, "POST", "/api/iban/validate", { iban: BENCH_IBAN });
    if (await routeMissing(ibanProbe)) {
      rows.push(
        unavailableRow("POST /api/iban/validate", `≥ ${MIN_IBAN_RATIO}× hello`, "route not built yet"),
      );
    } else {
      targets.push({
        key: "iban",
        what: "POST /api/iban/validate",
        request: {
          url: `${server.baseUrl}/api/iban/validate`,
          method: "POST",
          headers: { ...sessionHeaders, "content-type": "application/json" },
          body: JSON.stringify({ iban: BENCH_IBAN }),
        },
        results: [],
        auth: "session",
      });
    }

    const code = await createRoutingCode(server, cookie);
    if (!code) {
      rows.push(unavailableRow(
        "GET /api/routing-codes/{code}",
        `≥ ${MIN_ROUTING_RATIO}× hello, p99 < ${MAX_ROUTING_P99_MS} ms`,
        "routing codes or institutions API not built yet",
      ));
    } else {
      const keys = await createApiKeys(server, cookie, INITIAL_KEYS);
      const url = `${server.baseUrl}/api/routing-codes/${code}`;
      if (keys) {
        // Each key may make 500 lookups an hour: rotate over enough keys that none is refused, so
        // the run measures key checking, counting and logging rather than 429s.
        const bearer = (k: string) => `Bearer ${k}`;
        const request = { url, rotateHeader: { name: "Authorization", values: keys.map(bearer) } };
        // Every run rotates over keys of its own, enough for KEY_HEADROOM times the fastest rate seen
        // so far (warm-ups run cold and slow): a key an earlier run used carries its count, and keys
        // that joined a shared pool late left the first ones over their limit (429s in the figures).
        let rate = 0;
        const ensureKeys = async (seconds: number) => {
          const needed = Math.max(
            INITIAL_KEYS,
            Math.ceil((rate * KEY_HEADROOM * seconds) / REQUESTS_PER_KEY),
          );
          const fresh = await createApiKeys(server, cookie, needed) ?? [];
          request.rotateHeader.values = fresh.map(bearer);
        };
        const record = (result: WrkResult, seconds: number) => {
          rate = Math.max(rate, result.requestsPerSec);
          log(
            `http: routing at ${
              formatNumber(result.requestsPerSec)
            } req/s over ${seconds} s; ${request.rotateHeader.values.length} keys`,
          );
        };
        log(`http: sizing the API key pool from a ${WARMUP_SECONDS} s warm-up`);
        record(await runWrk(request, WARMUP_SECONDS), WARMUP_SECONDS);
        targets.push({
          key: "routing",
          what: "GET /api/routing-codes/{code} (API key, logging, rate limiting; a pool of keys rotated)",
          request,
          results: [],
          auth: "key",
          beforeRun: ensureKeys,
          afterRun: record,
        });
      } else {
        targets.push({
          key: "routing",
          what: "GET /api/routing-codes/{code} (session; API keys not built yet)",
          request: { url, headers: sessionHeaders },
          results: [],
          auth: "session",
        });
      }
    }

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
        auth: "session",
      });
    }

    const run = async (target: Target, seconds: number) => {
      await target.beforeRun?.(seconds);
      const result = await runWrk(target.request, seconds);
      target.afterRun?.(result, seconds);
      return result;
    };
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
      const ratio = ours.requestsPerSec / ref.requestsPerSec;
      const broken = ours.non2xx > 0 || ours.socketErrors > 0;
      const note = broken
        ? `${ours.non2xx} non-2xx responses and ${ours.socketErrors} socket errors over ${ROUNDS} runs: figure not valid`
        : undefined;
      let goal = "—";
      let pass: boolean | null = null;
      if (target.key === "iban") {
        goal = `≥ ${MIN_IBAN_RATIO}×`;
        pass = !broken && ratio >= MIN_IBAN_RATIO;
      } else if (target.key === "routing") {
        goal = `≥ ${MIN_ROUTING_RATIO}×, p99 < ${MAX_ROUTING_P99_MS} ms`;
        pass = !broken && target.auth === "key" && ratio >= MIN_ROUTING_RATIO &&
          ours.p99Ms < MAX_ROUTING_P99_MS;
      }
      rows.push({
        what: target.what,
        reference: `${formatNumber(ref.requestsPerSec)} req/s`,
        ours: describe(ours),
        ratio,
        target: goal,
        pass: target.auth === "session" && target.key === "routing" ? null : pass,
        note,
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
