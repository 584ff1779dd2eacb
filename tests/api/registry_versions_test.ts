/** The registry's versions (src/server/registry_history): recording, folding, as-of reads and the scheduler. */
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { institutions } from "../../db/schema.ts";
import { applyDueVersions } from "../../src/server/registry_history/scheduler.ts";
import { recordVersion, versionAsOf, versionsOf } from "../../src/server/registry_history/versions.ts";
import { createTestApp, expectJson } from "../helpers/test_app.ts";

const BANK = {
  type: "commercial",
  address: "1 Version Street",
  phoneNumber: "+1 202 555 0101",
  emailAddress: "ops@versions.example",
  name: "Versioned Bank",
  registrationNumber: "VERS-1",
};

Deno.test("versions: a registration has its first version; a scheduled change waits, folds and takes effect once", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const created = await expectJson(await req("POST", "/api/institutions", { body: BANK }), 201);
    const db = t.deps.db;
    const now = Date.now();
    const first = await versionsOf(db.read, "institution", created.id);
    assert.equal(first.length, 1, "the registration is a version (recorded at start or at creation)");

    const inOneHour = new Date(now + 3_600_000).toISOString();
    const inTwoHours = new Date(now + 7_200_000).toISOString();
    await db.transaction((tx) =>
      recordVersion(tx, {
        entityType: "institution",
        entityId: created.id,
        validFrom: inTwoHours,
        changes: { address: "2 Later Street" },
        summary: "address → 2 Later Street",
        requestedBy: null,
        approvedBy: null,
      }, now)
    );
    await db.transaction((tx) =>
      recordVersion(tx, {
        entityType: "institution",
        entityId: created.id,
        validFrom: inOneHour,
        changes: { name: "Renamed Bank" },
        summary: "name → Renamed Bank",
        requestedBy: null,
        approvedBy: null,
      }, now)
    );
    const current = await db.read.select().from(institutions).where(eq(institutions.id, created.id)).get();
    assert.equal(current!.name, "Versioned Bank", "nothing changes before its time");
    const later = await versionAsOf(db.read, "institution", created.id, inTwoHours);
    assert.equal((later!.data as { name: string }).name, "Renamed Bank", "the earlier-dated change folds into the later one");
    assert.equal((later!.data as { address: string }).address, "2 Later Street");
    const atOne = await versionAsOf(db.read, "institution", created.id, inOneHour);
    assert.equal(atOne!.validTo, inTwoHours);

    assert.equal(await applyDueVersions(db, now + 3_600_000), 1);
    assert.equal(await applyDueVersions(db, now + 3_600_000), 0, "once");
    const renamed = await db.read.select().from(institutions).where(eq(institutions.id, created.id)).get();
    assert.equal(renamed!.name, "Renamed Bank");
    assert.equal(renamed!.address, "1 Version Street");
    assert.equal(await applyDueVersions(db, now + 7_200_000), 1);
    const moved = await db.read.select().from(institutions).where(eq(institutions.id, created.id)).get();
    assert.equal(moved!.address, "2 Later Street");

    // The owners' projection (migration 1550) follows every insert, end of range and fold.
    const projection = await db.statements.all<{ validFrom: string; validTo: string | null; name: string }>(
      `SELECT n.valid_from AS validFrom, n.valid_to AS validTo, n.name FROM registry_institution_names n
        JOIN registry_versions v ON v.seq = n.seq
        WHERE n.entity_id = ? AND n.valid_from = v.valid_from AND n.valid_to IS v.valid_to
          AND n.registration_number = json_extract(v.data, '$.registrationNumber')
          AND n.name = json_extract(v.data, '$.name')
        ORDER BY n.valid_from`,
      [created.id],
    );
    assert.deepEqual(projection.map((row) => [row.validTo, row.name]), [
      [inOneHour, "Versioned Bank"],
      [inTwoHours, "Renamed Bank"],
      [null, "Renamed Bank"],
    ]);
  } finally {
    await t.close();
  }
});
