import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { createStaff, STAFF_PASSWORD } from "../helpers/staff.ts";
import { createTestApp, expectJson } from "../helpers/test_app.ts";

Deno.test("an administrator creates a user with roles and a one-time password that must be changed at first sign-in", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const created = await expectJson(
      await t.request("POST", "/api/users", {
        cookie: admin,
        body: {
          email: "Clerk@CentralBank.test",
          firstName: "Ada",
          roles: ["operator", "approver", "operator"],
        },
      }),
      201,
    );
    assert.equal(created.user.email, "clerk@centralbank.test");
    assert.deepEqual(created.user.roles, ["approver", "operator"]);
    assert.equal(created.user.mustChangePassword, true);
    assert(created.initialPassword.length >= 12);

    const login = await t.request("POST", "/api/login", {
      body: { email: "clerk@centralbank.test", password: created.initialPassword },
    });
    const loginBody = await expectJson(login, 200);
    assert.equal(loginBody.mustChangePassword, true);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];

    const held = await expectJson(await t.request("GET", "/api/ledger-accounts", { cookie }), 403);
    assert.equal(held.reason, "password_change_required");
    assert.match(held.message, /Change your initial password/);
    assert.equal(
      (await expectJson(await t.request("GET", "/api/auth/user", { cookie }), 200)).mustChangePassword,
      true,
    );

    const wrong = await expectJson(
      await t.request("POST", "/api/auth/password", {
        cookie,
        body: { currentPassword: "not-the-password", newPassword: STAFF_PASSWORD },
      }),
      400,
    );
    assert.equal(wrong.fields.currentPassword, "The current password is not correct");
    await expectJson(
      await t.request("POST", "/api/auth/password", {
        cookie,
        body: { currentPassword: created.initialPassword, newPassword: STAFF_PASSWORD },
      }),
      204,
    );
    await expectJson(await t.request("GET", "/api/ledger-accounts", { cookie }), 200);
    assert.equal(
      (await expectJson(await t.request("GET", "/api/auth/user", { cookie }), 200)).mustChangePassword,
      false,
    );
    await t.login("clerk@centralbank.test", STAFF_PASSWORD);

    const duplicate = await expectJson(
      await t.request("POST", "/api/users", {
        cookie: admin,
        body: { email: "clerk@centralbank.test", roles: ["auditor"] },
      }),
      409,
    );
    assert.equal(duplicate.field, "email");
    const noRoles = await expectJson(
      await t.request("POST", "/api/users", {
        cookie: admin,
        body: { email: "x@centralbank.test", roles: [] },
      }),
      400,
    );
    assert.equal(noRoles.fields.roles, "Give at least one role");
    const badRole = await expectJson(
      await t.request("POST", "/api/users", {
        cookie: admin,
        body: { email: "x@centralbank.test", roles: ["root"] },
      }),
      400,
    );
    assert(badRole.fields["roles.0"]);

    const actions = await t.deps.db.read.all<{ action: string }>(
      sql`SELECT action FROM audit_trail WHERE entity_type = 'user' ORDER BY seq`,
    );
    assert.deepEqual(actions.map((row) => row.action).slice(-2), ["create", "change_password"]);
  } finally {
    await t.close();
  }
});

Deno.test("short and listed passwords are refused with a clear message", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const user = await createStaff(t, admin, "pw@centralbank.test", ["operator"]);
    const change = (newPassword: string) =>
      t.request("POST", "/api/auth/password", {
        cookie: user.cookie,
        body: { currentPassword: STAFF_PASSWORD, newPassword },
      });
    const short = await expectJson(await change("Short-pass1"), 400);
    assert.equal(short.fields.newPassword, "Password must be at least 12 characters");
    for (const listed of ["qwerty123456", "QAZWSXEDCRFV", "1qaz2wsx3edc"]) {
      const refused = await expectJson(await change(listed), 400);
      assert.equal(
        refused.fields.newPassword,
        "This password appears in lists of common or breached passwords; choose another",
        listed,
      );
    }
    const same = await expectJson(await change(STAFF_PASSWORD), 400);
    assert.equal(same.fields.newPassword, "The new password must differ from the current one");
    await expectJson(await change("a-much-better-passphrase"), 204);
  } finally {
    await t.close();
  }
});

Deno.test("disabling a user ends their sessions at once; re-enabling lets them sign in again", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const user = await createStaff(t, admin, "leaver@centralbank.test", ["operator"]);
    await expectJson(await t.request("GET", "/api/ledger-accounts", { cookie: user.cookie }), 200);
    const disabled = await expectJson(
      await t.request("PATCH", `/api/users/${user.id}`, { cookie: admin, body: { disabled: true } }),
      200,
    );
    assert.equal(disabled.disabled, true);
    await expectJson(await t.request("GET", "/api/ledger-accounts", { cookie: user.cookie }), 401);
    const refused = await t.request("POST", "/api/login", {
      body: { email: user.email, password: STAFF_PASSWORD },
    });
    await expectJson(refused, 401);
    await expectJson(
      await t.request("PATCH", `/api/users/${user.id}`, { cookie: admin, body: { disabled: false } }),
      200,
    );
    await t.login(user.email, STAFF_PASSWORD);
  } finally {
    await t.close();
  }
});

Deno.test("a role change takes effect on the user's next request", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const user = await createStaff(t, admin, "mover@centralbank.test", ["auditor"]);
    const body = {
      accountNumber: "LA-RC-1",
      accountType: "ledger",
      accountName: "Role change",
      currency: "USD",
    };
    await expectJson(await t.request("POST", "/api/ledger-accounts", { cookie: user.cookie, body }), 403);
    const changed = await expectJson(
      await t.request("PATCH", `/api/users/${user.id}`, { cookie: admin, body: { roles: ["operator"] } }),
      200,
    );
    assert.deepEqual(changed.roles, ["operator"]);
    await expectJson(await t.request("POST", "/api/ledger-accounts", { cookie: user.cookie, body }), 201);
    await expectJson(
      await t.request("PATCH", `/api/users/${user.id}`, { cookie: admin, body: { roles: ["auditor"] } }),
      200,
    );
    await expectJson(
      await t.request("POST", "/api/ledger-accounts", {
        cookie: user.cookie,
        body: { ...body, accountNumber: "LA-RC-2" },
      }),
      403,
    );
  } finally {
    await t.close();
  }
});

Deno.test("a password reset gives a new one-time password, ends the user's sessions and is held to a change", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const user = await createStaff(t, admin, "forgetful@centralbank.test", ["operator"]);
    const reset = await expectJson(
      await t.request("POST", `/api/users/${user.id}/reset-password`, { cookie: admin }),
      200,
    );
    await expectJson(await t.request("GET", "/api/auth/user", { cookie: user.cookie }), 401);
    await expectJson(
      await t.request("POST", "/api/login", { body: { email: user.email, password: STAFF_PASSWORD } }),
      401,
    );
    const cookie = await t.login(user.email, reset.initialPassword);
    assert.equal(
      (await expectJson(await t.request("GET", "/api/cards", { cookie }), 403)).reason,
      "password_change_required",
    );
    await expectJson(
      await t.request("POST", `/api/users/${crypto.randomUUID()}/reset-password`, { cookie: admin }),
      404,
    );
  } finally {
    await t.close();
  }
});

Deno.test("the last active administrator cannot lose the role or be disabled", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const me = await expectJson(await t.request("GET", "/api/auth/user", { cookie: admin }), 200);
    const conflict = await expectJson(
      await t.request("PATCH", `/api/users/${me.id}`, { cookie: admin, body: { roles: ["operator"] } }),
      409,
    );
    assert.equal(conflict.field, "roles");
    await expectJson(
      await t.request("PATCH", `/api/users/${me.id}`, { cookie: admin, body: { disabled: true } }),
      409,
    );
    const second = await createStaff(t, admin, "second-admin@centralbank.test", ["administrator"]);
    // With another administrator the first may give up the role; taking new ones is a request the other approves.
    const filed = await expectJson(
      await t.request("PATCH", `/api/users/${me.id}`, {
        cookie: admin,
        body: { roles: ["operator", "approver"], requestReason: "Moving to operations" },
      }),
      202,
    );
    await expectJson(
      await t.request("POST", `/api/approvals/${filed.approvalRequest.id}/approve`, {
        cookie: second.cookie,
        body: { reason: "Agreed" },
      }),
      200,
    );
    await expectJson(await t.request("GET", "/api/users", { cookie: admin }), 403);
  } finally {
    await t.close();
  }
});

Deno.test("a role change or a disabled user made by another process applies to the very next request here", async () => {
  const first = await createTestApp();
  const second = await createTestApp({}, { dataDir: first.dataDir });
  try {
    const admin = await second.login();
    const user = await createStaff(first, await first.login(), "roaming@centralbank.test", ["auditor"]);
    // Read once, so this process holds the session in memory.
    await expectJson(await first.request("GET", "/api/ledger-accounts", { cookie: user.cookie }), 200);
    await expectJson(await first.request("GET", "/api/users", { cookie: user.cookie }), 403);
    await expectJson(
      await second.request("PATCH", `/api/users/${user.id}`, {
        cookie: admin,
        body: { roles: ["administrator"] },
      }),
      200,
    );
    await expectJson(await first.request("GET", "/api/users", { cookie: user.cookie }), 200);
    await expectJson(
      await second.request("PATCH", `/api/users/${user.id}`, { cookie: admin, body: { disabled: true } }),
      200,
    );
    await expectJson(await first.request("GET", "/api/users", { cookie: user.cookie }), 401);
  } finally {
    await second.close();
    await first.close();
  }
});
