import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { EMAIL_TAKEN_MESSAGE } from "../../src/domain/provider_identity.ts";
import { migrate } from "../../src/server/db/migrate.ts";
import { startProvider, type TestAccount, type TestProvider } from "../helpers/oidc_provider.ts";
import { ADMIN_EMAIL, createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";
import { REDIRECT_URI, signInThroughProvider, ssoEnv } from "./oidc_helpers.ts";

/** The provider's accounts; a test may change one's roles between sign-ins, as the bank's directory would. */
function accounts(): Record<string, TestAccount> {
  return {
    // Three provider accounts that all claim the break-glass administrator's verified address.
    "admin": { email: ADMIN_EMAIL, roles: ["registry-staff"] },
    "admin-2": { email: ADMIN_EMAIL, roles: ["registry-admins"] },
    "admin-3": { email: ADMIN_EMAIL.toUpperCase(), roles: ["registry-admins"] },
    "olivia": { email: "olivia@centralbank.test", roles: ["registry-staff"] },
    "chief": { email: "chief@centralbank.test", roles: ["registry-admins"] },
  };
}

async function withSso(
  fn: (ctx: { t: TestApp; provider: TestProvider; people: Record<string, TestAccount> }) => Promise<void>,
) {
  const people = accounts();
  const provider = await startProvider(REDIRECT_URI, people);
  try {
    const t = await createTestApp(ssoEnv(provider));
    try {
      await fn({ t, provider, people });
    } finally {
      await t.close();
    }
  } finally {
    await provider.stop();
  }
}

const escapedMessage = EMAIL_TAKEN_MESSAGE.replaceAll("'", "&#39;");

async function rolesOf(t: TestApp, userId: string): Promise<string[]> {
  const rows = await t.deps.db.read.all<{ role: string }>(
    sql`SELECT role FROM user_roles WHERE user_id = ${userId} ORDER BY role`,
  );
  return rows.map((row) => row.role);
}

async function userIdOf(t: TestApp, email: string): Promise<string> {
  const [row] = await t.deps.db.read.all<{ id: string }>(sql`SELECT id FROM users WHERE email = ${email}`);
  return row.id;
}

Deno.test("single sign-on with a local account's e-mail is refused, never linked, and the break-glass administrator keeps its roles", async () => {
  await withSso(async ({ t, provider }) => {
    const adminId = await userIdOf(t, ADMIN_EMAIL);
    const adminRoles = await rolesOf(t, adminId);
    assert(adminRoles.includes("administrator"));
    for (const login of ["admin", "admin-2", "admin-3"]) {
      const refused = await signInThroughProvider(t, login);
      assert.equal(refused.status, 401, login);
      assert.equal(refused.session, null, login);
      assert(refused.page.includes(escapedMessage), `${login}: ${refused.page}`);
      assert(
        refused.page.includes(`subject ${login}`),
        "the page names the identity to give the administrator",
      );
    }
    const links = await t.deps.db.read.all(sql`SELECT * FROM user_identities`);
    assert.deepEqual(links, [], "no provider account was linked by its e-mail address");
    assert.deepEqual(await rolesOf(t, adminId), adminRoles);
    const reasons = await t.deps.db.read.all<{ reason: string }>(
      sql`SELECT json_extract(changes, '$.reason') AS reason
      FROM audit_trail WHERE action = 'login_failed' ORDER BY seq`,
    );
    assert.equal(reasons.length, 3);
    for (const { reason } of reasons) {
      assert.match(reason, /is console user .*'s, and the identity .* is not linked/);
    }

    // The break-glass administrator still signs in with its password, and is never linked.
    const admin = await t.login();
    const me = await expectJson(await t.request("GET", "/api/auth/user", { cookie: admin }), 200);
    assert.deepEqual([...me.roles].sort(), adminRoles);
    const link = await expectJson(
      await t.request("POST", `/api/users/${adminId}/identities`, {
        cookie: admin,
        body: { issuer: provider.issuer, subject: "admin" },
      }),
      409,
    );
    assert.equal(link.field, "userId");
    assert.match(link.message, /break-glass administrator .* never linked/);
  });
});

Deno.test("after an administrator links a local account, its provider account lands on it, with no local password step; unlinking ends that", async () => {
  await withSso(async ({ t, provider }) => {
    const admin = await t.login();
    const created = await expectJson(
      await t.request("POST", "/api/users", {
        cookie: admin,
        body: { email: "olivia@centralbank.test", roles: ["operator"] },
      }),
      201,
    );
    const olivia = created.user.id;
    assert.equal(created.user.mustChangePassword, true);
    assert.equal((await signInThroughProvider(t, "olivia")).status, 401, "refused until linked");

    const identity = { issuer: provider.issuer, subject: "olivia" };
    const path = `/api/users/${olivia}/identities`;
    const linked = await expectJson(await t.request("POST", path, { cookie: admin, body: identity }), 201);
    assert.equal(linked.subject, "olivia");

    const signedIn = await signInThroughProvider(t, "olivia");
    assert.equal(signedIn.status, 303, signedIn.page);
    const me = await expectJson(await t.request("GET", "/api/auth/user", { cookie: signedIn.session! }), 200);
    assert.equal(me.id, olivia, "the provider account lands on the linked user");
    assert.equal(me.mustChangePassword, false);
    // Not 403 password_change_required: the pending one-time password plays no part in a provider sign-in.
    await expectJson(await t.request("GET", "/api/institutions", { cookie: signedIn.session! }), 200);
    assert.deepEqual(await rolesOf(t, olivia), ["operator"]);

    // One identity per user per issuer, and an identity belongs to one user.
    const second = await expectJson(
      await t.request("POST", path, { cookie: admin, body: { ...identity, subject: "olivia-2" } }),
      409,
    );
    assert.equal(second.field, "issuer");
    const adminId = await userIdOf(t, ADMIN_EMAIL);
    const elsewhere = await expectJson(
      await t.request("POST", `/api/users/${adminId}/identities`, { cookie: admin, body: identity }),
      409,
    );
    assert.equal(elsewhere.field, "subject");
    const bad = await expectJson(
      await t.request("POST", path, { cookie: admin, body: { issuer: "not a url", subject: "a\u0000b" } }),
      400,
    );
    assert(bad.fields.issuer && bad.fields.subject, JSON.stringify(bad));

    const listed = await expectJson(await t.request("GET", path, { cookie: admin }), 200);
    assert.equal(listed.configuredIssuer, provider.issuer);
    assert.deepEqual(listed.identities.map((row: { subject: string }) => row.subject), ["olivia"]);
    const audited = await t.deps.db.read.all<{ action: string; by: string }>(sql`SELECT action,
      performed_by AS by FROM audit_trail WHERE entity_type = 'user_identity' ORDER BY seq`);
    assert.deepEqual(audited, [{ action: "link", by: adminId }]);

    await expectJson(await t.request("DELETE", path, { cookie: admin, body: identity }), 204);
    assert.equal((await t.request("GET", "/api/auth/user", { cookie: signedIn.session! })).status, 401);
    assert.equal((await signInThroughProvider(t, "olivia")).status, 401, "refused again once unlinked");
    await expectJson(await t.request("DELETE", path, { cookie: admin, body: identity }), 404);
  });
});

Deno.test("the provider's role mapping changes a linked account's roles but never removes the last active administrator", async () => {
  await withSso(async ({ t, people }) => {
    const chief = await signInThroughProvider(t, "chief");
    assert.equal(chief.status, 303, chief.page);
    const chiefId = await userIdOf(t, "chief@centralbank.test");
    const chiefRoles = await rolesOf(t, chiefId);
    assert(chiefRoles.includes("administrator"));
    const adminId = await userIdOf(t, ADMIN_EMAIL);
    const setDisabled = async (disabled: boolean) =>
      await expectJson(
        await t.request("PATCH", `/api/users/${adminId}`, { cookie: chief.session!, body: { disabled } }),
        200,
      );
    await setDisabled(true);

    // The directory drops the chief to staff while the chief is the only active administrator.
    people.chief.roles = ["registry-staff"];
    assert.equal((await signInThroughProvider(t, "chief")).status, 303);
    assert.deepEqual(await rolesOf(t, chiefId), chiefRoles);
    const [held] = await t.deps.db.read.all<{ changes: string }>(sql`SELECT changes FROM audit_trail
      WHERE entity_id = ${chiefId} AND action = 'role_mapping_held'`);
    assert.match(JSON.parse(held.changes).reason, /would leave no active administrator/);

    // With another active administrator the mapping applies.
    people.chief.roles = ["registry-admins"];
    const again = await signInThroughProvider(t, "chief");
    // Under dual control re-enabling is a request another administrator approves; with none active,
    // the setup stands in for that approval.
    await expectJson(
      await t.request("PATCH", `/api/users/${adminId}`, {
        cookie: again.session!,
        body: { disabled: false, requestReason: "Back from leave" },
      }),
      202,
    );
    await t.deps.db.writeBatch([{ sql: "UPDATE users SET disabled_at = NULL WHERE id = ?", args: [adminId] }]);
    people.chief.roles = ["registry-staff"];
    assert.equal((await signInThroughProvider(t, "chief")).status, 303);
    assert.deepEqual(await rolesOf(t, chiefId), ["operator"]);
  });
});

Deno.test("migration 1320 withdraws links made by e-mail to local accounts and keeps one identity per user per issuer", async () => {
  const t = await createTestApp();
  try {
    const adminId = await userIdOf(t, ADMIN_EMAIL);
    const created = crypto.randomUUID();
    await t.deps.db.transaction(async (tx) => {
      await tx.run(sql`DROP INDEX user_identities_user_issuer_idx`);
      await tx.run(sql`DELETE FROM schema_migrations WHERE name LIKE '1320_%'`);
      await tx.run(
        sql`INSERT INTO users (id, email, role) VALUES (${created}, 'sso@centralbank.test', 'operator')`,
      );
      await tx.run(sql`INSERT INTO user_identities (issuer, subject, user_id, created_at) VALUES
        ('https://id.example', 'first', ${created}, '2026-01-01T00:00:00.000Z'),
        ('https://id.example', 'later', ${created}, '2026-02-01T00:00:00.000Z'),
        ('https://other.example', 'elsewhere', ${created}, '2026-02-01T00:00:00.000Z'),
        ('https://id.example', 'by-email', ${adminId}, '2026-01-01T00:00:00.000Z')`);
    });
    assert.deepEqual(await migrate(t.deps.db), ["1320_user_identities_linked_by_administrators.sql"]);
    const left = await t.deps.db.read.all<{ subject: string }>(
      sql`SELECT subject FROM user_identities ORDER BY subject`,
    );
    assert.deepEqual(left.map((row) => row.subject), ["elsewhere", "first"]);
    await assert.rejects(
      t.deps.db.transaction((tx) =>
        tx.run(
          sql`INSERT INTO user_identities (issuer, subject, user_id) VALUES ('https://id.example', 'x', ${created})`,
        )
      ),
    );
  } finally {
    await t.close();
  }
});
