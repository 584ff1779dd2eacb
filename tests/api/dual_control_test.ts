/**
 * Dual control against administrators: separated roles, administration as requests once two
 * administrators exist, and decisions checked against the grant history (an alias made by the
 * requester is not a second person).
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { createStaff, firstSignIn, type Staff } from "../helpers/staff.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const REASON = { requestReason: "Staffing the registry desk" };

function institutionBody(serial: number) {
  return {
    name: `Alias Test Bank ${serial}`,
    type: "commercial",
    registrationNumber: `REG-DC-${serial}`,
    licenseNumber: `LIC-DC-${serial}`,
    address: "1 Harbor Plaza, Harbor City",
    phoneNumber: "+1 202 555 0100",
    emailAddress: `dc${serial}@registry.example`,
    numberOfBranches: 1,
    swiftParticipant: false,
  };
}

/** An institution status change is always a four-eyes request: the money-scope request these tests decide. */
async function fileStatusRequest(t: TestApp, operator: Staff, serial: number): Promise<string> {
  const created = await expectJson(
    await t.request("POST", "/api/institutions", { cookie: operator.cookie, body: institutionBody(serial) }),
    201,
  );
  const filed = await expectJson(
    await t.request("PATCH", `/api/institutions/${created.id}/status`, {
      cookie: operator.cookie,
      body: { status: "active", requestReason: "Licence granted" },
    }),
    202,
  );
  return filed.approvalRequest.id;
}

function decide(t: TestApp, cookie: string, id: string, decision: "approve" | "reject" = "approve") {
  return t.request("POST", `/api/approvals/${id}/${decision}`, { cookie, body: { reason: "Checked" } });
}

/** The second administrator of a fresh install, made by the first while it is alone. */
async function secondAdministrator(t: TestApp, admin: string): Promise<Staff> {
  return await createStaff(t, admin, "second.admin@centralbank.test", ["administrator"]);
}

Deno.test("a fresh install has one administrator holding administrator alone, and dual control is not in force", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const me = await expectJson(await t.request("GET", "/api/auth/user", { cookie: admin }), 200);
    assert.deepEqual(me.roles, ["administrator"]);
    const state = await expectJson(await t.request("GET", "/api/dual-control", { cookie: admin }), 200);
    assert.equal(state.inForce, false);
    assert.equal(state.activeAdministrators, 1);
    const operator = await createStaff(t, admin, "op@centralbank.test", ["operator"]);
    const [row] = await t.deps.db.read.all<{ changes: string }>(
      sql`SELECT changes FROM audit_trail WHERE entity_type = 'user' AND entity_id = ${operator.id} AND action = 'create'`,
    );
    const changes = typeof row.changes === "string" ? JSON.parse(row.changes) : row.changes;
    assert.equal(changes.after.grant.dualControl, "not in force: one administrator acted alone");
  } finally {
    await t.close();
  }
});

Deno.test("roles are separated: administrator with operator or approver, or auditor with anything, is a 409 naming roles", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    for (const roles of [["administrator", "operator"], ["administrator", "approver"], ["auditor", "operator"]]) {
      const refused = await expectJson(
        await t.request("POST", "/api/users", { cookie: admin, body: { email: `x${roles.length}@c.test`, roles } }),
        409,
      );
      assert.equal(refused.field, "roles");
    }
    const operator = await createStaff(t, admin, "op@centralbank.test", ["operator"]);
    const refused = await expectJson(
      await t.request("PATCH", `/api/users/${operator.id}`, { cookie: admin, body: { roles: ["operator", "auditor"] } }),
      409,
    );
    assert.equal(refused.field, "roles");
    // Operator and approver together stay allowed: nobody decides their own request anyway.
    await expectJson(
      await t.request("PATCH", `/api/users/${operator.id}`, { cookie: admin, body: { roles: ["operator", "approver"] } }),
      200,
    );
  } finally {
    await t.close();
  }
});

Deno.test("an approver made by one administrator alone decides nothing until a second administrator confirms it", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const operator = await createStaff(t, admin, "op@centralbank.test", ["operator"]);
    const approver = await createStaff(t, admin, "alias.approver@centralbank.test", ["approver"]);
    const request = await fileStatusRequest(t, operator, 1);
    const refused = await expectJson(await decide(t, approver.cookie, request), 403);
    assert.equal(refused.reason, "unconfirmed_grant");

    const second = await secondAdministrator(t, admin);
    const granterConfirms = await expectJson(
      await t.request("POST", `/api/users/${approver.id}/confirm-roles`, { cookie: admin }),
      409,
    );
    assert.match(granterConfirms.message, /You granted these roles/);
    const confirmed = await expectJson(
      await t.request("POST", `/api/users/${approver.id}/confirm-roles`, { cookie: second.cookie }),
      200,
    );
    assert.deepEqual(confirmed.unconfirmedRoles, []);
    const approved = await expectJson(await decide(t, approver.cookie, request), 200);
    assert.equal(approved.status, "approved");
  } finally {
    await t.close();
  }
});

Deno.test("with two administrators, a threshold change by one is a pending request, and the alias it made cannot approve it", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const second = await secondAdministrator(t, admin);
    const state = await expectJson(await t.request("GET", "/api/dual-control", { cookie: admin }), 200);
    assert.equal(state.inForce, true);

    // The first administrator makes an alias administrator; the second, not knowing, approves it.
    const aliasFiled = await expectJson(
      await t.request("POST", "/api/users", {
        cookie: admin,
        body: { email: "me2@centralbank.test", roles: ["administrator"], ...REASON },
      }),
      202,
    );
    assert.equal(aliasFiled.approvalRequest.kind, "user_create");
    const made = await expectJson(await decide(t, second.cookie, aliasFiled.approvalRequest.id), 200);
    assert.equal(typeof made.initialPassword, "string");
    const alias = await firstSignIn(t, made.resultEntityId, "me2@centralbank.test", made.initialPassword);

    const before = await expectJson(await t.request("GET", "/api/approval-settings", { cookie: admin }), 200);
    const filed = await expectJson(
      await t.request("PUT", "/api/approval-settings", {
        cookie: admin,
        body: { thresholds: { USD: "9999999999999.99" }, ...REASON },
      }),
      202,
    );
    const unchanged = await expectJson(await t.request("GET", "/api/approval-settings", { cookie: admin }), 200);
    assert.deepEqual(unchanged, before);

    const refused = await expectJson(await decide(t, alias.cookie, filed.approvalRequest.id), 403);
    assert.equal(refused.reason, "granted_by_requester");
    const own = await expectJson(await decide(t, admin, filed.approvalRequest.id), 403);
    assert.equal(own.reason, "own_request");
    await expectJson(await decide(t, second.cookie, filed.approvalRequest.id), 200);
    const after = await expectJson(await t.request("GET", "/api/approval-settings", { cookie: admin }), 200);
    assert.equal(after.thresholds.USD, "9999999999999.99");
  } finally {
    await t.close();
  }
});

Deno.test("administrators decide administration and approvers money, never the other way round", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const operator = await createStaff(t, admin, "op@centralbank.test", ["operator"]);
    const approver = await createStaff(t, admin, "approver@centralbank.test", ["approver"]);
    const second = await secondAdministrator(t, admin);
    await expectJson(await t.request("POST", `/api/users/${approver.id}/confirm-roles`, { cookie: second.cookie }), 200);

    const money = await fileStatusRequest(t, operator, 2);
    assert.equal((await expectJson(await decide(t, second.cookie, money), 403)).reason, "missing_role");
    const administration = await expectJson(
      await t.request("PUT", "/api/auth/sign-in-settings", { cookie: admin, body: { mfaRequired: false, ...REASON } }),
      202,
    );
    const refused = await expectJson(await decide(t, approver.cookie, administration.approvalRequest.id), 403);
    assert.equal(refused.reason, "missing_role");
    await expectJson(await decide(t, second.cookie, administration.approvalRequest.id), 200);
    const settings = await expectJson(await t.request("GET", "/api/auth/sign-in-settings", { cookie: admin }), 200);
    assert.equal(settings.mfaRequired, false);
  } finally {
    await t.close();
  }
});

Deno.test("under dual control, granting a role or re-enabling is a request; taking power away stays immediate", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const operator = await createStaff(t, admin, "op@centralbank.test", ["operator"]);
    const second = await secondAdministrator(t, admin);
    const grant = await expectJson(
      await t.request("PATCH", `/api/users/${operator.id}`, {
        cookie: admin,
        body: { roles: ["operator", "approver"], ...REASON },
      }),
      202,
    );
    assert.equal(grant.approvalRequest.kind, "user_update");
    const disabled = await expectJson(
      await t.request("PATCH", `/api/users/${operator.id}`, { cookie: admin, body: { disabled: true } }),
      200,
    );
    assert.equal(disabled.disabled, true);
    const reEnable = await expectJson(
      await t.request("PATCH", `/api/users/${operator.id}`, { cookie: admin, body: { disabled: false, ...REASON } }),
      202,
    );
    await expectJson(await decide(t, second.cookie, reEnable.approvalRequest.id), 200);
    const reset = await expectJson(
      await t.request("POST", `/api/users/${operator.id}/reset-password`, { cookie: admin, body: REASON }),
      202,
    );
    const handedOut = await expectJson(await decide(t, second.cookie, reset.approvalRequest.id), 200);
    assert.equal(typeof handedOut.initialPassword, "string");
  } finally {
    await t.close();
  }
});

Deno.test("dual control, once reached, stays in force when an administrator is disabled", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const second = await secondAdministrator(t, admin);
    await expectJson(
      await t.request("PATCH", `/api/users/${second.id}`, { cookie: admin, body: { disabled: true } }),
      200,
    );
    const state = await expectJson(await t.request("GET", "/api/dual-control", { cookie: admin }), 200);
    assert.equal(state.activeAdministrators, 1);
    assert.equal(state.inForce, true);
    await expectJson(
      await t.request("POST", "/api/users", {
        cookie: admin,
        body: { email: "late@centralbank.test", roles: ["approver"], ...REASON },
      }),
      202,
    );
    await expectJson(
      await t.request("PUT", "/api/approval-settings", { cookie: admin, body: { thresholds: { USD: "5.00" } } }),
      400,
    );
  } finally {
    await t.close();
  }
});

Deno.test("an account whose roles conflict from before the rule is flagged and can neither request nor approve", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const me = await expectJson(await t.request("GET", "/api/auth/user", { cookie: admin }), 200);
    // As an older release left it: the first administrator also operates.
    await t.deps.db.writeBatch([{ sql: "INSERT INTO user_roles (user_id, role) VALUES (?, 'operator')", args: [me.id] }]);
    const users = await expectJson(await t.request("GET", "/api/users", { cookie: admin }), 200);
    const flagged = users.find((user: { id: string }) => user.id === me.id);
    assert.match(flagged.roleConflict, /administrator cannot also be an operator/);
    const state = await expectJson(await t.request("GET", "/api/dual-control", { cookie: admin }), 200);
    assert.equal(state.roleConflicts.length, 1);
    const refused = await expectJson(
      await t.request("POST", "/api/institutions", { cookie: admin, body: institutionBody(3) }),
      403,
    );
    assert.equal(refused.reason, "role_conflict");
    await expectJson(
      await t.request("PATCH", `/api/users/${me.id}`, { cookie: admin, body: { roles: ["administrator"] } }),
      200,
    );
    const resolved = await expectJson(await t.request("GET", "/api/dual-control", { cookie: admin }), 200);
    assert.deepEqual(resolved.roleConflicts, []);
  } finally {
    await t.close();
  }
});
