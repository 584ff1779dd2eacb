/**
 * Issue 24: a cached match count is brought up to date from the search journal (migration 1251)
 * instead of counted again, and stays exactly what counting the index gives.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { SYSTEM_USER_ID } from "../../db/schema.ts";
import { openDatabase } from "../../src/server/db/database.ts";
import {
  countChange,
  createCountCache,
  ftsPhrase,
  insertInstitution,
  listInstitutions,
  MAX_COUNT_CATCH_UP_CHANGES,
  wordPrefixQuery,
} from "../../src/server/features/institutions/service.ts";
import { createTestApp, type TestApp } from "../helpers/test_app.ts";

const ACTOR = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null };

async function register(t: TestApp, n: number, name: string, email = `desk${n}@harbor.example`) {
  await t.deps.db.transaction(async (tx) => {
    await insertInstitution(tx, ACTOR, {
      name,
      type: "commercial",
      registrationNumber: `CATCH-${n}`,
      licenseNumber: n % 2 === 0 ? null : `LIC-${n}`,
      address: "1 Main Street",
      phoneNumber: "+1 202 555 0100",
      emailAddress: email,
      numberOfBranches: 1,
      swiftParticipant: false,
      swiftMembershipType: null,
    });
  });
}

const write = (t: TestApp, statement: ReturnType<typeof sql>) =>
  t.deps.db.transaction(async (tx) => void await tx.run(statement));

async function version(t: TestApp): Promise<number> {
  const [{ version }] = await t.deps.db.read.all<{ version: number }>(
    sql`SELECT version FROM institutions_search_version WHERE id = 1`,
  );
  return version;
}

async function indexCount(t: TestApp, index: "institutions_fts" | "institutions_prefix_fts", match: string) {
  const table = sql.raw(index);
  const [{ total }] = await t.deps.db.read.all<{ total: number }>(
    sql`SELECT count(*) AS total FROM ${table} WHERE ${table} MATCH ${match}`,
  );
  return total;
}

Deno.test("countChange() gives exactly the change in a count over registrations, edits (into and out of a match, accents) and deletions", async () => {
  const t = await createTestApp();
  try {
    for (let n = 0; n < 6; n++) await register(t, n, `Harbor Crédit Bank ${n}`);
    const queries = [
      ["institutions_fts", ftsPhrase("credit")],
      ["institutions_fts", ftsPhrase("harbor.example")],
      ["institutions_fts", ftsPhrase("CATCH-1")],
      ["institutions_prefix_fts", wordPrefixQuery("cr")],
      ["institutions_prefix_fts", wordPrefixQuery("h")],
    ] as const;
    const from = await version(t);
    const before = await Promise.all(queries.map(([index, match]) => indexCount(t, index, match)));

    await register(t, 10, "Crèdit Harbour Union");
    await write(
      t,
      sql`UPDATE institutions SET name = 'Meridian Bank 0' WHERE registration_number = 'CATCH-0'`,
    );
    await write(
      t,
      sql`UPDATE institutions SET name = 'Harbor Credit Bank 0' WHERE registration_number = 'CATCH-0'`,
    );
    await write(
      t,
      sql`UPDATE institutions SET email_address = 'ops@meridian.example', name = 'Meridian 2'
      WHERE registration_number = 'CATCH-2'`,
    );
    await write(
      t,
      sql`UPDATE institutions SET license_number = 'CATCH-1-LICENCE' WHERE registration_number = 'CATCH-3'`,
    );
    await write(t, sql`UPDATE institutions SET phone_number = '+1 202 555 0199'`);
    await write(t, sql`DELETE FROM institutions WHERE registration_number IN ('CATCH-4', 'CATCH-10')`);
    const to = await version(t);
    assert.ok(to - from >= 7, "every searched change is a version");

    for (const [k, [index, match]] of queries.entries()) {
      const change = await countChange(t.deps.db.read, index, match, from, to);
      assert.equal(before[k] + change!, await indexCount(t, index, match), `${index} ${match}`);
    }
    assert.equal(
      await countChange(
        t.deps.db.read,
        "institutions_fts",
        ftsPhrase("credit"),
        from - 1 - MAX_COUNT_CATCH_UP_CHANGES,
        to,
      ),
      null,
      "too many changes (and past the journal): count again",
    );
  } finally {
    await t.close();
  }
});

Deno.test("a journal row from before migration 1251 has no previous text: the count is taken again", async () => {
  const t = await createTestApp();
  try {
    await register(t, 0, "Harbor Bank 0");
    const from = await version(t);
    await write(t, sql`UPDATE institutions SET name = 'Harbor Bank Zero'`);
    const to = await version(t);
    await write(t, sql`UPDATE institution_search_changes SET previous_known = 0 WHERE version = ${to}`);
    assert.equal(await countChange(t.deps.db.read, "institutions_fts", ftsPhrase("harbor"), from, to), null);
  } finally {
    await t.close();
  }
});

Deno.test("X-Total-Count stays exact while cached counts catch up, including changes made by another process", async () => {
  const t = await createTestApp();
  try {
    for (let n = 0; n < 5; n++) await register(t, n, `Harbor Bank ${n}`, `desk${n}@bank.example`);
    const counts = createCountCache();
    const total = async (search: string) =>
      (await listInstitutions(t.deps.db.read, { search, limit: 1, offset: 0 }, counts)).total;
    const check = async () => {
      assert.equal(await total("harbor"), await indexCount(t, "institutions_fts", ftsPhrase("harbor")));
      assert.equal(await total("ba"), await indexCount(t, "institutions_prefix_fts", wordPrefixQuery("ba")));
    };
    await check();
    await register(t, 5, "Harbor Savings 5", "desk5@bank.example");
    await check();
    const other = await openDatabase(t.deps.db.url);
    try {
      await other.transaction(async (tx) => {
        await tx.run(
          sql`UPDATE institutions SET name = 'Meridian Savings' WHERE registration_number = 'CATCH-1'`,
        );
        await tx.run(sql`DELETE FROM institutions WHERE registration_number = 'CATCH-2'`);
      });
    } finally {
      other.close();
    }
    await check();
    assert.equal(await total("harbor"), 4);
    await write(t, sql`UPDATE institutions SET name = 'Harbor Bank 1' WHERE registration_number = 'CATCH-1'`);
    await check();
    assert.equal(await total("harbor"), 5);
  } finally {
    await t.close();
  }
});

Deno.test("a cached count is caught up, not counted again, after a change", async () => {
  const t = await createTestApp();
  try {
    for (let n = 0; n < 3; n++) await register(t, n, `Harbor Bank ${n}`, `desk${n}@bank.example`);
    const counts = createCountCache();
    const match = ftsPhrase("harbor");
    let computed = 0;
    const get = () =>
      counts.get(t.deps.db.read, "harbor", () => {
        computed += 1;
        return indexCount(t, "institutions_fts", match);
      }, (from, to) => countChange(t.deps.db.read, "institutions_fts", match, from, to));
    assert.equal(await get(), 3);
    await register(t, 3, "Harbor Bank 3", "desk3@bank.example");
    await write(t, sql`UPDATE institutions SET name = 'Meridian' WHERE registration_number = 'CATCH-0'`);
    assert.equal(await get(), 3);
    await write(t, sql`DELETE FROM institutions WHERE registration_number = 'CATCH-1'`);
    assert.equal(await get(), 2);
    assert.equal(computed, 1, "counted once, then caught up");
  } finally {
    await t.close();
  }
});
