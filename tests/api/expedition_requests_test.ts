import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { seededStaff } from "../helpers/staff.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

async function withApp(fn: (t: TestApp) => Promise<void>) {
  const t = await createTestApp();
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

const SWIFT_REQUEST = {
  partner: "swift",
  method: "priority-review",
  justification: "Settlement go-live depends on it",
};

async function auditRows(t: TestApp, id: string) {
  return await t.deps.db.read.all<{ action: string; changes: string; performedBy: string }>(sql`SELECT action,
    changes, performed_by AS performedBy FROM audit_trail
    WHERE entity_type = 'expedition_request' AND entity_id = ${id} ORDER BY seq`);
}

Deno.test("POST /api/expedition-requests records the request with its requester, lists it newest first and audits it", async () => {
  await withApp(async (t) => {
    const operator = await seededStaff(t, "operator@centralbank.test", ["operator"]);
    const req = t.as(operator.cookie);
    const first = await expectJson(
      await req("POST", "/api/expedition-requests", { body: SWIFT_REQUEST }),
      201,
    );
    assert.equal(first.partner, "swift");
    assert.equal(first.method, "priority-review");
    assert.equal(first.justification, "Settlement go-live depends on it");
    assert.equal(first.status, "open");
    assert.deepEqual(first.requestedBy, { id: operator.id, name: "operator@centralbank.test" });
    assert.ok(Math.abs(Date.parse(first.requestedAt) - Date.now()) < 60_000);
    assert.equal(first.statusChangedBy, null);
    const second = await expectJson(
      await req("POST", "/api/expedition-requests", {
        body: { partner: "visa", method: "urgent", justification: "  Card scheme launch  " },
      }),
      201,
    );
    assert.equal(second.justification, "Card scheme launch", "trimmed");
    const list = await expectJson(await req("GET", "/api/expedition-requests"), 200);
    assert.deepEqual(list.map((r: { id: string }) => r.id), [second.id, first.id]);
    const [created] = await auditRows(t, first.id);
    assert.equal(created.action, "create");
    assert.equal(created.performedBy, operator.id);
    assert.equal(JSON.parse(created.changes).after.justification, "Settlement go-live depends on it");
  });
});

Deno.test("POST /api/expedition-requests answers 400 with a message per field and records nothing", async () => {
  await withApp(async (t) => {
    const req = t.as(await t.login());
    const empty = await expectJson(await req("POST", "/api/expedition-requests", { body: {} }), 400);
    assert.deepEqual(Object.keys(empty.fields).sort(), ["justification", "method", "partner"]);
    assert.equal(empty.fields.partner, "Required");
    const blank = await expectJson(
      await req("POST", "/api/expedition-requests", { body: { ...SWIFT_REQUEST, justification: "   " } }),
      400,
    );
    assert.deepEqual(Object.keys(blank.fields), ["justification"]);
    const tooLong = await expectJson(
      await req("POST", "/api/expedition-requests", {
        body: { ...SWIFT_REQUEST, justification: "x".repeat(2001) },
      }),
      400,
    );
    assert.deepEqual(Object.keys(tooLong.fields), ["justification"]);
    const wrongMethod = await expectJson(
      await req("POST", "/api/expedition-requests", { body: { ...SWIFT_REQUEST, method: "urgent" } }),
      400,
    );
    assert.deepEqual(wrongMethod.fields, { method: "Not one of the choices offered for SWIFT" });
    const wrongPartner = await expectJson(
      await req("POST", "/api/expedition-requests", { body: { ...SWIFT_REQUEST, partner: "mastercard" } }),
      400,
    );
    assert.deepEqual(Object.keys(wrongPartner.fields), ["partner"]);
    assert.deepEqual(await expectJson(await req("GET", "/api/expedition-requests"), 200), []);
  });
});

Deno.test("PATCH /api/expedition-requests/:id moves open → in progress → done, audits each move, refuses the rest with 409", async () => {
  await withApp(async (t) => {
    const operator = await seededStaff(t, "operator@centralbank.test", ["operator"]);
    const adminCookie = await t.login();
    const created = await expectJson(
      await t.as(operator.cookie)("POST", "/api/expedition-requests", { body: SWIFT_REQUEST }),
      201,
    );
    const path = `/api/expedition-requests/${created.id}`;
    const admin = t.as(adminCookie);
    const early = await expectJson(await admin("PATCH", path, { body: { status: "done" } }), 409);
    assert.deepEqual(early.fields, { status: "A request that is Open cannot become Done" });
    const started = await expectJson(
      await admin("PATCH", path, { body: { status: "in_progress", note: "Case opened with SWIFT" } }),
      200,
    );
    assert.equal(started.status, "in_progress");
    assert.equal(started.statusNote, "Case opened with SWIFT");
    assert.equal(started.statusChangedBy.name, "admin@centralbank.test");
    const done = await expectJson(
      await t.as(operator.cookie)("PATCH", path, { body: { status: "done" } }),
      200,
    );
    assert.equal(done.status, "done");
    assert.equal(done.statusNote, null);
    const reopened = await expectJson(await admin("PATCH", path, { body: { status: "cancelled" } }), 409);
    assert.equal(reopened.fields.status, "A request that is Done cannot become Cancelled");
    const rows = await auditRows(t, created.id);
    assert.deepEqual(rows.map((row) => [row.action, JSON.parse(row.changes).after.status ?? null]), [
      ["create", "open"],
      ["status_change", "in_progress"],
      ["status_change", "done"],
    ]);
    assert.deepEqual(JSON.parse(rows[1].changes).before, { status: "open" });
    const bad = await expectJson(await admin("PATCH", path, { body: { status: "closed" } }), 400);
    assert.deepEqual(Object.keys(bad.fields), ["status"]);
    await expectJson(
      await admin("PATCH", "/api/expedition-requests/no-such-id", { body: { status: "done" } }),
      404,
    );
  });
});

Deno.test("expedition requests: operators and administrators file and update; auditors and approvers only read", async () => {
  await withApp(async (t) => {
    const adminCookie = await t.login();
    const auditor = await seededStaff(t, "auditor@centralbank.test", ["auditor"]);
    const approver = await seededStaff(t, "approver@centralbank.test", ["approver"]);
    const filed = await expectJson(
      await t.as(adminCookie)("POST", "/api/expedition-requests", {
        body: { partner: "executive", method: "sovereign-priority", justification: "Stalled for a quarter" },
      }),
      201,
    );
    for (const reader of [auditor, approver]) {
      const req = t.as(reader.cookie);
      const list = await expectJson(await req("GET", "/api/expedition-requests"), 200);
      assert.deepEqual(list.map((r: { id: string }) => r.id), [filed.id]);
      const refused = await expectJson(
        await req("POST", "/api/expedition-requests", { body: SWIFT_REQUEST }),
        403,
      );
      assert.equal(refused.message, "Only operators or administrators can file expedition requests");
      const moved = await expectJson(
        await req("PATCH", `/api/expedition-requests/${filed.id}`, { body: { status: "cancelled" } }),
        403,
      );
      assert.equal(moved.message, "Only operators or administrators can update expedition requests");
    }
    await expectJson(await t.request("GET", "/api/expedition-requests"), 401);
    const [row] = await expectJson(await t.as(auditor.cookie)("GET", "/api/expedition-requests"), 200);
    assert.equal(row.status, "open", "refused changes changed nothing");
  });
});
