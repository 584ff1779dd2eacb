import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { RATE_LIMIT_WINDOW_MS } from "../../src/domain/public_api.ts";
import { KeyUsageStore, usageBucket } from "../../src/server/api_access/usage_store.ts";
import { createTestApp, expectJson } from "../helpers/test_app.ts";
import { createKey, withKey } from "./api_access_helpers.ts";

const INSTITUTIONS_LIMIT = 100;

Deno.test("the 101st GET /api/institutions within the hour from one key answers 429 with Retry-After and RateLimit headers; another key is unaffected", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const first = await createKey(t, cookie, { name: "first" });
    const second = await createKey(t, cookie, { name: "second" });
    const call = withKey(t, first.key);

    // All at once: the counter is exact under concurrency (one group-committed upsert per batch).
    const responses = await Promise.all(
      Array.from({ length: INSTITUTIONS_LIMIT }, () => call("GET", "/api/institutions")),
    );
    const remaining: number[] = [];
    for (const res of responses) {
      await expectJson(res, 200);
      assert.equal(res.headers.get("ratelimit-limit"), String(INSTITUTIONS_LIMIT));
      const reset = Number(res.headers.get("ratelimit-reset"));
      assert(reset > 0 && reset <= RATE_LIMIT_WINDOW_MS / 1000, `RateLimit-Reset ${reset}`);
      remaining.push(Number(res.headers.get("ratelimit-remaining")));
    }
    assert.deepEqual(
      remaining.sort((a, b) => a - b),
      Array.from({ length: INSTITUTIONS_LIMIT }, (_, i) => i),
    );

    const refused = await call("GET", "/api/institutions");
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    assert(retryAfter > 0 && retryAfter <= RATE_LIMIT_WINDOW_MS / 1000, `Retry-After ${retryAfter}`);
    assert.equal(refused.headers.get("ratelimit-limit"), String(INSTITUTIONS_LIMIT));
    assert.equal(refused.headers.get("ratelimit-remaining"), "0");
    assert.equal(refused.headers.get("ratelimit-reset"), String(retryAfter));
    const body = await expectJson(refused, 429);
    assert.equal(body.success, false);
    assert.equal(body.code, "rate_limited");
    assert.match(body.error, /Rate limit exceeded: 100 requests per hour for GET \/api\/institutions/);

    const other = await withKey(t, second.key)("GET", "/api/institutions");
    await expectJson(other, 200);
    assert.equal(other.headers.get("ratelimit-remaining"), String(INSTITUTIONS_LIMIT - 1));

    const otherEndpoint = await call("GET", "/api/search?type=institution&query=bank");
    await expectJson(otherEndpoint, 200);
    assert.equal(
      otherEndpoint.headers.get("ratelimit-limit"),
      "200",
      "each endpoint has its own counter and limit",
    );
  } finally {
    await t.close();
  }
});

Deno.test("two app processes on one database share a key's hourly counter", async () => {
  const first = await createTestApp();
  const second = await createTestApp({}, { dataDir: first.dataDir });
  try {
    const { key } = await createKey(first, await first.login());
    const viaFirst = withKey(first, key);
    const viaSecond = withKey(second, key);
    const split = await Promise.all([
      ...Array.from({ length: 60 }, () => viaFirst("GET", "/api/institutions")),
      ...Array.from({ length: 40 }, () => viaSecond("GET", "/api/institutions")),
    ]);
    for (const res of split) await expectJson(res, 200);
    const remaining = split.map((res) => Number(res.headers.get("ratelimit-remaining"))).sort((a, b) =>
      a - b
    );
    assert.deepEqual(
      remaining,
      Array.from({ length: INSTITUTIONS_LIMIT }, (_, i) => i),
      "no count was lost or repeated",
    );
    await expectJson(await viaFirst("GET", "/api/institutions"), 429);
    await expectJson(await viaSecond("GET", "/api/institutions"), 429);
    const [row] = await first.deps.db.read.all<{ count: number }>(
      sql`SELECT sum(count) AS count FROM api_rate_limits`,
    );
    assert.equal(row.count, INSTITUTIONS_LIMIT + 2, "refused requests are counted too");
  } finally {
    await second.close();
    await first.close();
  }
});

Deno.test("windows are clock hours (UTC): the count starts again at the top of the hour, and old windows are pruned", async () => {
  const t = await createTestApp();
  try {
    const { id } = await createKey(t, await t.login());
    const hour = Date.UTC(2030, 0, 15, 9);
    let now = hour + 59 * 60_000;
    const store = new KeyUsageStore(t.deps.db, () => now);
    const bucket = usageBucket(id, "GET /api/institutions");

    const a = await store.increment(bucket);
    const b = await store.increment(bucket);
    assert.deepEqual([a.totalHits, b.totalHits], [1, 2]);
    assert.equal(a.resetTime?.toISOString(), new Date(hour + RATE_LIMIT_WINDOW_MS).toISOString());

    now = hour + RATE_LIMIT_WINDOW_MS + 1_000;
    const c = await store.increment(bucket);
    assert.equal(c.totalHits, 1, "a new hour, a new count");
    assert.equal(c.resetTime?.toISOString(), new Date(hour + 2 * RATE_LIMIT_WINDOW_MS).toISOString());
    assert.equal((await store.get(bucket))?.totalHits, 1);

    await store.decrement(bucket);
    assert.equal((await store.get(bucket))?.totalHits, 0);

    now = hour + 3 * RATE_LIMIT_WINDOW_MS;
    await store.increment(bucket);
    const windows = await t.deps.db.read.all<{ windowStart: string }>(
      sql`SELECT window_start AS windowStart FROM api_rate_limits ORDER BY window_start`,
    );
    assert.deepEqual(
      windows.map((w) => w.windowStart),
      [new Date(hour + 3 * RATE_LIMIT_WINDOW_MS).toISOString()],
      "windows before the previous hour are gone",
    );
    await store.resetKey(bucket);
    assert.equal(await store.get(bucket), undefined);
  } finally {
    await t.close();
  }
});

Deno.test("the counting transaction refuses a key revoked since it was cached", async () => {
  const t = await createTestApp();
  try {
    const { id } = await createKey(t, await t.login());
    const store = new KeyUsageStore(t.deps.db, t.deps.clock.now);
    const bucket = usageBucket(id, "GET /api/institutions");
    assert.equal((await store.increment(bucket)).totalHits, 1);
    await t.deps.db.transaction((tx) =>
      tx.run(sql`UPDATE api_keys SET revoked_at = ${new Date().toISOString()} WHERE id = ${id}`)
    );
    await assert.rejects(
      store.increment(bucket),
      (error: Error & { code?: string }) => error.code === "unauthorized",
    );
  } finally {
    await t.close();
  }
});
