/**
 * A real replicated topology for tests: sqld (JWT auth on), a headquarters console and regional
 * consoles as separate processes, each regional node reaching the primary and headquarters through
 * a delaying relay on loopback. Everything listens on and dials 127.0.0.1 only.
 */
import { ensureNodeKeys, PUBLIC_KEY_FILE } from "../../../scripts/node_keys.ts";
import { type PrimaryProcess, startPrimary } from "../../../scripts/primary.ts";
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, freePort, startServer, type TestServer } from "../../e2e/helpers.ts";
import { DelayRelay } from "./relay.ts";

export const ADMIN_EMAIL = E2E_ADMIN_EMAIL;
export const ADMIN_PASSWORD = E2E_ADMIN_PASSWORD;
/** Short, so tests that wait for propagation stay quick; the bound under test scales with it. */
export const TEST_SYNC_INTERVAL_MS = 300;

/**
 * libfaketime's preload library for threaded programs (Debian's `faketime` package). It is preloaded
 * into the real deno binary, which Deno.execPath() names even when the tests were started through
 * node_modules/.bin/deno.
 */
export const LIBFAKETIME = `/usr/lib/${Deno.build.arch}-linux-gnu/faketime/libfaketimeMT.so.1`;

export function fakeTimeAvailable(): boolean {
  try {
    return Deno.statSync(LIBFAKETIME).isFile;
  } catch {
    return false;
  }
}

/**
 * A node whose wall clock is off by libfaketime's `offset` ("+120s"). Its monotonic clock is left
 * alone: timers and elapsed times run true, as on a server whose NTP has failed.
 */
function fakeTimeEnv(offset: string): Record<string, string> {
  if (!fakeTimeAvailable()) throw new Error(`libfaketime not found at ${LIBFAKETIME} (apt-get install -y faketime)`);
  return { LD_PRELOAD: LIBFAKETIME, FAKETIME: offset, FAKETIME_DONT_FAKE_MONOTONIC: "1" };
}

export interface RegionalNode {
  region: string;
  server: TestServer;
  /** The node's link to the primary, and to headquarters. */
  primaryLink: DelayRelay;
  headquartersLink: DelayRelay;
  restart(): Promise<void>;
  /** SIGTERM the node (its replica kept), and start it again later with `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export interface Cluster {
  dir: string;
  /** The audit chain key every node holds (AUDIT_CHAIN_KEY). */
  auditChainKey: Uint8Array;
  primary: PrimaryProcess;
  primaryPort: number;
  /** sqld's --db-path. */
  primaryDbPath: string;
  headquarters: TestServer;
  regions: RegionalNode[];
  /** SIGKILL the primary (data kept). */
  killPrimary(): Promise<void>;
  /** SIGTERM the primary and wait for it to exit (a clean stop, as for a cold copy). */
  stopPrimary(): Promise<void>;
  /** Start the primary again on the same port and data. */
  restartPrimary(): Promise<void>;
  /** Start one more regional node (e.g. while the primary is down), its wall clock off by `fakeTime`. */
  addRegion(region: string, fakeTime?: string): Promise<RegionalNode>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  regions?: string[];
  /** One-way delay of each regional link, in ms (a round trip costs twice this). */
  oneWayDelayMs?: number;
  syncIntervalMs?: number;
  extraEnv?: Record<string, string>;
  /** sqld's --max-log-size in MB, to make it compact its log sooner than its 200 MB default. */
  maxLogSizeMb?: number;
  /** Regions whose wall clock is off, by libfaketime's offset: `{ north: "+120s" }`. */
  fakeTime?: Readonly<Record<string, string>>;
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const dir = await Deno.makeTempDir({ prefix: "cbr-replication-" });
  const syncIntervalMs = options.syncIntervalMs ?? TEST_SYNC_INTERVAL_MS;
  const oneWayDelayMs = options.oneWayDelayMs ?? 0;
  const regionNames = options.regions ?? ["north", "south"];
  const tokens = await ensureNodeKeys(`${dir}/keys`, ["headquarters", ...regionNames, "extra-a", "extra-b"]);
  const token = async (node: string) => (await Deno.readTextFile(tokens[node])).trim();
  const publicKeyFile = `${dir}/keys/${PUBLIC_KEY_FILE}`;
  const primaryPort = await freePort();
  const primaryOptions = {
    host: "127.0.0.1",
    port: primaryPort,
    dbPath: `${dir}/primary.sqld`,
    publicKeyFile,
    logFile: `${dir}/primary.log`,
    maxLogSizeMb: options.maxLogSizeMb,
  };
  let primary = await startPrimary(primaryOptions);
  const secretsKey = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  const auditChainKey = crypto.getRandomValues(new Uint8Array(32));
  const common = {
    DATABASE_SYNC_URL: primary.url,
    DATABASE_SYNC_INTERVAL_MS: String(syncIntervalMs),
    SECRETS_KEY: secretsKey,
    // Every node appends to the primary's one audit chain, with one key.
    AUDIT_CHAIN_KEY: btoa(String.fromCharCode(...auditChainKey)),
    ...options.extraEnv,
  };
  const hqDir = `${dir}/nodes/headquarters`;
  await Deno.mkdir(hqDir, { recursive: true });
  const headquarters = await startServer({
    ...common,
    NODE_ROLE: "headquarters",
    DATABASE_AUTH_TOKEN: await token("headquarters"),
    NODES_PUBLIC_KEY_FILE: publicKeyFile,
  }, hqDir);
  const hqPort = Number(new URL(headquarters.baseUrl).port);

  const spare = ["extra-a", "extra-b"];
  const startRegion = async (region: string, fakeTime = options.fakeTime?.[region]): Promise<RegionalNode> => {
    const tokenName = tokens[region] ? region : spare.shift()!;
    const nodeDir = `${dir}/nodes/${region}`;
    await Deno.mkdir(nodeDir, { recursive: true });
    const primaryLink = new DelayRelay(primaryPort, oneWayDelayMs);
    const headquartersLink = new DelayRelay(hqPort, oneWayDelayMs);
    const env = {
      ...common,
      NODE_ROLE: "regional",
      REGION: region,
      DATABASE_SYNC_URL: primaryLink.url,
      HQ_CONSOLE_URL: headquartersLink.url,
      DATABASE_AUTH_TOKEN: await token(tokenName),
      ADMIN_PASSWORD: "",
      ...(fakeTime === undefined ? {} : fakeTimeEnv(fakeTime)),
    };
    const node: RegionalNode = {
      region,
      server: await startServer(env, nodeDir),
      primaryLink,
      headquartersLink,
      async restart() {
        await node.server.kill();
        node.server = await startServer(env, nodeDir);
      },
      async stop() {
        await node.server.stop();
      },
      async start() {
        node.server = await startServer(env, nodeDir);
      },
    };
    return node;
  };
  const regions = await Promise.all(regionNames.map((region) => startRegion(region)));

  return {
    dir,
    auditChainKey,
    get primary() {
      return primary;
    },
    primaryPort,
    primaryDbPath: primaryOptions.dbPath,
    headquarters,
    regions,
    async killPrimary() {
      try {
        primary.process.kill("SIGKILL");
      } catch {
        // Already gone.
      }
      await primary.stop();
    },
    async stopPrimary() {
      await primary.stop();
    },
    async restartPrimary() {
      primary = await startPrimary(primaryOptions);
    },
    async addRegion(region: string, fakeTime?: string) {
      const node = await startRegion(region, fakeTime);
      regions.push(node);
      return node;
    },
    async stop() {
      for (const node of regions) {
        await node.server.stop();
        node.primaryLink.close();
        node.headquartersLink.close();
      }
      await headquarters.stop();
      await primary.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** Signs in at `baseUrl` and returns the Cookie header value. */
export async function signIn(baseUrl: string, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<string> {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in at ${baseUrl} failed: ${res.status} ${await res.text()}`);
  await res.body?.cancel();
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}

export interface Call {
  status: number;
  body: any;
  ms: number;
}

/** One JSON call; never throws: a node that does not answer gives status 0. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  cookie: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Call> {
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    // Status 0: the node did not answer at all (it is down, or dropped the connection).
    return { status: 0, body: String(error), ms: performance.now() - started };
  }
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: kept as text.
  }
  return { status: res.status, body: parsed, ms: performance.now() - started };
}

/** A node's answer to GET /api/system/replication (its role, freshness and clock), which must be 200. */
export async function replicationState(baseUrl: string, cookie: string) {
  const state = await call(baseUrl, "GET", "/api/system/replication", cookie);
  if (state.status !== 200) throw new Error(`replication state: ${state.status} ${JSON.stringify(state.body)}`);
  return state.body as { clockOffsetMs: number | null; clockWarning: string | null; primaryReachable: boolean };
}

/** Polls `probe` until it returns true or `timeoutMs` passes; resolves to the time it took. */
export async function within(timeoutMs: number, probe: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
