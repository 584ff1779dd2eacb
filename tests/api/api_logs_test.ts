import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { sql } from "drizzle-orm";
import { apiLogs, auditTrail } from "../../db/schema.ts";
import { MAX_LOGGED_PAYLOAD_CHARS, REDACTED } from "../../src/domain/redaction.ts";
import { DEFAULT_API_LOG_RETENTION_DAYS, retentionDaysFrom } from "../../src/server/config.ts";
import { startServer } from "../e2e/helpers.ts";
import { ADMIN_EMAIL, createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";
import { bearer, createKey, VALID_IBAN, withKey } from "./api_access_helpers.ts";

const CARD_NUMBER = "4532015112830366";
const DAY_MS = 86_400_000;

type LogRow = typeof apiLogs.$inferSelect;

async function loggedRows(t: TestApp): Promise<LogRow[]> {
  await t.app.requestLog.flush();
  return await t.deps.db.read.select().from(apiLogs).all();
}

Deno.test("a password in a request body is logged as [REDACTED], never in clear", async () => {
  const t = await createTestApp();
  try {
    const password = "s3cret-Pa55word-never-logged";
    await expectJson(await t.request("POST", "/api/login", { body: { email: ADMIN_EMAIL, password } }), 401);
    const rows = await loggedRows(t);
    const login = rows.find((row) => row.endpoint === "/api/login")!;
    assert.equal(login.method, "POST");
    assert.equal(login.responseStatus, 401);
    assert.deepEqual(login.requestPayload, { body: { email: ADMIN_EMAIL, password: REDACTED } });
    const everything = JSON.stringify(await t.deps.db.read.all(sql`SELECT * FROM api_logs`));
    assert(!everything.includes(password));
  } finally {
    await t.close();
  }
});

Deno.test("card numbers in request and response payloads are masked; secret-named fields are redacted", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    await expectJson(
      await t.request("POST", "/api/iban/validate", {
        cookie,
        body: {
          iban: VALID_IBAN,
          cardNumber: CARD_NUMBER,
          note: "card 4532 0151 1283 0366 on file",
          credentials: { apiKey: "k-123", token: "t-456" },
        },
      }),
      200,
    );
    const { key } = await createKey(t, cookie, { name: "logged" });
    await expectJson(await withKey(t, key)("POST", "/api/iban/validate", { iban: CARD_NUMBER }), 200);

    const rows = await loggedRows(t);
    const [sessionCall, keyCall] = rows.filter((row) => row.endpoint === "/api/iban/validate")
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const body = (sessionCall.requestPayload as { body: Record<string, unknown> }).body;
    assert.equal(body.cardNumber, REDACTED);
    assert.equal(body.note, "card 4532 01** **** 0366 on file");
    assert.equal(body.credentials, REDACTED);
    assert.equal(body.iban, VALID_IBAN);
    assert.equal((sessionCall.responsePayload as { valid: boolean }).valid, true);

    assert.deepEqual(keyCall.requestPayload, { body: { iban: "453201******0366" } });
    assert.equal(keyCall.apiKeyId !== null, true);

    const created = rows.find((row) => row.endpoint === "/api/api-keys" && row.method === "POST")!;
    assert.equal((created.responsePayload as { key: string }).key, REDACTED, "a new key is not logged");
    const everything = JSON.stringify(await t.deps.db.read.all(sql`SELECT * FROM api_logs`));
    assert(!everything.includes(CARD_NUMBER) && !everything.includes(key) && !everything.includes("k-123"));
  } finally {
    await t.close();
  }
});

Deno.test("every /api request is logged with method, endpoint, status, time, caller and query", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const { id, key } = await createKey(t, cookie);
    await expectJson(await t.request("GET", "/api/auth/user"), 401);
    await expectJson(
      await t.request("GET", "/api/no-such-endpoint", {
        cookie,
        headers: { "user-agent": "ledger-sync/2.1" },
      }),
      404,
    );
    await expectJson(
      await t.request("GET", "/api/institutions?search=meridian&limit=5", { headers: bearer(key) }),
      200,
    );
    await expectJson(await t.request("GET", "/api/routing-codes", { headers: bearer(key) }), 403);

    const rows = await loggedRows(t);
    const find = (endpoint: string, status: number) =>
      rows.find((row) => row.endpoint === endpoint && row.responseStatus === status)!;
    assert.equal(find("/api/auth/user", 401).userId, null);
    const missing = find("/api/no-such-endpoint", 404);
    assert.equal(missing.userAgent, "ledger-sync/2.1");
    assert(missing.userId !== null, "a session call names the user");
    const lookup = find("/api/institutions", 200);
    assert.equal(lookup.apiKeyId, id);
    assert.equal(lookup.userId, null);
    assert.deepEqual(lookup.requestPayload, { query: { search: "meridian", limit: "5" } });
    assert.equal(
      (lookup.responsePayload as { success: boolean }).success,
      true,
      "the key's envelope is what is logged",
    );
    assert.equal(
      find("/api/routing-codes", 403).apiKeyId,
      id,
      "a key refused off the documented endpoints is named",
    );
    for (const row of rows) {
      assert(Number.isInteger(row.responseTime) && row.responseTime! >= 0);
      assert.match(row.createdAt, /^\d{4}-\d{2}-\d{2}T/);
    }
  } finally {
    await t.close();
  }
});

Deno.test(`a payload longer than ${MAX_LOGGED_PAYLOAD_CHARS} characters is logged as a preview`, async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const long = `${"x".repeat(2 * MAX_LOGGED_PAYLOAD_CHARS)} ${CARD_NUMBER}`;
    await expectJson(
      await t.request("POST", "/api/iban/validate", { cookie, body: { iban: VALID_IBAN, memo: long } }),
      200,
    );
    const [row] = (await loggedRows(t)).filter((r) => r.endpoint === "/api/iban/validate");
    const body =
      (row.requestPayload as { body: { truncated: boolean; originalLength: number; preview: string } }).body;
    assert.equal(body.truncated, true);
    assert(body.originalLength > 2 * MAX_LOGGED_PAYLOAD_CHARS);
    assert(body.preview.length <= MAX_LOGGED_PAYLOAD_CHARS);
    assert(!JSON.stringify(row).includes(CARD_NUMBER));
  } finally {
    await t.close();
  }
});

Deno.test("entries still queued at shutdown are written by stop(): nothing is lost on a clean close", async () => {
  const owner = await createTestApp();
  const t = await createTestApp({}, { dataDir: owner.dataDir });
  try {
    const cookie = await t.login();
    for (let i = 0; i < 25; i++) await expectJson(await t.request("GET", "/api/auth/user", { cookie }), 200);
    assert(t.app.requestLog.queued > 0, "entries are still queued");
    await t.close();
    const [count] = await owner.deps.db.read.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM api_logs WHERE endpoint = '/api/auth/user'`,
    );
    assert.equal(count.n, 25);
  } finally {
    await owner.close();
  }
});

Deno.test({
  name: "a server stopped with SIGTERM writes its queued request log before it exits",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const dataDir = await Deno.makeTempDir({ prefix: "cbr-api-logs-" });
    try {
      const server = await startServer({}, dataDir);
      const requests = 40;
      await Promise.all(Array.from({ length: requests }, async () => {
        const res = await fetch(`${server.baseUrl}/api/institutions`);
        await res.body?.cancel();
      }));
      await server.stop();
      const client = createClient({ url: server.databaseUrl });
      try {
        const result = await client.execute(
          "SELECT count(*) AS n FROM api_logs WHERE endpoint = '/api/institutions'",
        );
        assert.equal(Number(result.rows[0].n), requests);
      } finally {
        client.close();
      }
    } finally {
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test("retention: rows older than API_LOG_RETENTION_DAYS are pruned, in an audited step", async () => {
  const t = await createTestApp({ API_LOG_RETENTION_DAYS: "30" });
  try {
    const now = Date.now();
    const row = (id: string, ageDays: number) => ({
      id,
      endpoint: "/api/institutions",
      method: "GET",
      responseStatus: 200,
      createdAt: new Date(now - ageDays * DAY_MS).toISOString(),
    });
    await t.deps.db.transaction((tx) => tx.insert(apiLogs).values([row("old", 31), row("recent", 29)]));
    assert.equal(await t.app.requestLog.prune(new Date(now)), 1);
    const left = await t.deps.db.read.select({ id: apiLogs.id }).from(apiLogs).all();
    assert.deepEqual(left.map((r) => r.id), ["recent"]);
    const audits = await t.deps.db.read.select().from(auditTrail).all();
    const prune = audits.find((a) => a.entityType === "api_logs" && a.action === "prune")!;
    assert.equal((prune.changes as { deleted: number }).deleted, 1);
    assert.equal(await t.app.requestLog.prune(new Date(now)), 0, "nothing left to prune");
  } finally {
    await t.close();
  }
});

Deno.test("API_LOG_RETENTION_DAYS defaults to 90 and must be a positive whole number", () => {
  assert.equal(retentionDaysFrom({}), DEFAULT_API_LOG_RETENTION_DAYS);
  assert.equal(DEFAULT_API_LOG_RETENTION_DAYS, 90);
  assert.equal(retentionDaysFrom({ API_LOG_RETENTION_DAYS: "7" }), 7);
  for (const bad of ["0", "-3", "1.5", "ninety"]) {
    assert.throws(() => retentionDaysFrom({ API_LOG_RETENTION_DAYS: bad }), /API_LOG_RETENTION_DAYS/);
  }
});

Deno.test("GET /api/api-logs lists newest first and filters by status (exact or class) and endpoint prefix", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const { key } = await createKey(t, cookie);
    await expectJson(await withKey(t, key)("GET", "/api/institutions"), 200);
    await expectJson(await withKey(t, key)("GET", `/api/institutions/${crypto.randomUUID()}`), 404);
    await expectJson(await withKey(t, key)("GET", "/api/routing-codes"), 403);
    await t.app.requestLog.flush();

    const all = await expectJson(await t.request("GET", "/api/api-logs", { cookie }), 200);
    assert(all.length >= 5);
    const times = all.map((entry: { createdAt: string }) => entry.createdAt);
    assert.deepEqual(times, [...times].sort().reverse());

    const institutions = await expectJson(
      await t.request("GET", "/api/api-logs?endpoint=/api/institutions", { cookie }),
      200,
    );
    assert.deepEqual(
      institutions.map((e: { endpoint: string }) => e.endpoint.startsWith("/api/institutions")),
      [true, true],
    );
    assert.equal(institutions[0].apiKeyName, "Clearing house integration");

    const notFound = await expectJson(await t.request("GET", "/api/api-logs?status=404", { cookie }), 200);
    assert.deepEqual(notFound.map((e: { responseStatus: number }) => e.responseStatus), [404]);
    const clientErrors = await expectJson(
      await t.request("GET", "/api/api-logs?status=4xx", { cookie }),
      200,
    );
    assert.deepEqual(clientErrors.map((e: { responseStatus: number }) => e.responseStatus).sort(), [
      403,
      404,
    ]);
    const one = await expectJson(await t.request("GET", "/api/api-logs?limit=1", { cookie }), 200);
    assert.equal(one.length, 1);
    await expectJson(await t.request("GET", "/api/api-logs?status=abc", { cookie }), 400);
    await expectJson(await t.request("GET", "/api/api-logs?limit=100000", { cookie }), 400);
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/api-logs/stats counts today's requests and errors, the median latency and the active keys", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const empty = await expectJson(await t.request("GET", "/api/api-logs/stats", { cookie }), 200);
    assert.equal(empty.activeKeys, 0);

    const { id } = await createKey(t, cookie, { name: "a" });
    await createKey(t, cookie, { name: "b" });
    await expectJson(await t.request("DELETE", `/api/api-keys/${id}`, { cookie }), 200);
    const now = Date.now();
    const row = (status: number, time: number, ageMs = 0) => ({
      id: crypto.randomUUID(),
      endpoint: "/api/search",
      method: "GET",
      responseStatus: status,
      responseTime: time,
      createdAt: new Date(now - ageMs).toISOString(),
    });
    await t.app.requestLog.flush();
    await t.deps.db.transaction((tx) => tx.delete(apiLogs));
    await t.deps.db.transaction((tx) =>
      tx.insert(apiLogs).values([
        row(200, 3),
        row(200, 5),
        row(404, 7),
        row(500, 9),
        row(200, 1000, 2 * DAY_MS),
      ])
    );
    const stats = await expectJson(await t.request("GET", "/api/api-logs/stats", { cookie }), 200);
    assert.deepEqual(stats, {
      requestsToday: 4,
      errorsToday: 2,
      errorRatePercent: 50,
      medianLatencyMs: 5,
      activeKeys: 1,
    });
  } finally {
    await t.close();
  }
});
