/**
 * Start-up: from spawning the server process to its first HTTP answer (/api/auth/user answers
 * 401 signed out), and to a signed-in 200 (sign-in with argon2id included), on an empty data dir
 * (first start: migrations and reference seeds) and on a 100,000-institution database. The
 * reference is the hello-world process's time to its first response.
 */
import { SERVER_V8_FLAGS, serverPermissions } from "../scripts/start.ts";
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD } from "../tests/e2e/helpers.ts";
import { type BenchRow, formatMs, formatNumber } from "./lib/report.ts";
import { BENCH_INSTITUTION_COUNT, bootstrapDataDir, seedInstitutions } from "./lib/servers.ts";
import { median } from "./lib/wrk.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const POLL_INTERVAL_MS = 5;
const START_TIMEOUT_MS = 60_000;
const RUNS = 3;

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function firstResponse(url: string, started: number, child: Deno.ChildProcess): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    if (performance.now() - started > START_TIMEOUT_MS) {
      child.kill("SIGKILL");
      throw new Error(`no response from ${url} within ${START_TIMEOUT_MS} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

interface StartTimes {
  firstResponseMs: number;
  signedInMs: number;
}

async function timeAppStart(dataDir: string): Promise<StartTimes> {
  const port = freePort();
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? "/tmp",
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    ADMIN_EMAIL: E2E_ADMIN_EMAIL,
    ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
    SEED_DEMO: "0",
    // Timed up to a signed-in request with a password alone, as the e2e servers are.
    REQUIRE_MFA: "0",
  };
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...serverPermissions(env), SERVER_V8_FLAGS, `${ROOT}src/server/main.ts`],
    env,
    clearEnv: true,
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    const firstResponseMs = await firstResponse(`${base}/api/auth/user`, started, child);
    const login = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD }),
    });
    await login.body?.cancel();
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    const me = await fetch(`${base}/api/auth/user`, { headers: { cookie } });
    await me.body?.cancel();
    if (me.status !== 200) throw new Error(`signed-in /api/auth/user answered ${me.status}`);
    return { firstResponseMs, signedInMs: performance.now() - started };
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
}

async function timeHelloStart(): Promise<number> {
  const port = freePort();
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", `${ROOT}bench/hello_server.ts`, String(port)],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    return await firstResponse(`http://127.0.0.1:${port}/`, started, child);
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
}

export async function startupBench(log: (line: string) => void): Promise<BenchRow[]> {
  const hello: number[] = [];
  const empty: StartTimes[] = [];
  const large: StartTimes[] = [];
  log(`startup: preparing a ${formatNumber(BENCH_INSTITUTION_COUNT)}-institution database`);
  const largeDir = await bootstrapDataDir();
  await seedInstitutions(`file:${largeDir}/console.db`, BENCH_INSTITUTION_COUNT);
  try {
    for (let run = 1; run <= RUNS; run++) {
      log(`startup: run ${run}/${RUNS}`);
      hello.push(await timeHelloStart());
      const emptyDir = await Deno.makeTempDir({ prefix: "cbr-bench-empty-" });
      try {
        empty.push(await timeAppStart(emptyDir));
      } finally {
        await Deno.remove(emptyDir, { recursive: true }).catch(() => {});
      }
      large.push(await timeAppStart(largeDir));
    }
  } finally {
    await Deno.remove(largeDir, { recursive: true }).catch(() => {});
  }
  const ref = median(hello);
  const row = (what: string, times: StartTimes[]): BenchRow => {
    const first = median(times.map((t) => t.firstResponseMs));
    const signedIn = median(times.map((t) => t.signedInMs));
    return {
      what,
      reference: `${formatMs(ref)} (hello-world)`,
      ours: `${formatMs(first)} to first answer, ${formatMs(signedIn)} to signed-in 200`,
      ratio: first / ref,
      target: "—",
      pass: null,
    };
  };
  return [
    row("Start-up, empty data dir (first start: migrations, seeds)", empty),
    row(`Start-up, ${formatNumber(BENCH_INSTITUTION_COUNT)} institutions`, large),
  ];
}
