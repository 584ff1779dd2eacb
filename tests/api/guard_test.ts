import assert from "node:assert/strict";
import { createTestApp } from "../helpers/test_app.ts";

/** Routes reachable without a session: sign-in (with its second-factor step) and sign-out only. */
const PUBLIC_API_ROUTES = new Set([
  "GET /api/login",
  "POST /api/login",
  "GET /api/login/second-factor",
  "POST /api/login/second-factor",
  "GET /api/login/oidc",
  "GET /api/login/oidc/callback",
  "GET /api/logout",
  "POST /api/logout",
  // Whether the node accepts changes, and nothing else: regional nodes ask headquarters before anyone signs in.
  "GET /api/system/health",
]);

function concretePath(path: string): string {
  return path.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, "00000000-0000-4000-8000-000000000000").replace(/\*$/, "x");
}

Deno.test("every /api route defined on the router answers 401 Unauthorized without a session", async () => {
  const t = await createTestApp();
  try {
    const routes = t.app.routes.filter((route) =>
      route.path.startsWith("/api/") && route.method !== "ALL" && !PUBLIC_API_ROUTES.has(`${route.method} ${route.path}`)
    );
    assert(routes.some((route) => route.path === "/api/auth/user"), "the router lists /api/auth/user");
    const failures: string[] = [];
    for (const route of routes) {
      const path = concretePath(route.path);
      const res = await t.request(route.method, path, route.method === "GET" ? {} : { body: {} });
      const text = await res.text();
      if (res.status !== 401 || !text.includes("Unauthorized")) failures.push(`${route.method} ${route.path} → ${res.status}`);
    }
    assert.deepEqual(failures, []);
  } finally {
    await t.close();
  }
});

Deno.test("an unknown /api path answers a JSON 404, not the SPA", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const res = await t.request("GET", "/api/no-such-endpoint", { cookie });
    assert.equal(res.status, 404);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    assert.equal((await res.json()).message, "Not Found");
  } finally {
    await t.close();
  }
});
