/**
 * Two app processes on one database file, each taking half of a concurrent load: the invariants
 * hold, no request answers 5xx, and (once API keys exist) both processes count one key's requests
 * against one shared hourly limit.
 */
import assert from "node:assert/strict";
import { startServer, type TestServer } from "../e2e/helpers.ts";
import { checkDatabase } from "./support/check.ts";
import { client, createStormAccounts, routeExists, runStorm, signIn, stormStaff } from "./support/storm.ts";

const WORKERS_PER_PROCESS = 10;
const OPERATIONS_PER_PROCESS = 600;
/** GET /api/institutions allows 100 requests per hour per key (spec 7). */
const INSTITUTIONS_LIMIT_PER_HOUR = 100;
/** Every second, in both processes: each occurrence must run in exactly one of them. */
const EVERY_SECOND = "* * * * * *";
const IDEMPOTENT_REQUESTS_PER_PROCESS = 6;

async function twoServers(
  fn: (a: TestServer, b: TestServer) => Promise<void>,
  env: Record<string, string> = {},
) {
  const dataDir = await Deno.makeTempDir({ prefix: "cbr-faults-two-" });
  const servers: TestServer[] = [];
  try {
    servers.push(await startServer(env, dataDir));
    servers.push(await startServer(env, dataDir));
    await fn(servers[0], servers[1]);
  } catch (error) {
    for (const s of servers) console.error(`server output:\n${s.output().slice(-3000)}`);
    throw error;
  } finally {
    for (const s of servers) await s.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}

Deno.test({
  name:
    "two processes on one database, both running the every-second sweep schedule, share a concurrent load without a 5xx or a broken invariant",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    twoServers(async (a, b) => {
      // One staff for both processes: sessions live in the shared database.
      const staff = await stormStaff(a.baseUrl, await signIn(a.baseUrl));
      const accounts = await createStormAccounts(a.baseUrl, staff, "two");
      const [ra, rb] = await Promise.all([
        runStorm({
          baseUrl: a.baseUrl,
          staff,
          accounts,
          workers: WORKERS_PER_PROCESS,
          maxOperations: OPERATIONS_PER_PROCESS,
          tag: "a",
        }),
        runStorm({
          baseUrl: b.baseUrl,
          staff,
          accounts,
          workers: WORKERS_PER_PROCESS,
          maxOperations: OPERATIONS_PER_PROCESS,
          tag: "b",
        }),
      ]);
      console.log(
        `process A: ${JSON.stringify(ra.byOperation)}\nprocess B: ${JSON.stringify(rb.byOperation)}`,
      );
      assert.deepEqual([...ra.serverErrors, ...rb.serverErrors], []);
      assert.equal(ra.networkErrors + rb.networkErrors, 0);
      const acked = {
        sweeps: [...ra.acked.sweeps, ...rb.acked.sweeps],
        institutions: [...ra.acked.institutions, ...rb.acked.institutions],
        cards: [...ra.acked.cards, ...rb.acked.cards],
        cardLoads: ra.acked.cardLoads + rb.acked.cardLoads,
        reports: [...(ra.acked.reports ?? []), ...(rb.acked.reports ?? [])],
      };
      assert(acked.sweeps.length > 0 || acked.institutions.length > 0, "nothing was acknowledged");
      const report = await checkDatabase(a.databaseUrl, acked, a.dataDir);
      console.log(`counts: ${JSON.stringify(report.counts)}`);
      assert.deepEqual(report.violations, []);
    }, { SWEEP_SCHEDULE: EVERY_SECOND }),
});

Deno.test({
  name: "one Idempotency-Key sent concurrently to both processes moves money once",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    twoServers(async (a, b) => {
      const staff = await stormStaff(a.baseUrl, await signIn(a.baseUrl));
      const accounts = await createStormAccounts(a.baseUrl, staff, "idem");
      assert(accounts, "ledger accounts are not mounted");
      const body = {
        sourceAccountId: accounts.ledger[0],
        targetAccountId: accounts.liquid[0],
        sweepAmount: "12.34",
      };
      const key = crypto.randomUUID();
      const answers = await Promise.all(
        [a, b].flatMap((s) =>
          Array.from({ length: IDEMPOTENT_REQUESTS_PER_PROCESS }, () =>
            client(s.baseUrl, staff.operator)("POST", "/api/balance-sweeps", body, {
              "idempotency-key": key,
            }))
        ),
      );
      const statuses = answers.map((r) =>
        r.status
      );
      assert(
        statuses.every((s) => s === 201),
        `statuses ${JSON.stringify(statuses)}: ${answers.find((r) => r.status !== 201)?.text}`,
      );
      const ids = new Set(answers.map((r) => r.json.id));
      assert.equal(ids.size, 1, `${ids.size} different sweeps for one key`);
      const report = await checkDatabase(a.databaseUrl, {
        sweeps: [...ids],
        institutions: [],
        cards: [],
        cardLoads: 0,
      });
      assert.equal(report.counts.balance_sweeps, 1);
      assert.deepEqual(report.violations, []);
    }),
});

/** The key's secret from POST /api/api-keys, whatever the field is called (shown once at creation). */
function findSecret(value: unknown): string | null {
  if (value && typeof value === "object") {
    for (const [name, field] of Object.entries(value)) {
      if (typeof field === "string" && /^(key|apiKey|secret|token|plaintext|plainKey)$/i.test(name)) {
        return field;
      }
      const nested = findSecret(field);
      if (nested) return nested;
    }
  }
  return null;
}

Deno.test({
  name: "two processes count one API key against one shared hourly limit",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    twoServers(async (a, b) => {
      const call = client(a.baseUrl, await signIn(a.baseUrl));
      if (!(await routeExists(call, "GET", "/api/api-keys"))) {
        console.log("API keys are not mounted yet: nothing to share");
        return;
      }
      const created = await call("POST", "/api/api-keys", { name: "shared-limit" });
      assert.equal(created.status, 201, created.text);
      const key = findSecret(created.json);
      assert(key, `no key in ${created.text}`);
      const statuses: number[] = [];
      // Alternate processes, concurrently in pairs, so each sees the other's increments.
      for (let i = 0; i < INSTITUTIONS_LIMIT_PER_HOUR / 2 + 5; i++) {
        const pair = await Promise.all([a, b].map(async (s) => {
          const res = await fetch(`${s.baseUrl}/api/institutions`, {
            headers: { authorization: `Bearer ${key}` },
          });
          await res.body?.cancel();
          return res.status;
        }));
        statuses.push(...pair);
      }
      const ok = statuses.filter((s) => s === 200).length;
      const limited = statuses.filter((s) => s === 429).length;
      assert(
        statuses.every((s) => s === 200 || s === 429),
        `unexpected statuses ${JSON.stringify(statuses)}`,
      );
      assert.equal(ok, INSTITUTIONS_LIMIT_PER_HOUR, `${ok} answered 200 across the two processes`);
      assert.equal(limited, statuses.length - INSTITUTIONS_LIMIT_PER_HOUR);
    }),
});
