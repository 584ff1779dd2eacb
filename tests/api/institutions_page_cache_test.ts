/**
 * Issue 24: list and search pages are answered from memory while the institutions change epoch
 * (migration 1250) stands still; any change to an institution, from any connection or process, is
 * in the very next answer.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { SYSTEM_USER_ID } from "../../db/schema.ts";
import { openDatabase } from "../../src/server/db/database.ts";
import { type CachedPage, PageCache, pageKey } from "../../src/server/features/institutions/page_cache.ts";
import { insertInstitution } from "../../src/server/features/institutions/service.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const ACTOR = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null };

interface Row {
  id: string;
  name: string;
  status: string;
  phoneNumber: string;
}

async function register(t: TestApp, n: number) {
  await t.deps.db.transaction(async (tx) => {
    await insertInstitution(tx, ACTOR, {
      name: `Cachewell Bank ${n}`,
      type: "commercial",
      registrationNumber: `CACHE-${n}`,
      licenseNumber: null,
      address: "1 Main Street",
      phoneNumber: "+1 202 555 0100",
      emailAddress: `bank${n}@cachewell.example`,
      numberOfBranches: 1,
      swiftParticipant: false,
      swiftMembershipType: null,
    });
  });
}

async function list(req: ReturnType<TestApp["as"]>, path: string) {
  const res = await req("GET", path);
  assert.equal(res.headers.get("content-type"), "application/json");
  const items = await expectJson<Row[]>(res, 200);
  return { items, total: Number(res.headers.get("X-Total-Count")) };
}

Deno.test("a cached page follows every change to an institution, including fields no search reads", async () => {
  const t = await createTestApp();
  try {
    for (let n = 0; n < 3; n++) await register(t, n);
    const req = t.as(await t.login());
    const path = "/api/institutions?search=cachewell&limit=2";
    const first = await list(req, path);
    assert.deepEqual(first.items.map((i) => i.name), ["Cachewell Bank 2", "Cachewell Bank 1"]);
    assert.equal(first.total, 3);
    assert.deepEqual(await list(req, path), first, "the same answer again");

    // A status or phone number is not searched (the search version stays), but it is on the page.
    await t.deps.db.transaction(async (tx) => {
      await tx.run(sql`UPDATE institutions SET status = 'active', phone_number = '+1 202 555 0199'
        WHERE registration_number = 'CACHE-2'`);
    });
    const changed = await list(req, path);
    assert.equal(changed.items[0].status, "active");
    assert.equal(changed.items[0].phoneNumber, "+1 202 555 0199");

    await register(t, 3);
    const grown = await list(req, path);
    assert.deepEqual(grown.items.map((i) => i.name), ["Cachewell Bank 3", "Cachewell Bank 2"]);
    assert.equal(grown.total, 4);
    const viaLookup = await req("GET", "/api/search?type=institution&query=cachewell&limit=2");
    assert.deepEqual(
      (await expectJson<Row[]>(viaLookup, 200)).map((i) => i.name),
      ["Cachewell Bank 3", "Cachewell Bank 2"],
    );
    assert.equal(viaLookup.headers.get("X-Total-Count"), "4");

    await t.deps.db.transaction(async (tx) => {
      await tx.run(sql`DELETE FROM institutions WHERE registration_number = 'CACHE-3'`);
    });
    assert.deepEqual((await list(req, path)).items.map((i) => i.name), [
      "Cachewell Bank 2",
      "Cachewell Bank 1",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("a change made by another connection to the file (another process) is in the next answer", async () => {
  const t = await createTestApp();
  try {
    await register(t, 0);
    const req = t.as(await t.login());
    const path = "/api/institutions?limit=5";
    assert.equal((await list(req, path)).items[0].status, "pending");
    const other = await openDatabase(t.deps.db.url);
    try {
      await other.transaction(async (tx) => {
        await tx.run(sql`UPDATE institutions SET status = 'suspended' WHERE registration_number = 'CACHE-0'`);
      });
    } finally {
      other.close();
    }
    assert.equal((await list(req, path)).items[0].status, "suspended");
  } finally {
    await t.close();
  }
});

Deno.test("the whole list's X-Total-Count follows registrations and deletions, whichever connection makes them", async () => {
  const t = await createTestApp();
  try {
    for (let n = 0; n < 3; n++) await register(t, n);
    const req = t.as(await t.login());
    const total = async () => (await list(req, "/api/institutions?limit=2")).total;
    assert.equal(await total(), 3);
    assert.equal(await total(), 3);
    await register(t, 3);
    assert.equal(await total(), 4);
    const other = await openDatabase(t.deps.db.url);
    try {
      await other.transaction(async (tx) => {
        await tx.run(sql`DELETE FROM institutions WHERE registration_number IN ('CACHE-0', 'CACHE-1')`);
      });
      assert.equal(await total(), 2, "a full page of 2 with nothing after it");
      await other.transaction(async (tx) => {
        await tx.run(sql`DELETE FROM institutions WHERE registration_number = 'CACHE-2'`);
      });
      assert.equal(await total(), 1);
    } finally {
      other.close();
    }
  } finally {
    await t.close();
  }
});

Deno.test("PageCache keeps at most its bounds of pages and characters, dropping the least recently used", async () => {
  const t = await createTestApp();
  try {
    const loads: string[] = [];
    const page = (search: string) => ({ search, limit: 100, offset: 0 });
    const get = (cache: PageCache, search: string, chars = 10) =>
      cache.get(page(search), () => {
        loads.push(search);
        return Promise.resolve<CachedPage>({ body: "x".repeat(chars), total: 1 });
      });
    const byCount = new PageCache(t.deps.db.epochs, 2, 1_000);
    for (const search of ["a", "b", "a", "c", "a", "b"]) await get(byCount, search);
    assert.deepEqual(loads, ["a", "b", "c", "b"]);

    loads.length = 0;
    const byChars = new PageCache(t.deps.db.epochs, 10, 25);
    for (const search of ["a", "b", "a", "c", "b"]) await get(byChars, search);
    assert.deepEqual(
      loads,
      ["a", "b", "c", "b"],
      "two 10-character pages fit in 25, a third pushes out the oldest",
    );
    await get(byChars, "huge", 30);
    await get(byChars, "huge", 30);
    assert.deepEqual(loads.slice(-2), ["huge", "huge"], "a page larger than the bound is answered, not kept");

    assert.equal(
      pageKey({ search: " bank ", limit: 100, offset: 0 }),
      pageKey({ search: "bank", limit: 100, offset: 0 }),
    );
    assert.notEqual(
      pageKey({ search: "bank", limit: 100, offset: 0 }),
      pageKey({ search: "bank", limit: 100, offset: 0, status: "active" }),
    );
  } finally {
    await t.close();
  }
});
