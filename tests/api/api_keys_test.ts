import { soleGrant } from "../../src/server/auth/role_grants.ts";
import assert from "node:assert/strict";
import { eq, sql } from "drizzle-orm";
import { apiKeys, auditTrail } from "../../db/schema.ts";
import { API_KEY_PREFIX, API_KEY_SECRET_LENGTH } from "../../src/domain/public_api.ts";
import { hashApiKey } from "../../src/server/api_access/keys.ts";
import { LAST_USED_RESOLUTION_MS } from "../../src/server/api_access/usage_store.ts";
import { createUser } from "../../src/server/auth/users.ts";
import { createTestApp, expectJson } from "../helpers/test_app.ts";
import { bearer, createKey, seedLookupData, VALID_IBAN, withKey } from "./api_access_helpers.ts";

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

Deno.test("POST /api/api-keys shows the key once (prefix + 43 base62 characters), stores only its SHA-256 and audits it", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const res = await t.request("POST", "/api/api-keys", { cookie, body: { name: "  Clearing house  " } });
    assert.equal(res.headers.get("cache-control"), "no-store");
    const created = await expectJson(res, 201);
    assert.match(created.key, new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9]{${API_KEY_SECRET_LENGTH}}$`));
    assert.equal(created.name, "Clearing house");
    assert.equal(created.status, "active");
    assert.equal(created.keyPrefix, created.key.slice(0, API_KEY_PREFIX.length + 4));
    assert.equal(created.expiresAt, null);

    const [row] = await t.deps.db.read.select().from(apiKeys).where(eq(apiKeys.id, created.id)).all();
    assert.equal(row.keyHash, hashApiKey(created.key));
    const stored = JSON.stringify(await t.deps.db.read.all(sql`SELECT * FROM api_keys`));
    assert(!stored.includes(created.key), "the key itself is not stored");

    const list = await expectJson(await t.request("GET", "/api/api-keys", { cookie }), 200);
    assert.equal(list.length, 1);
    assert.equal(list[0].id, created.id);
    assert(!("key" in list[0]) && !("keyHash" in list[0]), "the list shows neither the key nor its hash");

    const audits = await t.deps.db.read.select().from(auditTrail).where(eq(auditTrail.entityId, created.id))
      .all();
    assert.deepEqual(audits.map((a) => [a.entityType, a.action]), [["api_key", "create"]]);
    const auditText = JSON.stringify(audits);
    assert(
      !auditText.includes(created.key) && !auditText.includes(row.keyHash),
      "the audit holds neither key nor hash",
    );
  } finally {
    await t.close();
  }
});

Deno.test("two keys never collide: each is fresh randomness", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const keys = new Set<string>();
    for (let i = 0; i < 20; i++) keys.add((await createKey(t, cookie)).key);
    assert.equal(keys.size, 20);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/api-keys needs a name and refuses an expiry in the past", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const missing = await expectJson(await t.request("POST", "/api/api-keys", { cookie, body: {} }), 400);
    assert.equal(missing.fields.name, "Required");
    const past = await expectJson(
      await t.request("POST", "/api/api-keys", {
        cookie,
        body: { name: "x", expiresAt: "2020-01-01T00:00:00Z" },
      }),
      400,
    );
    assert.equal(past.fields.expiresAt, "Expiry must be in the future");
    const dated = await createKey(t, cookie, { expiresAt: "2999-12-31" });
    const [row] = await t.deps.db.read.select().from(apiKeys).where(eq(apiKeys.id, dated.id)).all();
    assert.equal(row.expiresAt, "3000-01-01T00:00:00.000Z", "a date means valid through that day (UTC)");
  } finally {
    await t.close();
  }
});

Deno.test("a key reads every documented endpoint and gets the {data, success, timestamp} envelope", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const data = await seedLookupData(t, cookie);
    const { key } = await createKey(t, cookie);
    const call = withKey(t, key);

    const checks: [string, string, unknown, (body: any) => void][] = [
      ["GET", "/api/institutions", undefined, (d) => assert.equal(d[0].id, data.institutionId)],
      [
        "GET",
        `/api/institutions/${data.institutionId}`,
        undefined,
        (d) => assert.equal(d.name, "Meridian Commercial Bank"),
      ],
      [
        "GET",
        `/api/routing-codes/${data.routingCode}`,
        undefined,
        (d) => assert.equal(d.code, data.routingCode),
      ],
      ["GET", `/api/swift-codes/${data.bic}`, undefined, (d) => assert.equal(d.bicCode, data.bic)],
      ["POST", "/api/iban/validate", { iban: VALID_IBAN }, (d) => assert.equal(d.valid, true)],
      [
        "GET",
        `/api/search?type=routing&query=${data.routingCode}`,
        undefined,
        (d) => assert.equal(d[0].code, data.routingCode),
      ],
    ];
    for (const [method, path, body, check] of checks) {
      const res = await call(method, path, body);
      const envelope = await expectJson(res, 200);
      assert.deepEqual(Object.keys(envelope).sort(), ["data", "success", "timestamp"], path);
      assert.equal(envelope.success, true);
      assert.match(envelope.timestamp, ISO_TIMESTAMP);
      check(envelope.data);
      assert(res.headers.get("ratelimit-limit"), `${path} carries RateLimit-Limit`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("session calls to the documented endpoints keep the plain shapes the screens read", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const data = await seedLookupData(t, cookie);
    const res = await t.request("GET", `/api/routing-codes/${data.routingCode}`, { cookie });
    const body = await expectJson(res, 200);
    assert.equal(body.code, data.routingCode);
    assert(!("success" in body) && !("data" in body));
    assert.equal(res.headers.get("ratelimit-limit"), null, "sessions are not rate limited");
    const list = await expectJson(await t.request("GET", "/api/institutions", { cookie }), 200);
    assert(Array.isArray(list));
  } finally {
    await t.close();
  }
});

Deno.test("errors to a key use the envelope: {success: false, error, timestamp}", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const { key } = await createKey(t, cookie);
    const missing = await expectJson(
      await withKey(t, key)("GET", `/api/institutions/${crypto.randomUUID()}`),
      404,
    );
    assert.equal(missing.success, false);
    assert.equal(missing.error, "Institution not found");
    assert.equal(missing.code, "not_found");
    assert.match(missing.timestamp, ISO_TIMESTAMP);
    const invalid = await expectJson(await withKey(t, key)("GET", "/api/search?type=nothing&query=x"), 400);
    assert.equal(invalid.success, false);
    assert.equal(typeof invalid.fields.type, "string");
  } finally {
    await t.close();
  }
});

Deno.test("a revoked key answers 401 Unauthorized at once, also right after it was used", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const { id, key } = await createKey(t, cookie);
    await expectJson(await withKey(t, key)("GET", "/api/institutions"), 200);
    const revoked = await expectJson(await t.request("DELETE", `/api/api-keys/${id}`, { cookie }), 200);
    assert.equal(revoked.status, "revoked");
    assert.match(revoked.revokedAt, ISO_TIMESTAMP);
    const res = await withKey(t, key)("GET", "/api/institutions");
    assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
    const body = await expectJson(res, 401);
    assert.equal(body.success, false);
    assert.match(body.error, /Unauthorized/);
    const other = await expectJson(await withKey(t, key)("GET", "/api/routing-codes"), 401);
    assert.match(other.error, /Unauthorized/, "a revoked key is a 401 on other routes too, not a 403");
  } finally {
    await t.close();
  }
});

Deno.test("a key revoked by another app process on the same database answers 401 on its next request", async () => {
  const first = await createTestApp();
  const second = await createTestApp({}, { dataDir: first.dataDir });
  try {
    const cookie = await first.login();
    const { id, key } = await createKey(first, cookie);
    await expectJson(await withKey(first, key)("GET", "/api/institutions"), 200);
    await expectJson(
      await second.request("DELETE", `/api/api-keys/${id}`, { cookie: await second.login() }),
      200,
    );
    await expectJson(await withKey(first, key)("GET", "/api/institutions"), 401);
  } finally {
    await second.close();
    await first.close();
  }
});

Deno.test("an expired key answers 401 Unauthorized", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const { id, key } = await createKey(t, cookie, {
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    await expectJson(await withKey(t, key)("GET", "/api/institutions"), 200);
    await t.deps.db.transaction((tx) =>
      tx.update(apiKeys).set({ expiresAt: new Date(Date.now() - 1000).toISOString() }).where(
        eq(apiKeys.id, id),
      )
    );
    const body = await expectJson(await withKey(t, key)("GET", "/api/institutions"), 401);
    assert.match(body.error, /Unauthorized/);
    const list = await expectJson(await t.request("GET", "/api/api-keys", { cookie }), 200);
    assert.equal(list[0].status, "expired");
  } finally {
    await t.close();
  }
});

Deno.test("an unknown, malformed or empty bearer key answers 401 Unauthorized, even with a valid session cookie", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const unknownKey = `${API_KEY_PREFIX}${"A".repeat(API_KEY_SECRET_LENGTH)}`;
    for (const token of [unknownKey, "not-a-key", ""]) {
      const res = await t.request("GET", "/api/institutions", {
        cookie,
        headers: { authorization: `Bearer ${token}` },
      });
      const body = await expectJson(res, 401);
      assert.equal(body.success, false, token);
      assert.match(body.error, /Unauthorized/);
    }
  } finally {
    await t.close();
  }
});

Deno.test("a key on any other route answers 403, key management and writes included", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const data = await seedLookupData(t, cookie);
    const { id, key } = await createKey(t, cookie);
    const call = withKey(t, key);
    const refused: [string, string, unknown?][] = [
      ["GET", "/api/routing-codes"],
      ["GET", "/api/auth/user"],
      ["GET", "/api/api-keys"],
      ["POST", "/api/api-keys", { name: "escalation" }],
      ["DELETE", `/api/api-keys/${id}`],
      ["GET", "/api/api-logs"],
      ["GET", "/api/openapi.json"],
      ["POST", "/api/institutions", { name: "x" }],
      ["PATCH", `/api/institutions/${data.institutionId}/status`, { status: "active" }],
      ["GET", "/api/dashboard/stats"],
      ["GET", "/api/no-such-endpoint"],
    ];
    for (const [method, path, body] of refused) {
      const envelope = await expectJson(await call(method, path, body), 403);
      assert.equal(envelope.success, false, `${method} ${path}`);
      assert.equal(envelope.code, "forbidden");
    }
    assert.equal((await t.deps.db.read.select().from(apiKeys).all()).length, 1, "the key created nothing");
  } finally {
    await t.close();
  }
});

Deno.test("key management needs an administrator's session: none 401, operator 403", async () => {
  const t = await createTestApp();
  try {
    await expectJson(await t.request("GET", "/api/api-keys"), 401);
    await expectJson(await t.request("POST", "/api/api-keys", { body: { name: "x" } }), 401);
    await createUser(t.deps.db, t.deps.config, {
      email: "clerk@centralbank.test",
      password: "quiet-harbour-ledger-1",
      roles: ["operator"],
    }, soleGrant(null));
    const operator = await t.login("clerk@centralbank.test", "quiet-harbour-ledger-1");
    await expectJson(await t.request("GET", "/api/api-keys", { cookie: operator }), 403);
    await expectJson(
      await t.request("POST", "/api/api-keys", { cookie: operator, body: { name: "x" } }),
      403,
    );
    const admin = await t.login();
    const { id } = await createKey(t, admin);
    await expectJson(await t.request("DELETE", `/api/api-keys/${id}`, { cookie: operator }), 403);
    await expectJson(await t.request("GET", "/api/api-logs", { cookie: operator }), 403);
  } finally {
    await t.close();
  }
});

Deno.test("DELETE /api/api-keys/{id} is audited with before and after; a second revoke is a 409, an unknown id a 404", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const { id } = await createKey(t, cookie);
    await expectJson(await t.request("DELETE", `/api/api-keys/${id}`, { cookie }), 200);
    await expectJson(await t.request("DELETE", `/api/api-keys/${id}`, { cookie }), 409);
    await expectJson(await t.request("DELETE", `/api/api-keys/${crypto.randomUUID()}`, { cookie }), 404);
    const audits = await t.deps.db.read.select().from(auditTrail).where(eq(auditTrail.entityId, id)).all();
    assert.deepEqual(audits.map((a) => a.action), ["create", "revoke"]);
    const changes = audits[1].changes as { before: { status: string }; after: { status: string } };
    assert.equal(changes.before.status, "active");
    assert.equal(changes.after.status, "revoked");
  } finally {
    await t.close();
  }
});

Deno.test("last_used_at is set on use and rewritten at most once a minute", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const { id, key } = await createKey(t, cookie);
    const lastUsed = async () =>
      (await t.deps.db.read.select().from(apiKeys).where(eq(apiKeys.id, id)).all())[0].lastUsedAt;
    assert.equal(await lastUsed(), null);
    await expectJson(await withKey(t, key)("GET", "/api/institutions"), 200);
    const first = await lastUsed();
    assert.match(first ?? "", ISO_TIMESTAMP);
    await expectJson(await withKey(t, key)("GET", "/api/institutions"), 200);
    assert.equal(await lastUsed(), first, "not rewritten within the minute");
    const longAgo = new Date(Date.now() - LAST_USED_RESOLUTION_MS - 1000).toISOString();
    await t.deps.db.transaction((tx) =>
      tx.update(apiKeys).set({ lastUsedAt: longAgo }).where(eq(apiKeys.id, id))
    );
    await expectJson(await t.request("GET", "/api/institutions", { headers: bearer(key) }), 200);
    assert((await lastUsed())! > longAgo);
  } finally {
    await t.close();
  }
});
