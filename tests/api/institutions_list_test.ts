/** Issue 23: the registry list sorted, filtered and paged by the server, over 1,000 institutions. */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { SYSTEM_USER_ID } from "../../db/schema.ts";
import { INSTITUTION_TYPES } from "../../src/domain/institution.ts";
import { insertInstitution } from "../../src/server/features/institutions/service.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const ACTOR = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null };
const ROWS = 1000;
const BASE = Date.parse("2025-01-01T00:00:00.000Z");

interface Row {
  id: string;
  name: string;
  type: string;
  status: string;
  registrationNumber: string;
  createdAt: string;
}

async function seed(t: TestApp) {
  await t.deps.db.transaction(async (tx) => {
    for (let i = 0; i < ROWS; i++) {
      await insertInstitution(tx, ACTOR, {
        // Names in a different order from registration, so sorting by name is visible.
        name: `Bank ${String((i * 7919) % ROWS).padStart(4, "0")}`,
        type: INSTITUTION_TYPES[i % INSTITUTION_TYPES.length],
        registrationNumber: `LIST-${String(i).padStart(4, "0")}`,
        licenseNumber: null,
        address: "1 Main Street",
        phoneNumber: "+1 202 555 0100",
        emailAddress: `bank${i}@list.example`,
        numberOfBranches: 1,
        swiftParticipant: false,
        swiftMembershipType: null,
      }, { createdAt: new Date(BASE + i * 60_000).toISOString() });
    }
    // Every third institution is active, every fifth (not already active) suspended.
    await tx.run(sql`UPDATE institutions SET status = 'active'
      WHERE CAST(substr(registration_number, 6) AS INTEGER) % 3 = 0`);
    await tx.run(sql`UPDATE institutions SET status = 'suspended'
      WHERE status = 'pending' AND CAST(substr(registration_number, 6) AS INTEGER) % 5 = 0`);
  });
}

async function page(req: ReturnType<TestApp["as"]>, query: string): Promise<{ items: Row[]; total: number }> {
  const res = await req("GET", `/api/institutions?${query}`);
  const items = await expectJson<Row[]>(res, 200);
  return { items, total: Number(res.headers.get("X-Total-Count")) };
}

Deno.test("sorting, filtering and paging 1,000 institutions", async () => {
  const t = await createTestApp();
  try {
    await seed(t);
    const req = t.as(await t.login());

    const byName = await page(req, "sort=name&order=asc&limit=100&offset=0");
    assert.equal(byName.total, ROWS);
    assert.deepEqual(byName.items.slice(0, 3).map((row) => row.name), [
      "Bank 0000",
      "Bank 0001",
      "Bank 0002",
    ]);
    const lastPage = await page(req, "sort=name&order=desc&limit=100&offset=900");
    assert.equal(lastPage.items.length, 100);
    assert.equal(lastPage.items.at(-1)!.name, "Bank 0000");

    // Paging with a sort: every row exactly once across the pages.
    const seen = new Set<string>();
    for (let offset = 0; offset < ROWS; offset += 250) {
      const chunk = await page(req, `sort=registrationNumber&order=desc&limit=250&offset=${offset}`);
      for (const row of chunk.items) seen.add(row.id);
      if (offset === 0) assert.equal(chunk.items[0].registrationNumber, "LIST-0999");
    }
    assert.equal(seen.size, ROWS);

    const active = await page(req, "status=active&limit=10");
    assert.equal(active.total, 334);
    assert.ok(active.items.every((row) => row.status === "active"));
    assert.equal(active.items[0].registrationNumber, "LIST-0999", "newest first without a sort");

    const suspended = await page(req, "status=suspended&limit=500");
    assert.equal(suspended.total, 133);
    const type = INSTITUTION_TYPES[0];
    const combined = await page(req, `status=suspended&type=${type}&sort=createdAt&order=asc&limit=500`);
    assert.ok(combined.items.every((row) => row.status === "suspended" && row.type === type));
    assert.equal(combined.total, suspended.items.filter((row) => row.type === type).length);
    const times = combined.items.map((row) => row.createdAt);
    assert.deepEqual(times, [...times].sort());

    // A search narrowed by a filter: only matches in that status.
    const searched = await page(req, "search=LIST-09&status=active&limit=100");
    assert.ok(searched.total > 0);
    assert.ok(
      searched.items.every((row) => row.status === "active" && row.registrationNumber.startsWith("LIST-09")),
    );
    assert.equal(searched.total, 34);

    const bad = await req("GET", "/api/institutions?sort=password&status=deleted");
    const error = await expectJson(bad, 400);
    assert.ok(error.fields.sort && error.fields.status, JSON.stringify(error));
  } finally {
    await t.close();
  }
});
