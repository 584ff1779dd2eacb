import assert from "node:assert/strict";
import { ROLES, ROUTE_RULES, routeKey, ruleFor } from "../../src/domain/access.ts";
import { createStaff } from "../helpers/staff.ts";
import { ADMIN_EMAIL, createTestApp, expectJson } from "../helpers/test_app.ts";

/** Routes reachable without a session: they have no role rule, as nobody is known yet. */
const PUBLIC_API_ROUTES = new Set([
  "GET /api/login",
  "POST /api/login",
  "GET /api/login/second-factor",
  "POST /api/login/second-factor",
  "GET /api/auth/second-factor",
  "GET /api/login/oidc",
  "GET /api/login/oidc/callback",
  "GET /api/logout",
  "POST /api/logout",
  // Whether the node accepts changes: regional nodes ask headquarters before anyone signs in.
  "GET /api/system/health",
]);

function concretePath(path: string): string {
  return path.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, "00000000-0000-4000-8000-000000000000").replace(
    /\*$/,
    "x",
  );
}

function apiRoutes(t: Awaited<ReturnType<typeof createTestApp>>) {
  return t.app.routes.filter((route) =>
    route.path.startsWith("/api/") && route.method !== "ALL" &&
    !PUBLIC_API_ROUTES.has(`${route.method} ${route.path}`)
  );
}

Deno.test("every /api route on the router has a role rule, and every rule names a route of the router", async () => {
  const t = await createTestApp();
  try {
    const routes = apiRoutes(t);
    const keys = new Set(routes.map((route) => routeKey(route.method, route.path)));
    assert.deepEqual(
      routes.filter((route) => !ruleFor(route.method, route.path)).map((r) => `${r.method} ${r.path}`),
      [],
    );
    assert.deepEqual(Object.keys(ROUTE_RULES).filter((key) => !keys.has(key)), []);
  } finally {
    await t.close();
  }
});

Deno.test("docs/security.md lists every route with its roles", async () => {
  const doc = await Deno.readTextFile(new URL("../../docs/security.md", import.meta.url));
  const missing = Object.entries(ROUTE_RULES).filter(([key, rule]) => {
    const roles = rule.roles === "signed-in" ? "any signed-in user" : rule.roles.join(", ");
    const [method, path] = key.split(" ");
    return !doc.includes(`| ${method} | \`${path}\` | ${roles} |`);
  }).map(([key]) => key);
  assert.deepEqual(missing, []);
});

Deno.test("each role meets 403 naming the role needed on what it may not call, and passes the role check on the rest", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    // The second administrator last: from then on dual control is in force and new users are requests.
    const staff = [];
    for (const role of [...ROLES].sort((a, b) => Number(a === "administrator") - Number(b === "administrator"))) {
      staff.push({ role, ...await createStaff(t, admin, `${role}@centralbank.test`, [role]) });
    }
    const failures: string[] = [];
    for (const route of apiRoutes(t)) {
      const rule = ruleFor(route.method, route.path)!;
      // Ending one's own session would sign the walker out halfway.
      if (route.method === "DELETE" && route.path === "/api/sessions/:sid") continue;
      for (const member of staff) {
        const allowed = rule.roles === "signed-in" || rule.roles.includes(member.role);
        const res = await t.request(route.method, concretePath(route.path), {
          cookie: member.cookie,
          ...(route.method === "GET" ? {} : { body: {} }),
        });
        const text = await res.text();
        if (allowed && res.status === 403) {
          failures.push(`${member.role} refused ${route.method} ${route.path}: ${text}`);
        }
        if (!allowed) {
          const body = res.status === 403 ? JSON.parse(text) : null;
          const namesRole = rule.roles !== "signed-in" &&
            rule.roles.every((role) => String(body?.message).includes(`${role}s`)) &&
            JSON.stringify(body?.requiredRoles) === JSON.stringify(rule.roles);
          if (!namesRole) {
            failures.push(`${member.role} got ${res.status} on ${route.method} ${route.path}: ${text}`);
          }
        }
      }
    }
    assert.deepEqual(failures, []);
  } finally {
    await t.close();
  }
});

Deno.test("the first administrator holds administrator alone; operators and auditors get 2xx on what they may do", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const me = await expectJson(await t.request("GET", "/api/auth/user", { cookie: admin }), 200);
    assert.equal(me.email, ADMIN_EMAIL);
    assert.deepEqual([...me.roles].sort(), ["administrator"]);
    assert.equal(me.role, "admin");

    const operator = await createStaff(t, admin, "op@centralbank.test", ["operator"]);
    const auditor = await createStaff(t, admin, "aud@centralbank.test", ["auditor"]);
    await expectJson(
      await t.request("POST", "/api/ledger-accounts", {
        cookie: operator.cookie,
        body: {
          accountNumber: "LA-ROLE-1",
          accountType: "ledger",
          accountName: "Role test",
          currency: "USD",
        },
      }),
      201,
    );
    await expectJson(await t.request("GET", "/api/ledger-accounts", { cookie: auditor.cookie }), 200);
    const refused = await expectJson(
      await t.request("POST", "/api/ledger-accounts", {
        cookie: auditor.cookie,
        body: {
          accountNumber: "LA-ROLE-2",
          accountType: "ledger",
          accountName: "Role test",
          currency: "USD",
        },
      }),
      403,
    );
    assert.equal(refused.message, "Only operators can create accounts");
    const usersRefused = await expectJson(
      await t.request("GET", "/api/users", { cookie: operator.cookie }),
      403,
    );
    assert.equal(usersRefused.message, "Only administrators can manage users");
    assert.deepEqual(usersRefused.requiredRoles, ["administrator"]);
  } finally {
    await t.close();
  }
});
