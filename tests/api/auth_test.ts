import assert from "node:assert/strict";
import { eq, sql } from "drizzle-orm";
import { sessions, users } from "../../db/schema.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, expectJson } from "../helpers/test_app.ts";

Deno.test("GET /api/auth/user answers 401 Unauthorized when signed out", async () => {
  const t = await createTestApp();
  try {
    const res = await t.request("GET", "/api/auth/user");
    assert.deepEqual(await expectJson(res, 401), { message: "Unauthorized" });
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/login with JSON sets an HttpOnly SameSite=Lax cookie and returns the user", async () => {
  const t = await createTestApp();
  try {
    const res = await t.request("POST", "/api/login", { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    const user = await expectJson(res, 200);
    assert.deepEqual(user.email, ADMIN_EMAIL);
    assert.deepEqual(Object.keys(user).sort(), [
      "email",
      "firstName",
      "id",
      "lastName",
      "mustChangePassword",
      "profileImageUrl",
      "role",
      "roles",
    ]);
    const cookie = res.headers.get("set-cookie") ?? "";
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    const me = await expectJson(await t.request("GET", "/api/auth/user", { cookie: cookie.split(";")[0] }), 200);
    assert.deepEqual(me.id, user.id);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/login with a form redirects to / and a bad password back to the sign-in page", async () => {
  const t = await createTestApp();
  try {
    const good = await t.request("POST", "/api/login", {
      body: new URLSearchParams({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    assert.deepEqual(good.status, 303);
    assert.deepEqual(good.headers.get("location"), "/");
    const bad = await t.request("POST", "/api/login", {
      body: new URLSearchParams({ email: ADMIN_EMAIL, password: "wrong-password" }),
    });
    assert.deepEqual(bad.status, 303);
    assert.deepEqual(bad.headers.get("location"), "/api/login?error=invalid");
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/login shows a sign-in page with a form and no inline script", async () => {
  const t = await createTestApp();
  try {
    const res = await t.request("GET", "/api/login");
    assert.deepEqual(res.status, 200);
    const html = await res.text();
    assert.match(html, /<form method="post" action="\/api\/login"/);
    assert(!/<script/i.test(html));
  } finally {
    await t.close();
  }
});

Deno.test("a wrong password answers 401 and is written to the audit trail", async () => {
  const t = await createTestApp();
  try {
    const res = await t.request("POST", "/api/login", { body: { email: ADMIN_EMAIL, password: "nope-nope-nope" } });
    await expectJson(res, 401);
    const rows = await t.deps.db.read.all<{ action: string }>(
      sql`SELECT action FROM audit_trail WHERE action = 'login_failed'`,
    );
    assert.deepEqual(rows.length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("failed sign-ins back off per account: past the free tries the next one is 429 with Retry-After, then the right password works", async () => {
  const t = await createTestApp();
  try {
    for (let i = 0; i < 4; i++) {
      await expectJson(await t.request("POST", "/api/login", { body: { email: ADMIN_EMAIL, password: `bad-${i}-password` } }), 401);
    }
    const res = await t.request("POST", "/api/login", { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    const body = await expectJson(res, 429);
    assert.match(body.message, /Too many failed sign-in attempts/);
    assert.equal(res.headers.get("retry-after"), "1");
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await expectJson(await t.request("POST", "/api/login", { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } }), 200);
  } finally {
    await t.close();
  }
});

Deno.test("missing login fields answer 400 with a message per field", async () => {
  const t = await createTestApp();
  try {
    const body = await expectJson(await t.request("POST", "/api/login", { body: {} }), 400);
    assert.deepEqual(body.fields.email, "Required");
    assert.deepEqual(body.fields.password, "Required");
  } finally {
    await t.close();
  }
});

Deno.test("logout deletes the session row and redirects to /", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    assert.deepEqual((await t.deps.db.read.select().from(sessions).all()).length, 1);
    const res = await t.request("POST", "/api/logout", { cookie });
    assert.deepEqual(res.status, 303);
    assert.deepEqual(res.headers.get("location"), "/");
    assert.deepEqual((await t.deps.db.read.select().from(sessions).all()).length, 0);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie }), 401);
  } finally {
    await t.close();
  }
});

Deno.test("a session idle past its expiry answers 401", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    await t.deps.db.transaction((tx) => tx.update(sessions).set({ expire: new Date(Date.now() - 1000).toISOString() }));
    await expectJson(await t.request("GET", "/api/auth/user", { cookie }), 401);
  } finally {
    await t.close();
  }
});

Deno.test("a disabled user's live session answers 401 at once", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    await t.deps.db.transaction((tx) =>
      tx.update(users).set({ disabledAt: new Date().toISOString() }).where(eq(users.email, ADMIN_EMAIL))
    );
    await expectJson(await t.request("GET", "/api/auth/user", { cookie }), 401);
  } finally {
    await t.close();
  }
});

Deno.test("a second bootstrap on the same database creates no second admin and applies no migration", async () => {
  const t = await createTestApp();
  try {
    const { bootstrap } = await import("../../src/server/startup/bootstrap.ts");
    const again = await bootstrap(t.deps.config, () => {});
    const count = await again.db.read.all<{ n: number }>(sql`SELECT count(*) AS n FROM users WHERE email = ${ADMIN_EMAIL}`);
    assert.deepEqual(count[0].n, 1);
    again.db.close();
  } finally {
    await t.close();
  }
});

Deno.test("DELETE /api/sessions/{id} revokes a session: its cookie answers 401 at once, and it is audited", async () => {
  const t = await createTestApp();
  try {
    const first = await t.login();
    const second = await t.login();
    const list = await expectJson(await t.request("GET", "/api/sessions", { cookie: first }), 200);
    assert.equal(list.length, 2);
    const other = list.find((session: { current: boolean }) => !session.current);
    assert.equal((await t.request("DELETE", `/api/sessions/${other.id}`, { cookie: first })).status, 204);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie: second }), 401);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie: first }), 200);
    const audit = await t.deps.db.read.all<{ n: number }>(sql`SELECT count(*) AS n FROM audit_trail WHERE action = 'revoke'`);
    assert.equal(audit[0].n, 1);
    await expectJson(await t.request("DELETE", `/api/sessions/${"0".repeat(64)}`, { cookie: first }), 404);
    await expectJson(await t.request("DELETE", "/api/sessions/not-a-session", { cookie: first }), 400);
  } finally {
    await t.close();
  }
});
