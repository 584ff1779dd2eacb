/**
 * One person, one identity: staff e-mail addresses that hide characters or look like an existing
 * account's are refused wherever an account is made (POST /api/users, createUser as user:add and the
 * first administrator use it, single sign-on), and deciders see each person's address beside the name.
 */
import { soleGrant } from "../../src/server/auth/role_grants.ts";
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { fillEmailSkeletons } from "../../src/server/auth/identity.ts";
import { OidcSignIn, SsoRefused } from "../../src/server/auth/oidc.ts";
import { parseOidcConfig } from "../../src/server/auth/oidc_config.ts";
import { createUser } from "../../src/server/auth/users.ts";
import { AppError } from "../../src/server/http/errors.ts";
import { createStaff, seededStaff } from "../helpers/staff.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";
import { nextAccountNumber } from "./ledger_helpers.ts";

const createAs = (t: TestApp, cookie: string, body: Record<string, unknown>) =>
  t.request("POST", "/api/users", { cookie, body: { roles: ["operator"], ...body } });

Deno.test("POST /api/users refuses hidden characters and non-ASCII before the @ with 400 naming the character and its position", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const [local, domain] = ADMIN_EMAIL.split("@");
    const cases: [string, string][] = [
      [`${ADMIN_EMAIL}\u0000\u0000`, `character U+0000 (null) at position ${ADMIN_EMAIL.length + 1} is not allowed`],
      [`adm\u200bin@${domain}`, "character U+200B (zero width space) at position 4 is not allowed"],
      [`${local}\u202e@${domain}`, "character U+202E (right-to-left override) at position 6 is not allowed"],
      [
        `\u0430dmin@${domain}`,
        "character U+0430 (cyrillic small letter a) at position 1 is not allowed: the part before the @ must be plain ASCII",
      ],
    ];
    for (const [email, message] of cases) {
      const refused = await expectJson(await createAs(t, admin, { email }), 400);
      assert.equal(refused.fields.email, message, JSON.stringify(email));
      assert.equal(refused.message, `email: ${message}`);
    }
    const badName = await expectJson(await createAs(t, admin, { email: "ada@centralbank.test", firstName: "Ada\u202e" }), 400);
    assert.equal(badName.fields.firstName, "character U+202E (right-to-left override) at position 4 is not allowed");
    const users = await expectJson(await t.request("GET", "/api/users", { cookie: admin }), 200);
    assert.deepEqual(users.map((user: { email: string }) => user.email), [ADMIN_EMAIL]);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/users: a case variant of an existing address and a look-alike of it are 409, the look-alike naming the account", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const variant = await expectJson(await createAs(t, admin, { email: `  ${ADMIN_EMAIL.toUpperCase()} ` }), 409);
    assert.equal(variant.field, "email");
    assert.equal(variant.message, "email already exists");
    // The Cyrillic "а" (U+0430) in the domain, where non-ASCII letters are allowed: its skeleton is the admin's.
    const lookAlike = await expectJson(await createAs(t, admin, { email: ADMIN_EMAIL.replace("central", "centr\u0430l") }), 409);
    assert.equal(lookAlike.field, "email");
    assert.equal(lookAlike.fields.email, `email looks like the existing account ${ADMIN_EMAIL} (confusable characters)`);
    // Digits and letters that Unicode lists as confusable ("1" and "l") collide too.
    await expectJson(await createAs(t, admin, { email: "ledger1@centralbank.test" }), 201);
    await expectJson(await createAs(t, admin, { email: "ledgerl@centralbank.test" }), 409);
    const created = await expectJson(await createAs(t, admin, { email: " Ops.Desk@CentralBank.TEST " }), 201);
    assert.equal(created.user.email, "ops.desk@centralbank.test");
  } finally {
    await t.close();
  }
});

Deno.test("createUser (user:add, the first administrator) refuses the same addresses and names; the skeleton index holds in SQL", async () => {
  const t = await createTestApp();
  try {
    const attempt = (email: string, firstName: string | null = null) =>
      createUser(t.deps.db, t.deps.config, { email, firstName, password: "a-much-better-passphrase" }, soleGrant(null));
    await assert.rejects(attempt("adm\u200bin@centralbank.test"), (error: unknown) => {
      assert(error instanceof AppError && error.status === 400);
      assert.equal(error.message, "email: character U+200B (zero width space) at position 4 is not allowed");
      return true;
    });
    await assert.rejects(attempt("jane@centralbank.test", "Jane\u0000"), (error: unknown) => {
      assert(error instanceof AppError && error.status === 400);
      assert.equal(error.details.fields?.firstName, "character U+0000 (null) at position 5 is not allowed");
      return true;
    });
    await assert.rejects(attempt(ADMIN_EMAIL.replace("admin", "adrnin")), (error: unknown) => {
      assert(error instanceof AppError && error.status === 409);
      return true;
    });
    const [admin] = await t.deps.db.read.all<{ skeleton: string }>(
      sql`SELECT email_skeleton AS skeleton FROM users WHERE email = ${ADMIN_EMAIL}`,
    );
    assert.equal(admin.skeleton, ADMIN_EMAIL.replace("m", "rn"));
    await assert.rejects(
      t.deps.db.transaction((tx) =>
        tx.run(sql`INSERT INTO users (id, email, email_skeleton, role)
          VALUES (${crypto.randomUUID()}, 'other@centralbank.test', ${admin.skeleton}, 'operator')`)
      ),
      (error: Error) => {
        assert.match(String(error.cause), /UNIQUE constraint failed: users\.email_skeleton/);
        return true;
      },
    );
  } finally {
    await t.close();
  }
});

Deno.test("accounts from before the skeleton column get theirs at start; two that look alike are reported, not merged", async () => {
  const t = await createTestApp();
  try {
    const db = t.deps.db;
    await db.transaction(async (tx) => {
      await tx.run(sql`UPDATE users SET email_skeleton = NULL`);
      await tx.run(sql`INSERT INTO users (id, email, role)
        VALUES (${crypto.randomUUID()}, 'adrnin@centralbank.test', 'operator')`);
    });
    const lines: string[] = [];
    await fillEmailSkeletons(db, (line) => lines.push(line));
    const rows = await db.read.all<{ email: string; skeleton: string | null }>(
      sql`SELECT email, email_skeleton AS skeleton FROM users ORDER BY email`,
    );
    assert.equal(rows.filter((row) => row.skeleton === null).length, 1);
    assert.equal(rows.find((row) => row.email === "system@console.invalid")?.skeleton, "systern@console.invalid");
    assert.equal(lines.length, 1);
    assert.match(lines[0], /adrnin@centralbank\.test/);
    assert.match(lines[0], /admin@centralbank\.test/);
  } finally {
    await t.close();
  }
});

Deno.test("single sign-on refuses a provider e-mail with hidden characters, one that looks like an account's, and a bidi name", async () => {
  const t = await createTestApp();
  try {
    const oidc = parseOidcConfig({
      OIDC_ISSUER: "http://127.0.0.1:9/",
      OIDC_CLIENT_ID: "console",
      OIDC_CLIENT_SECRET: "secret",
      OIDC_REDIRECT_URI: "http://127.0.0.1:5000/api/login/oidc/callback",
      OIDC_ROLE_MAP: "staff=operator",
    })!;
    const sso = new OidcSignIn(oidc, t.deps.config, t.deps.secrets);
    const signIn = (claims: Record<string, unknown>) =>
      sso.userFor(t.deps.db, {
        iss: "http://127.0.0.1:9/",
        sub: crypto.randomUUID(),
        email_verified: true,
        roles: ["staff"],
        ...claims,
      }, { ipAddress: null, userAgent: null });
    const refusedWith = (pattern: RegExp) => (error: unknown) => {
      assert(error instanceof SsoRefused);
      assert.match(error.userMessage, pattern);
      return true;
    };
    await assert.rejects(
      signIn({ email: "adm\u200bin@centralbank.test" }),
      refusedWith(/cannot be used in the console: character U\+200B \(zero width space\) at position 4 is not allowed/),
    );
    await assert.rejects(
      signIn({ email: ADMIN_EMAIL.replace("central", "centr\u0430l") }),
      refusedWith(/looks like another console account's/),
    );
    await assert.rejects(
      signIn({ email: "ada@centralbank.test", given_name: "Ada\u202e" }),
      refusedWith(/Your name at the identity provider cannot be used in the console: character U\+202E/),
    );
    const user = await signIn({ email: " Ada@CentralBank.test ", given_name: "Ada", family_name: "Lovelace" });
    assert.equal(user.email, "ada@centralbank.test");
    assert.equal(user.emailSkeleton, "ada@centralbank.test");
  } finally {
    await t.close();
  }
});

Deno.test("approvals and the audit trail show each person's e-mail address beside the name", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const maker = await createStaff(t, admin, "maker@centralbank.test", ["operator"]);
    const checker = await seededStaff(t, "checker@centralbank.test", ["approver"]);
    const pending = await expectJson(
      await t.request("POST", "/api/ledger-accounts", {
        cookie: maker.cookie,
        body: {
          accountNumber: nextAccountNumber("ledger"),
          accountType: "ledger",
          accountName: "Reserve",
          currency: "USD",
          currentBalance: "10.00",
          requestReason: "Opening the reserve",
        },
      }),
      202,
    );
    assert.equal(pending.approvalRequest.requestedByEmail, "maker@centralbank.test");
    assert.equal(pending.approvalRequest.decidedByEmail, null);
    const decided = await expectJson(
      await t.request("POST", `/api/approvals/${pending.approvalRequest.id}/approve`, {
        cookie: checker.cookie,
        body: { reason: "Checked" },
      }),
      200,
    );
    assert.equal(decided.requestedByEmail, "maker@centralbank.test");
    assert.equal(decided.decidedByEmail, "checker@centralbank.test");
    assert.equal(decided.executedByEmail, "checker@centralbank.test");
    const listed = await expectJson(await t.request("GET", "/api/approvals", { cookie: checker.cookie }), 200);
    const item = listed.find((request: { id: string }) => request.id === decided.id);
    assert.equal(item.requestedByEmail, "maker@centralbank.test");
    const events = await expectJson(await t.request("GET", `/api/audit-trail?actor=${maker.id}`, { cookie: admin }), 200);
    assert(events.length > 0);
    for (const event of events) assert.equal(event.performedByEmail, "maker@centralbank.test");
  } finally {
    await t.close();
  }
});
