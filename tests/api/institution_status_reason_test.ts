/**
 * Issue 23: a status change carries its reason into the audit row. Since issue 20 the change is a
 * four-eyes request; the reason travels in the request and reaches the audit row at approval.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { MAX_STATUS_CHANGE_REASON_LENGTH } from "../../src/domain/institution.ts";
import { approvePending, seededStaff } from "../helpers/staff.ts";
import { createTestApp, expectJson } from "../helpers/test_app.ts";
import { createAccount } from "./ledger_helpers.ts";

/** A savings bank's registration, beside its name and registration number. */
const SAVINGS_BANK = {
  type: "savings",
  address: "3 Audit Lane",
  phoneNumber: "+1 202 555 0110",
  emailAddress: "ops@reasoned.example",
};

Deno.test("PATCH /api/institutions/:id/status records the reason in the audit row; an overlong reason is a 400", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const created = await expectJson(
      await req("POST", "/api/institutions", {
        body: { ...SAVINGS_BANK, name: "Reasoned Savings Bank", registrationNumber: "REASON-1" },
      }),
      201,
    );
    const path = `/api/institutions/${created.id}/status`;
    const long = "x".repeat(MAX_STATUS_CHANGE_REASON_LENGTH + 1);
    const tooLong = await expectJson(
      await req("PATCH", path, { body: { status: "active", reason: long } }),
      400,
    );
    assert.ok(tooLong.fields.reason);

    const approver = await seededStaff(t, "approver@centralbank.test", ["approver"]);
    const requested = await req("PATCH", path, { body: { status: "active", reason: "  Licence verified  " } });
    const pending = await requested.clone().json();
    // The reason is the request's reason too, and shows in the queue's summary.
    assert.equal(pending.approvalRequest.requestReason, "Licence verified");
    assert.equal(pending.approvalRequest.summary.institution.reason, "Licence verified");
    await approvePending(t, approver.cookie, requested);
    // The reason stays optional for API clients that give the request's reason instead.
    await approvePending(
      t,
      approver.cookie,
      await req("PATCH", path, { body: { status: "suspended", requestReason: "Supervisory decision" } }),
    );
    const rows = await t.deps.db.read.all<{ changes: string }>(
      sql`SELECT changes FROM audit_trail WHERE entity_id = ${created.id} AND action = 'status_change' ORDER BY seq`,
    );
    const changes = rows.map((row) => JSON.parse(row.changes));
    assert.deepEqual(changes[0], {
      before: { status: "pending" },
      after: { status: "active" },
      reason: "Licence verified",
    });
    assert.equal(changes[1].reason, undefined);
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/institutions/:id/overview: details, status history with reasons, codes, accounts, audit events", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const created = await expectJson(
      await req("POST", "/api/institutions", {
        body: {
          name: "Overview Commercial Bank",
          type: "commercial",
          registrationNumber: "OVERVIEW-1",
          address: "4 Page Street",
          phoneNumber: "+1 202 555 0120",
          emailAddress: "ops@overview.example",
        },
      }),
      201,
    );
    const approver = await seededStaff(t, "approver@centralbank.test", ["approver"]);
    await approvePending(
      t,
      approver.cookie,
      await req("PATCH", `/api/institutions/${created.id}/status`, { body: { status: "active", reason: "Checked" } }),
    );
    const code = await expectJson(
      await req("POST", "/api/routing-codes", {
        body: { institutionId: created.id, prefix: "OVW", branchCode: "001", description: "Head office" },
      }),
      201,
    );
    const account = await createAccount(req, {
      accountNumber: "OVW-LDG-001",
      accountType: "ledger",
      accountName: "Overview settlement",
      currency: "USD",
      currentBalance: "1250.00",
      institutionId: created.id,
    });

    const overview = await expectJson(await req("GET", `/api/institutions/${created.id}/overview`), 200);
    assert.equal(overview.institution.name, "Overview Commercial Bank");
    assert.equal(overview.institution.status, "active");
    assert.deepEqual(
      overview.statusHistory.map((entry: { from: string | null; to: string; reason: string | null }) => [
        entry.from,
        entry.to,
        entry.reason,
      ]),
      [["pending", "active", "Checked"], [null, "pending", null]],
    );
    assert.deepEqual(overview.routingCodes.map((c: { code: string }) => c.code), [code.code]);
    assert.deepEqual(overview.bicCodes, []);
    assert.equal(overview.nationalRegistryEntry, null);
    assert.deepEqual(
      overview.accounts.map((a: { id: string; currentBalance: string }) => [a.id, a.currentBalance]),
      [[account.id, "1250.00"]],
    );
    assert.deepEqual(overview.recentAuditEvents.map((e: { action: string }) => e.action), [
      "status_change",
      "create",
    ]);

    await expectJson(await req("GET", `/api/institutions/${crypto.randomUUID()}/overview`), 404);
  } finally {
    await t.close();
  }
});

Deno.test("the status history credits the requester's reason to the requester and the decision to the approver", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const created = await expectJson(
      await req("POST", "/api/institutions", {
        body: { ...SAVINGS_BANK, name: "Attribution Savings Bank", registrationNumber: "ATTRIB-1" },
      }),
      201,
    );
    const filed = await expectJson(
      await req("PATCH", `/api/institutions/${created.id}/status`, {
        body: { status: "active", reason: "Licence granted by the board on 3 March" },
      }),
      202,
    );
    const approver = await seededStaff(t, "attribution-approver@centralbank.test", ["approver"]);
    await t.deps.db.transaction((tx) =>
      tx.run(sql`UPDATE users SET first_name = 'Ada', last_name = 'Approver' WHERE id = ${approver.id}`)
    );
    await expectJson(
      await t.request("POST", `/api/approvals/${filed.approvalRequest.id}/approve`, {
        cookie: approver.cookie,
        body: { reason: "Licence verified against the register" },
      }),
      200,
    );
    const overview = await expectJson(await req("GET", `/api/institutions/${created.id}/overview`), 200);
    const [change] = overview.statusHistory;
    assert.equal(change.by, "Ada Approver");
    assert.equal(change.decisionReason, "Licence verified against the register");
    assert.equal(change.request.by, filed.approvalRequest.requestedByName);
    assert.notEqual(change.request.by, change.by);
    assert.equal(change.request.reason, "Licence granted by the board on 3 March");
    assert.equal(change.request.at, filed.approvalRequest.requestedAt);
  } finally {
    await t.close();
  }
});
