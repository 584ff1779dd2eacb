/**
 * The public API's hot path: GET /api/routing-codes/{code} with an API key, so key authentication,
 * the exact shared hourly counter, the envelope and the request log are all on, against a real
 * server process; and a bare Deno.serve hello-world in the same run. wrk, 2 threads, 50 connections.
 *
 *   node_modules/.bin/deno run -A bench/api_routing_lookup.ts [seconds per run] [rounds]
 *
 * A key may make 500 lookups an hour, so a run at thousands of requests per second would be refused
 * (429) after its first 500: the measured runs rotate over a pool of fresh keys sized from the
 * warm-up's rate, so every request is a successful lookup. For context the same rounds measure the
 * app's floor (the SPA page from memory: Hono and the security headers, no /api middleware), the
 * same lookup with a session, and one key past its limit (the refusal path: 429 with headers, still
 * counted and logged).
 */
import { createClient } from "@libsql/client";
import { DOCUMENTED_ENDPOINTS } from "../src/domain/public_api.ts";
import { formatMs, formatNumber } from "./lib/report.ts";
import {
  bootstrapDataDir,
  operatorCookie,
  signInCookie,
  startHello,
  startServer,
  type TestServer,
} from "./lib/servers.ts";
import { medianResult, runWrk, type WrkRequest, type WrkResult } from "./lib/wrk.ts";

const RUN_SECONDS = Number(Deno.args[0] ?? 10);
const ROUNDS = Number(Deno.args[1] ?? 3);
const WARMUP_SECONDS = 3;
const MIN_RATIO = 0.4;
const MAX_P99_MS = 10;
/** More keys than the warm-up rate strictly needs: later runs may be faster than the warm-up. */
const KEY_POOL_HEADROOM = 2;
const KEY_CREATION_PARALLELISM = 8;
const LIMIT_PER_HOUR = DOCUMENTED_ENDPOINTS.find((e) => e.path === "/api/routing-codes/{code}")!.limitPerHour;

async function api(server: TestServer, cookie: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${text}`);
  return JSON.parse(text);
}

async function createKeys(server: TestServer, cookie: string, count: number): Promise<string[]> {
  const keys: string[] = [];
  while (keys.length < count) {
    const batch = await Promise.all(
      Array.from(
        { length: Math.min(KEY_CREATION_PARALLELISM, count - keys.length) },
        () =>
          api(server, cookie, "POST", "/api/api-keys", { name: `bench ${keys.length}` }).then((created) =>
            created.key as string
          ),
      ),
    );
    keys.push(...batch);
  }
  return keys;
}

async function seedRoutingCode(server: TestServer, cookie: string): Promise<string> {
  const institution = await api(server, cookie, "POST", "/api/institutions", {
    name: "Bench Clearing Bank",
    type: "commercial",
    registrationNumber: "REG-BENCH-1",
    address: "1 Bench Street",
    phoneNumber: "+1 555 0199",
    emailAddress: "bench@clearing.test",
  });
  const code = await api(server, cookie, "POST", "/api/routing-codes", {
    institutionId: institution.id,
    prefix: "BNK",
  });
  return code.code;
}

const bearerOf = (key: string) => `Bearer ${key}`;
const describe = (r: WrkResult) =>
  `${formatNumber(r.requestsPerSec)} req/s, p50 ${formatMs(r.p50Ms)}, p99 ${formatMs(r.p99Ms)}` +
  (r.non2xx > 0 ? `, ${formatNumber(r.non2xx)} non-2xx` : "");

async function countRows(databaseUrl: string, sql: string): Promise<number> {
  const client = createClient({ url: databaseUrl });
  try {
    return Number((await client.execute(sql)).rows[0][0]);
  } finally {
    client.close();
  }
}

interface Target {
  label: string;
  request: WrkRequest;
  results: WrkResult[];
}

if (import.meta.main) {
  const dataDir = await bootstrapDataDir();
  const server = await startServer({}, dataDir);
  const hello = await startHello();
  try {
    const cookie = await signInCookie(server.baseUrl);
    const code = await seedRoutingCode(server, await operatorCookie(server.baseUrl));
    const url = `${server.baseUrl}/api/routing-codes/${code}`;

    const warmKeys = await createKeys(server, cookie, 50);
    const warm = await runWrk({
      url,
      rotateHeader: { name: "Authorization", values: warmKeys.map(bearerOf) },
    }, WARMUP_SECONDS);
    await runWrk({ url: hello.url }, WARMUP_SECONDS);
    const expected = warm.requestsPerSec * RUN_SECONDS * ROUNDS * KEY_POOL_HEADROOM;
    const keys = await createKeys(server, cookie, Math.ceil(expected / LIMIT_PER_HOUR));
    const [single] = await createKeys(server, cookie, 1);
    console.log(`warm-up: ${describe(warm)}; ${keys.length} fresh keys for the measured runs`);

    const hot: Target = {
      label: "GET /api/routing-codes/{code}, API key (logging + limits)",
      request: { url, rotateHeader: { name: "Authorization", values: keys.map(bearerOf) } },
      results: [],
    };
    const targets: Target[] = [
      { label: "hello-world (reference)", request: { url: hello.url }, results: [] },
      // The cheapest answer the app gives: the SPA's index.html from memory, no /api middleware.
      {
        label: "app floor: GET /institutions (SPA page)",
        request: { url: `${server.baseUrl}/institutions` },
        results: [],
      },
      { label: "GET /api/routing-codes/{code}, session", request: { url, headers: { cookie } }, results: [] },
      hot,
      {
        label: "one key past its limit (429 path)",
        request: { url, headers: { authorization: bearerOf(single) } },
        results: [],
      },
    ];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of targets) {
        target.results.push(await runWrk(target.request, RUN_SECONDS));
        console.log(`round ${round}: ${target.label}: ${describe(target.results.at(-1)!)}`);
      }
    }

    const ref = medianResult(targets[0].results);
    console.log("");
    console.log(`median of ${ROUNDS} rounds of ${RUN_SECONDS} s, wrk -t2 -c50:`);
    for (const target of targets) {
      const result = medianResult(target.results);
      console.log(
        `  ${target.label.padEnd(58)} ${describe(result)}  (${
          (result.requestsPerSec / ref.requestsPerSec).toFixed(2)
        }× hello)`,
      );
    }
    const ours = medianResult(hot.results);
    const ratio = ours.requestsPerSec / ref.requestsPerSec;
    const pass = ours.non2xx === 0 && ratio >= MIN_RATIO && ours.p99Ms < MAX_P99_MS;
    console.log(
      `target: ≥ ${MIN_RATIO}× hello and p99 < ${MAX_P99_MS} ms: ratio ${ratio.toFixed(2)}×, p99 ${
        formatMs(ours.p99Ms)
      }: ${pass ? "pass" : "MISS"}`,
    );

    await server.stop();
    const logged = await countRows(server.databaseUrl, "SELECT count(*) FROM api_logs");
    const counted = await countRows(
      server.databaseUrl,
      "SELECT coalesce(sum(count), 0) FROM api_rate_limits",
    );
    console.log(
      `after SIGTERM: ${formatNumber(logged)} api_logs rows, ${
        formatNumber(counted)
      } requests counted against keys`,
    );
  } finally {
    await hello.stop();
    await server.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}
