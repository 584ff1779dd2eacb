/**
 * Every registry row has a version (registry_history/initial_versions.ts): a row written in plain SQL,
 * as a seeder or bulk loader writes it, gets its first version at the next start; a start looks only
 * at the rows inserted since the previous one (registry_unversioned, migration 1520).
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { SYSTEM_USER_ID } from "../../db/schema.ts";
import { recordMissingInitialVersions } from "../../src/server/registry_history/initial_versions.ts";
import { REGISTRY_TABLES, versionsOf } from "../../src/server/registry_history/versions.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const REGISTERED_AT = "2024-05-01T09:00:00.000Z";

async function insertPlainRow(t: TestApp, id: string, registrationNumber: string): Promise<void> {
  await t.deps.db.transaction((tx) =>
    tx.run(
      sql`INSERT INTO institutions (id, name, type, registration_number, address, phone_number, email_address,
      number_of_branches, swift_participant, status, created_at, updated_at, created_by)
      VALUES (${id}, 'Plain Row Bank', 'commercial', ${registrationNumber}, '1 Seed Street', '+1 202 555 0102',
        'desk@plainrow.example', 2, 0, 'active', ${REGISTERED_AT}, ${REGISTERED_AT}, ${SYSTEM_USER_ID})`,
    )
  );
}

async function queued(t: TestApp): Promise<number> {
  const row = await t.deps.db.read.get<{ n: number }>(sql`SELECT count(*) AS n FROM registry_unversioned`);
  return row.n;
}

Deno.test("initial versions: a row written without a version gets its first one at the next start, once", async () => {
  const owner = await createTestApp();
  try {
    const id = crypto.randomUUID();
    await insertPlainRow(owner, id, "PLAIN-1");
    assert.equal(await queued(owner), 1, "the insert is queued by its trigger");
    assert.equal((await versionsOf(owner.deps.db.read, "institution", id)).length, 0);

    // A second process starting on the same database: the start records the missing version.
    const restarted = await createTestApp({}, { dataDir: owner.dataDir });
    try {
      const versions = await versionsOf(restarted.deps.db.read, "institution", id);
      assert.equal(versions.length, 1);
      assert.equal(versions[0].validFrom, REGISTERED_AT, "in force from the row's registration");
      assert.equal(versions[0].summary, "Registered");
      assert.equal(versions[0].appliedAt, REGISTERED_AT);
      const data = versions[0].data as Record<string, unknown>;
      assert.equal(data.name, "Plain Row Bank");
      assert.equal(data.registrationNumber, "PLAIN-1");
      assert.equal(data.swiftParticipant, false, "a boolean column stays a boolean in the version");
      assert.equal(await queued(restarted), 0, "the start empties the queue");
      assert.equal(await recordMissingInitialVersions(restarted.deps.db), 0, "nothing twice");
      assert.equal((await versionsOf(restarted.deps.db.read, "institution", id)).length, 1);
    } finally {
      await restarted.close();
    }
  } finally {
    await owner.close();
  }
});

Deno.test("initial versions: a registration through the API keeps its own version and is not versioned again", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const created = await expectJson(
      await req("POST", "/api/institutions", {
        body: {
          name: "Queued Bank",
          type: "commercial",
          registrationNumber: "QUEUE-1",
          address: "2 Queue Street",
          phoneNumber: "+1 202 555 0103",
          emailAddress: "desk@queued.example",
        },
      }),
      201,
    );
    const plain = crypto.randomUUID();
    await insertPlainRow(t, plain, "PLAIN-2");
    assert.equal(await recordMissingInitialVersions(t.deps.db), 1, "only the plain row lacked a version");
    assert.equal((await versionsOf(t.deps.db.read, "institution", created.id)).length, 1);
    assert.equal((await versionsOf(t.deps.db.read, "institution", plain)).length, 1);
    assert.equal(await queued(t), 0);
  } finally {
    await t.close();
  }
});

Deno.test("initial versions: every registry table queues its inserts (a table rebuilt by a later migration must keep its trigger)", async () => {
  const t = await createTestApp();
  try {
    for (const table of Object.values(REGISTRY_TABLES)) {
      const name = getTableConfig(table).name;
      const triggers = await t.deps.db.read.all<{ sql: string }>(
        sql`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ${name}`,
      );
      assert.ok(
        triggers.some((trigger) =>
          /AFTER INSERT/i.test(trigger.sql) && trigger.sql.includes("registry_unversioned")
        ),
        `${name} has no trigger queueing its inserts in registry_unversioned`,
      );
    }
  } finally {
    await t.close();
  }
});
