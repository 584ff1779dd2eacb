import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import NativeDatabase from "libsql";
import { routingCodes, sessions, users } from "../../db/schema.ts";
import { KeyUsageStore, usageBucket } from "../../src/server/api_access/usage_store.ts";
import { ChangeEpochs, EpochCache } from "../../src/server/db/change_epochs.ts";
import type { Statements } from "../../src/server/db/statements.ts";
import { recordVersion } from "../../src/server/registry_history/versions.ts";
import { ADMIN_EMAIL, createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";
import { createKey, seedLookupData, withKey } from "./api_access_helpers.ts";

/** A second app process on the same database file; closed before the owner. */
async function withSecondProcess(fn: (first: TestApp, second: TestApp) => Promise<void>) {
  const first = await createTestApp();
  const second = await createTestApp({}, { dataDir: first.dataDir });
  try {
    await fn(first, second);
  } finally {
    await second.close();
    await first.close();
  }
}

Deno.test("ChangeEpochs.fresh(): the callers of one turn share one read, and a change committed before a call is seen by it", async () => {
  const t = await createTestApp();
  try {
    let reads = 0;
    const counting: Statements = {
      ...t.deps.db.statements,
      all: (sql, args) => {
        reads++;
        return t.deps.db.statements.all(sql, args);
      },
    };
    const epochs = new ChangeEpochs(counting);
    const together = await Promise.all(Array.from({ length: 20 }, () => epochs.fresh()));
    assert.equal(reads, 1, "twenty callers in one turn, one read");
    assert(together.every((e) => e.routing_codes === together[0].routing_codes));

    await t.deps.db.transaction((tx) =>
      tx.update(users).set({ firstName: "Changed" }).where(eq(users.email, ADMIN_EMAIL))
    );
    const after = await epochs.fresh();
    assert.equal(reads, 2);
    assert(after.auth > together[0].auth, "a user change bumps the auth epoch");
    assert.equal(after.routing_codes, together[0].routing_codes, "other topics stay");
  } finally {
    await t.close();
  }
});

Deno.test("EpochCache answers only at the epoch an entry was stored with, and forgets the oldest past its size", () => {
  const cache = new EpochCache<string, number>(2);
  cache.set("a", 1, 7);
  assert.equal(cache.get("a", 7), 1);
  assert.equal(cache.get("a", 8), undefined, "another epoch: stale");
  assert.equal(cache.get("a", 7), undefined, "a stale entry is dropped, not revived");
  cache.set("a", 1, 7);
  cache.set("b", 2, 7);
  cache.set("c", 3, 7);
  assert.equal(cache.size, 2);
  assert.equal(cache.get("a", 7), undefined, "the oldest went first");
  assert.equal(cache.get("c", 7), 3);
});

Deno.test("a session answered from memory ends at the very next request when another process signs it out, revokes it or disables its user", async () => {
  await withSecondProcess(async (first, second) => {
    // Sign-out elsewhere: the session row is deleted by the other process.
    let cookie = await first.login();
    await expectJson(await first.request("GET", "/api/auth/user", { cookie }), 200);
    await expectJson(await first.request("GET", "/api/auth/user", { cookie }), 200);
    const out = await second.request("POST", "/api/logout", { cookie, body: {} });
    await out.body?.cancel();
    await expectJson(await first.request("GET", "/api/auth/user", { cookie }), 401);

    // Revocation by deleting the row, as DELETE /api/sessions/{id} does.
    cookie = await first.login();
    await expectJson(await first.request("GET", "/api/auth/user", { cookie }), 200);
    await second.deps.db.transaction((tx) => tx.delete(sessions));
    await expectJson(await first.request("GET", "/api/auth/user", { cookie }), 401);

    // A disabled user.
    cookie = await first.login();
    await expectJson(await first.request("GET", "/api/auth/user", { cookie }), 200);
    await second.deps.db.transaction((tx) =>
      tx.update(users).set({ disabledAt: new Date().toISOString() }).where(eq(users.email, ADMIN_EMAIL))
    );
    await expectJson(await first.request("GET", "/api/auth/user", { cookie }), 401);
  });
});

Deno.test("a cached session shows another process's change to its user at once", async () => {
  await withSecondProcess(async (first, second) => {
    const cookie = await first.login();
    assert.equal(
      (await expectJson(await first.request("GET", "/api/auth/user", { cookie }), 200)).role,
      "admin",
    );
    await second.deps.db.transaction((tx) =>
      tx.update(users).set({ role: "operator" }).where(eq(users.email, ADMIN_EMAIL))
    );
    assert.equal(
      (await expectJson(await first.request("GET", "/api/auth/user", { cookie }), 200)).role,
      "operator",
    );
  });
});

Deno.test("GET /api/routing-codes/{code} answered from memory shows another process's change, and a code it assigns, at once", async () => {
  await withSecondProcess(async (first, second) => {
    const cookie = await first.login();
    const { institutionId, routingCode } = await seedLookupData(first, cookie);
    const lookup = (code: string) => first.request("GET", `/api/routing-codes/${code}`, { cookie });
    assert.equal((await expectJson(await lookup(routingCode), 200)).status, "active");
    // Every change to a code is a version (registry_history/versions.ts), which the lookup resolves.
    await second.deps.db.transaction(async (tx) => {
      const row = await tx.select({ id: routingCodes.id }).from(routingCodes).where(eq(routingCodes.code, routingCode))
        .get();
      await recordVersion(tx, {
        entityType: "routing_code",
        entityId: row!.id,
        validFrom: new Date().toISOString(),
        changes: { status: "inactive" },
        summary: "Status active → inactive",
        requestedBy: null,
        approvedBy: null,
      }, Date.now());
    });
    assert.equal((await expectJson(await lookup(routingCode), 200)).status, "inactive");

    const created = await expectJson(
      await second.request("POST", "/api/routing-codes", {
        cookie: (await second.desk()).operatorCookie,
        body: { institutionId, prefix: "ZZZ" },
      }),
      201,
    );
    assert.equal((await expectJson(await lookup(created.code), 200)).id, created.id);
    await second.deps.db.transaction((tx) =>
      tx.delete(routingCodes).where(eq(routingCodes.code, created.code))
    );
    await expectJson(await lookup(created.code), 404);
  });
});

Deno.test("counting waits for another connection's write lock on later turns, never in SQLite's busy handler: the event loop keeps running and no hit is lost", async () => {
  const t = await createTestApp();
  const holder = new NativeDatabase(`${t.dataDir}/console.db`);
  try {
    const { id, key } = await createKey(t, await t.login());
    const store = new KeyUsageStore(t.deps.db, t.deps.clock.now);
    const bucket = usageBucket(id, "GET /api/institutions");

    holder.exec("BEGIN IMMEDIATE");
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const counted = Promise.all(Array.from({ length: 10 }, () => store.increment(bucket)));
    await new Promise((resolve) => setTimeout(resolve, 150));
    clearInterval(ticker);
    assert(ticks >= 10, `the event loop ran while the lock was held (${ticks} ticks)`);
    holder.exec("COMMIT");

    const hits = (await counted).map((info) => info.totalHits).sort((a, b) => a - b);
    assert.deepEqual(hits, Array.from({ length: 10 }, (_, i) => i + 1), "every hit counted once, in order");
    const res = await withKey(t, key)("GET", "/api/institutions");
    await expectJson(res, 200);
    assert.equal(res.headers.get("ratelimit-remaining"), "89");
  } finally {
    holder.close();
    await t.close();
  }
});
