/**
 * The processes the benchmarks measure: the reference hello-world and the real app server
 * (started by tests/e2e/helpers.ts with the production permissions), plus their seeding and
 * sign-in.
 */
import { createClient } from "@libsql/client";
import {
  apiSession,
  E2E_ADMIN_EMAIL,
  E2E_ADMIN_PASSWORD,
  startServer,
  type TestServer,
} from "../../tests/e2e/helpers.ts";

const HELLO_SERVER = new URL("../hello_server.ts", import.meta.url).pathname;
const FLOOR_SERVER = new URL("../floor_server.ts", import.meta.url).pathname;
const MANDATORY_FLOOR_SERVER = new URL("../mandatory_floor_server.ts", import.meta.url).pathname;
const HELLO_START_TIMEOUT_MS = 15_000;
/** Rows per multi-row INSERT: 15 columns each, far below SQLite's 32,766 bound variables. */
const SEED_ROWS_PER_INSERT = 500;
export const BENCH_INSTITUTION_COUNT = 100_000;

export interface HelloServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export function startHello(): Promise<HelloServer> {
  return startScriptServer(HELLO_SERVER, []);
}

/**
 * The floor app (bench/floor_server.ts): plain Hono doing the console's validation and lookup with
 * nothing around them. It answers `routingCode` (the console's own record) from a map.
 */
export function startFloor(routingCode: Record<string, unknown>): Promise<HelloServer> {
  return startScriptServer(FLOOR_SERVER, ["0", JSON.stringify(routingCode)]);
}

/** The mandatory-work floor (bench/mandatory_floor_server.ts); its config is documented there. */
export function startMandatoryFloor(config: Record<string, unknown>): Promise<HelloServer> {
  // It opens a database file through the native driver, so it runs with every permission.
  return startScriptServer(MANDATORY_FLOOR_SERVER, ["0", JSON.stringify(config)], ["--allow-all"]);
}

/** Starts a bench server script that prints "listening <port>" once it accepts connections. */
async function startScriptServer(
  script: string,
  args: string[],
  permissions = ["--allow-net=127.0.0.1"],
): Promise<HelloServer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...permissions, script, ...args],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const timer = setTimeout(() => child.kill("SIGKILL"), HELLO_START_TIMEOUT_MS);
  while (!/listening (\d+)/.test(seen)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${script} exited before listening: ${seen}`);
    seen += value;
  }
  clearTimeout(timer);
  const port = seen.match(/listening (\d+)/)![1];
  // Keep draining so the child never blocks on a full pipe.
  (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })();
  return {
    url: `http://127.0.0.1:${port}/`,
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** Peak resident set size (VmHWM) of a live process, in KiB. */
export async function peakRssKiB(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const match = status.match(/^VmHWM:\s+(\d+) kB/m);
  if (!match) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(match[1]);
}

const BENCH_OPERATOR_EMAIL = "bench.desk@centralbank.test";
const BENCH_OPERATOR_PASSWORD = "bench-quiet-harbour-lantern";

/**
 * A data dir with migrations, the first admin, an operator and the reference seeds: start and stop
 * the server once. The operator is made here, in its own start, so that the measured server never
 * checks a new password (the strength estimator's dictionaries would count in its peak memory).
 */
export async function bootstrapDataDir(): Promise<string> {
  const dataDir = await Deno.makeTempDir({ prefix: "cbr-bench-" });
  const server = await startServer({}, dataDir);
  try {
    const admin = await apiSession(server.baseUrl, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD);
    const created = await admin("POST", "/api/users", { email: BENCH_OPERATOR_EMAIL, roles: ["operator"] });
    if (created.status !== 201) throw new Error(`creating the bench operator: HTTP ${created.status}`);
    const operator = await apiSession(server.baseUrl, BENCH_OPERATOR_EMAIL, created.json.initialPassword);
    const changed = await operator("POST", "/api/auth/password", {
      currentPassword: created.json.initialPassword,
      newPassword: BENCH_OPERATOR_PASSWORD,
    });
    if (changed.status !== 204) throw new Error(`the bench operator's password change: HTTP ${changed.status}`);
  } finally {
    await server.stop();
  }
  return dataDir;
}

const CITIES = [
  "Oslo",
  "Lisbon",
  "Nairobi",
  "Lima",
  "Osaka",
  "Denver",
  "Accra",
  "Porto",
  "Quito",
  "Dakar",
  "Hanoi",
  "Perth",
  "Tunis",
  "Riga",
  "Sofia",
  "Cusco",
  "Zurich",
  "Austin",
  "Manila",
  "Bergen",
];
const WORDS = [
  "First",
  "National",
  "United",
  "Royal",
  "Metro",
  "Coastal",
  "Summit",
  "Pioneer",
  "Heritage",
  "Capital",
  "Harbor",
  "Evergreen",
  "Granite",
  "Liberty",
  "Meridian",
  "Northern",
  "Silver",
  "Union",
  "Valley",
  "Atlas",
];
const KINDS = [
  ["commercial", "Commerce Bank"],
  ["savings", "Savings Bank"],
  ["credit_union", "Credit Union"],
  ["development", "Development Bank"],
  ["investment", "Investment Bank"],
] as const;
const STATUSES = ["active", "active", "active", "pending", "suspended"] as const;

export function benchInstitution(i: number) {
  const [type, kind] = KINDS[i % KINDS.length];
  const word = WORDS[Math.floor(i / 7) % WORDS.length];
  const city = CITIES[Math.floor(i / 3) % CITIES.length];
  return {
    name: `${word} ${city} ${kind} ${i}`,
    type,
    registrationNumber: `REG-${String(i).padStart(7, "0")}`,
    licenseNumber: `LIC-${String(i).padStart(7, "0")}`,
    emailAddress: `contact${i}@${word.toLowerCase()}-${city.toLowerCase()}.example`,
  };
}

/** Search terms of the kinds people type: a registration number, a name's words, an e-mail. */
export function benchSearchTerms(count: number): string[] {
  const terms: string[] = [];
  for (let n = 0; n < 24; n++) {
    const i = Math.floor((n * 7_919 * 13) % count);
    const inst = benchInstitution(i);
    const kind = n % 4;
    if (kind === 0) terms.push(inst.registrationNumber);
    else if (kind === 1) terms.push(inst.name.split(" ").slice(0, 2).join(" "));
    else if (kind === 2) terms.push(inst.name.split(" ").at(-1)!);
    else terms.push(inst.emailAddress.split("@")[0]);
  }
  return terms;
}

/**
 * Inserts institutions by plain INSERTs in one transaction, so any trigger the institutions
 * feature defines (its full-text index) fires exactly as it would for rows the API creates.
 */
export async function seedInstitutions(databaseUrl: string, count: number): Promise<void> {
  const client = createClient({ url: databaseUrl });
  try {
    await client.execute("PRAGMA busy_timeout = 5000");
    const tx = await client.transaction("write");
    try {
      const start = Date.now() - count * 60_000;
      for (let offset = 0; offset < count; offset += SEED_ROWS_PER_INSERT) {
        const n = Math.min(SEED_ROWS_PER_INSERT, count - offset);
        const args: (string | number | null)[] = [];
        const tuples: string[] = [];
        for (let k = 0; k < n; k++) {
          const i = offset + k;
          const inst = benchInstitution(i);
          const at = new Date(start + i * 60_000).toISOString();
          tuples.push("(?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
          args.push(
            crypto.randomUUID(),
            inst.name,
            inst.type,
            inst.registrationNumber,
            inst.licenseNumber,
            `${i} Market Street`,
            `+1-555-${String(i % 10_000).padStart(4, "0")}`,
            inst.emailAddress,
            1 + (i % 40),
            i % 3 === 0 ? 1 : 0,
            i % 3 === 0 ? "full" : null,
            STATUSES[i % STATUSES.length],
            at,
            at,
          );
        }
        await tx.execute({
          sql: `INSERT INTO institutions (id, name, type, registration_number, license_number, address,
            phone_number, email_address, number_of_branches, swift_participant, swift_membership_type,
            status, created_at, updated_at) VALUES ${tuples.join(",")}`,
          args,
        });
      }
      await tx.commit();
    } finally {
      tx.close();
    }
  } finally {
    client.close();
  }
}

export async function signInCookie(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD }),
  });
  await res.body?.cancel();
  if (res.status !== 200) throw new Error(`sign-in failed: HTTP ${res.status}`);
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}

/**
 * The operator's session (made by `bootstrapDataDir`) for the setup that registers things
 * (institutions, routing codes): the first administrator holds administrator alone.
 */
export async function operatorCookie(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: BENCH_OPERATOR_EMAIL, password: BENCH_OPERATOR_PASSWORD }),
  });
  await res.body?.cancel();
  if (res.status !== 200) throw new Error(`the bench operator's sign-in failed: HTTP ${res.status}`);
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}

export type { TestServer };
export { startServer };
