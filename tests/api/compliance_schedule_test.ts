import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { listFilings } from "../../src/server/features/reports/compliance_schedule.ts";
import { seededStaff } from "../helpers/staff.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const PATH = "/api/reports/compliance-schedule";
const MS_PER_DAY = 86_400_000;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * MS_PER_DAY).toISOString().slice(0, 10);

async function withApp(fn: (t: TestApp, admin: string) => Promise<void>) {
  const t = await createTestApp();
  try {
    await fn(t, await t.login());
  } finally {
    await t.close();
  }
}

async function generate(t: TestApp, cookie: string, type: string) {
  const res = await t.as(cookie)("POST", "/api/reports", {
    body: { type, from: day(-30), to: day(0), format: "csv" },
  });
  assert.equal(res.status, 200, await res.clone().text());
  await res.arrayBuffer();
}

async function auditRows(t: TestApp, id: string) {
  return await t.deps.db.read.all<{ action: string; changes: string }>(sql`SELECT action, changes FROM audit_trail
    WHERE entity_type = 'compliance_filing' AND entity_id = ${id} ORDER BY seq`);
}

Deno.test("compliance schedule: a filing is Due until its date, Overdue after, and Complete only once its report was generated", async () => {
  await withApp(async (t, admin) => {
    const req = t.as(admin);
    assert.deepEqual(await expectJson(await req("GET", PATH), 200), [], "nothing scheduled, nothing claimed");
    const due = await expectJson(
      await req("POST", PATH, {
        body: { name: "Quarterly Institutions Return", reportType: "institutions", opensOn: day(0), dueDate: day(5) },
      }),
      201,
    );
    assert.deepEqual([due.state, due.label, due.fulfilledBy], ["due", `Due ${day(5)}`, null]);
    const overdue = await expectJson(
      await req("POST", PATH, {
        body: { name: "Routing Code Census", reportType: "routing-codes", opensOn: day(-10), dueDate: day(-1) },
      }),
      201,
    );
    assert.deepEqual([overdue.state, overdue.label], ["overdue", "Overdue"]);

    // A report of another type completes nothing; one of the filing's type does, naming who generated it.
    const operator = await seededStaff(t, "operator@centralbank.test", ["operator"]);
    await generate(t, operator.cookie, "swift-activity");
    assert.deepEqual((await expectJson(await req("GET", PATH), 200)).map((f: { state: string }) => f.state), [
      "overdue",
      "due",
    ]);
    await generate(t, operator.cookie, "institutions");
    const [stillOverdue, complete] = await expectJson(await req("GET", PATH), 200);
    assert.equal(stillOverdue.state, "overdue");
    assert.equal(complete.state, "complete");
    assert.equal(complete.label, `Complete (generated ${day(0)} by operator@centralbank.test)`);
    assert.equal(complete.fulfilledBy.generatedBy, "operator@centralbank.test");

    // A report generated before a filing opened does not complete it.
    const later = await expectJson(
      await req("POST", PATH, {
        body: { name: "Next Institutions Return", reportType: "institutions", opensOn: day(1), dueDate: day(40) },
      }),
      201,
    );
    assert.equal(later.state, "due");
    const inFiftyDays = await listFilings(t.deps.db.read, new Date(Date.now() + 50 * MS_PER_DAY));
    assert.equal(inFiftyDays.find((f) => f.id === later.id)?.state, "overdue");
  });
});

Deno.test("compliance schedule: administrators change and remove filings, each change audited; 400 per field, 404, 403", async () => {
  await withApp(async (t, admin) => {
    const req = t.as(admin);
    const created = await expectJson(
      await req("POST", PATH, {
        body: { name: "Annual AML/CFT Report", reportType: "audit-trail", opensOn: day(0), dueDate: day(30) },
      }),
      201,
    );
    const moved = await expectJson(await req("PATCH", `${PATH}/${created.id}`, { body: { dueDate: day(60) } }), 200);
    assert.deepEqual([moved.dueDate, moved.label, moved.name], [day(60), `Due ${day(60)}`, "Annual AML/CFT Report"]);
    const reversed = await expectJson(
      await req("PATCH", `${PATH}/${created.id}`, { body: { dueDate: day(-1) } }),
      400,
    );
    assert.deepEqual(reversed.fields, { dueDate: "Must not be before the day the filing opens" });
    const empty = await expectJson(await req("POST", PATH, { body: {} }), 400);
    assert.deepEqual(Object.keys(empty.fields).sort(), ["dueDate", "name", "opensOn", "reportType"]);
    const badDate = await expectJson(
      await req("POST", PATH, {
        body: { name: "X", reportType: "institutions", opensOn: day(0), dueDate: "2026-02-30" },
      }),
      400,
    );
    assert.deepEqual(badDate.fields, { dueDate: "Must be a date like 2026-12-31" });
    const badType = await expectJson(
      await req("POST", PATH, { body: { name: "X", reportType: "gossip", opensOn: day(0), dueDate: day(1) } }),
      400,
    );
    assert.deepEqual(Object.keys(badType.fields), ["reportType"]);
    await expectJson(await req("PATCH", `${PATH}/${created.id}`, { body: {} }), 400);

    const operator = await seededStaff(t, "operator@centralbank.test", ["operator"]);
    const refused = await expectJson(
      await t.as(operator.cookie)("PATCH", `${PATH}/${created.id}`, { body: { dueDate: day(2) } }),
      403,
    );
    assert.equal(refused.message, "Only administrators can change the compliance schedule");
    assert.equal((await expectJson(await t.as(operator.cookie)("GET", PATH), 200)).length, 1, "everyone reads it");

    await expectJson(await req("DELETE", `${PATH}/${created.id}`), 204);
    await expectJson(await req("DELETE", `${PATH}/${created.id}`), 404);
    assert.deepEqual(await expectJson(await req("GET", PATH), 200), []);
    const rows = await auditRows(t, created.id);
    assert.deepEqual(rows.map((row) => row.action), ["create", "update", "delete"]);
    const update = JSON.parse(rows[1].changes);
    assert.deepEqual([update.before.dueDate, update.after.dueDate], [day(30), day(60)]);
  });
});
