/**
 * `deno task start`: builds the SPA when it is missing or stale, then runs the server with the
 * narrowest permissions that work: read of the project and the data folder, write of the data
 * folder and the audit checkpoint file only, network for its own address (plus outbound hosts the
 * operator lists), env, and FFI for the libSQL addon alone. Never -A.
 */
import { oidcNetHosts } from "../src/server/auth/oidc_config.ts";
import { loadConfig } from "../src/server/config.ts";
import { providerNetHosts, providerReadFiles } from "../src/server/features/fintech/provider_env.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const LIBSQL_ADDON_DIR = `${ROOT}/node_modules/@libsql`;

function absolute(path: string): string {
  return path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
}

function databaseDir(databaseUrl: string): string | null {
  if (!databaseUrl.startsWith("file:")) return null;
  const path = absolute(databaseUrl.slice("file:".length));
  return path.slice(0, path.lastIndexOf("/")) || "/";
}

/** `host:port` of an http(s) URL, with the scheme's default port spelled out. */
function hostOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || (parsed.protocol === "https:" ? "443" : "80")}`;
}

/**
 * V8 flags for the server process (docs/bench.md, "Where the time goes"):
 * - semi-spaces of 4 MiB (V8 grows each to 16 MiB or more under load): 30 MiB or more off the peak
 *   memory of the CPU-cost runs at no measurable CPU;
 * - the old generation grows by half what survived its last full collection before the next one
 *   (--heap-growing-percent=50), not by V8's factor of up to 4: under load it reached about 100 MiB
 *   before each collection, of which 27–36 MiB survived. Each collection costs 10–20 ms, mostly in
 *   increments on this thread. At 100% the CPU-cost runs peaked at 146–151 MiB, over or at their
 *   150 MiB target; at 50%, about 138 MiB with the same CPU per request. 50% had raised the regional
 *   manual sweep's p50 to 122–127 ms (target 120) while a regional node's request-log backlog still
 *   held the primary's write lock; with that backlog gone it measured 103–110 ms. At 25% with 2 MiB
 *   semi-spaces every request paid 20–25 µs more;
 * - --expose-gc, so that passwords.ts can queue a full collection after each argon2id run, whose
 *   19 MiB of WebAssembly memory otherwise stayed resident until the next one.
 * No hard cap (--max-old-space-size): a large report or search must slow the process down, not end it.
 */
export const SERVER_V8_FLAGS = "--v8-flags=--max-semi-space-size=4,--heap-growing-percent=50,--expose-gc";

export function serverPermissions(env: Record<string, string | undefined>): string[] {
  const config = loadConfig(env);
  const dataDir = absolute(config.dataDir);
  // The audit checkpoints live outside the data folder (src/server/audit/checkpoints.ts).
  const writable = [
    dataDir,
    databaseDir(config.databaseUrl),
    absolute(config.auditCheckpointFile),
    absolute(config.backupDir),
  ]
    .filter((path): path is string => path !== null);
  const outbound = (env.ALLOW_NET_HOSTS ?? "").split(",").map((host) => host.trim()).filter(Boolean);
  // Connection tests (docs/connections.md): the allow-listed hosts, or any host on explicit opt-in.
  const probeHosts = (env.CONNECTION_TEST_ALLOWED_HOSTS ?? "").split(",").map((host) => host.trim()).filter(Boolean);
  // Webhooks' private endpoints (docs/webhooks.md): the allow-listed hosts.
  const webhookHosts = (env.WEBHOOK_ALLOWED_HOSTS ?? "").split(",").map((host) => host.trim()).filter(Boolean);
  // Live fintech providers (PLAID_BASE_URL, VISA_BASE_URL) are reachable without listing them again.
  // Replicated roles reach the primary, and a regional node the headquarters console, and no more.
  const replication = config.replication;
  const topology = replication === null
    ? []
    : [replication.syncUrl, replication.headquartersUrl].filter((url): url is string => url !== null).map(hostOf);
  const keyFiles = replication?.nodesPublicKeyFile ? [absolute(replication.nodesPublicKeyFile)] : [];
  // The bank's identity provider (OIDC_ISSUER); its keys and token endpoints elsewhere go in ALLOW_NET_HOSTS.
  const net = [
    `${config.host}:${config.port}`,
    ...outbound,
    ...probeHosts,
    ...webhookHosts,
    ...providerNetHosts(env),
    ...oidcNetHosts(env),
    ...topology,
  ];
  return [
    `--allow-read=${[ROOT, ...writable, ...providerReadFiles(env).map(absolute), ...keyFiles].join(",")}`,
    `--allow-write=${writable.join(",")}`,
    env.CONNECTION_TEST_ANY_HOST === "1" ? "--allow-net" : `--allow-net=${net.join(",")}`,
    "--allow-env",
    // libSQL's loader reads the OS report (these three fields) to tell glibc from musl.
    "--allow-sys=cpus,networkInterfaces,hostname",
    `--allow-ffi=${LIBSQL_ADDON_DIR}`,
  ];
}

if (import.meta.main) {
  const deno = Deno.execPath();
  const build = await new Deno.Command(deno, {
    args: ["run", "--allow-all", `${ROOT}/build.ts`, "--if-stale"],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!build.success) Deno.exit(build.code);

  const child = new Deno.Command(deno, {
    args: ["run", ...serverPermissions(Deno.env.toObject()), SERVER_V8_FLAGS, `${ROOT}/src/server/main.ts`],
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => child.kill(signal));
  }
  Deno.exit((await child.status).code);
}
