import assert from "node:assert/strict";
import { MAX_BODY_BYTES } from "../../src/server/http/security.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, expectJson } from "../helpers/test_app.ts";

Deno.test("responses carry a Content-Security-Policy that allows no inline script", async () => {
  const t = await createTestApp();
  try {
    const res = await t.request("GET", "/api/auth/user");
    await res.body?.cancel();
    const csp = res.headers.get("content-security-policy") ?? "";
    assert.match(csp, /script-src 'self'/);
    assert(!csp.includes("unsafe-inline"));
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  } finally {
    await t.close();
  }
});

Deno.test("a cross-site POST is refused with 403 (Sec-Fetch-Site and Origin)", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const viaFetchSite = await t.request("POST", "/api/logout", {
      cookie,
      headers: { "sec-fetch-site": "cross-site" },
    });
    await expectJson(viaFetchSite, 403);
    const viaOrigin = await t.request("POST", "/api/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      headers: { origin: "https://evil.example" },
    });
    await expectJson(viaOrigin, 403);
  } finally {
    await t.close();
  }
});

Deno.test("a mutation with a non-JSON body is refused with 415", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const res = await t.request("POST", "/api/auth/user", {
      cookie,
      body: "a=1",
      headers: { "content-type": "text/plain" },
    });
    await expectJson(res, 415);
  } finally {
    await t.close();
  }
});

Deno.test("a request body over the limit answers 413", async () => {
  const t = await createTestApp();
  try {
    const res = await t.request("POST", "/api/login", {
      body: JSON.stringify({ email: "a@b.c", password: "x".repeat(MAX_BODY_BYTES + 10) }),
      headers: { "content-type": "application/json", "content-length": String(MAX_BODY_BYTES + 50) },
    });
    await expectJson(res, 413);
  } finally {
    await t.close();
  }
});

Deno.test("a request body over the limit without a Content-Length (chunked) answers 413 while it is read", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_BODY_BYTES * 4) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await t.app.request("http://localhost/api/iban/validate", {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body,
    });
    await expectJson(res, 413);
    assert(sent <= MAX_BODY_BYTES + 2 * chunk.length, `read ${sent} bytes before refusing`);
  } finally {
    await t.close();
  }
});

Deno.test("malformed JSON answers 400, never 500", async () => {
  const t = await createTestApp();
  try {
    const res = await t.request("POST", "/api/login", {
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    await expectJson(res, 400);
  } finally {
    await t.close();
  }
});

Deno.test("the SPA is served for client routes and hashed assets are cached for a year", async () => {
  const dist = await Deno.makeTempDir();
  await Deno.mkdir(`${dist}/assets`);
  await Deno.writeTextFile(`${dist}/index.html`, "<!doctype html><title>console</title>");
  await Deno.writeTextFile(`${dist}/assets/main-ABC123.js`, "console.log(1)");
  const t = await createTestApp({ DIST_DIR: dist });
  try {
    for (const path of ["/", "/institutions", "/no-such-screen"]) {
      const res = await t.request("GET", path);
      assert.equal(res.status, 200);
      assert.match(await res.text(), /<title>console<\/title>/);
      assert.equal(res.headers.get("cache-control"), "no-cache");
    }
    const asset = await t.request("GET", "/assets/main-ABC123.js");
    assert.equal(await asset.text(), "console.log(1)");
    assert.equal(asset.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assert.match(asset.headers.get("content-type") ?? "", /javascript/);
    const missing = await t.request("GET", "/assets/nope.js");
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
  } finally {
    await t.close();
    await Deno.remove(dist, { recursive: true });
  }
});

Deno.test("API answers carry the REST set of secure headers; pages also carry the document-only ones", async () => {
  const t = await createTestApp();
  try {
    const api = await t.request("GET", "/api/auth/user");
    await api.body?.cancel();
    const page = await t.request("GET", "/login");
    await page.body?.cancel();
    for (const res of [api, page]) {
      assert.match(res.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
      assert.equal(res.headers.get("x-frame-options"), "SAMEORIGIN");
      assert.equal(res.headers.get("referrer-policy"), "same-origin");
      assert.equal(res.headers.get("cross-origin-resource-policy"), "same-origin");
      assert.match(res.headers.get("strict-transport-security") ?? "", /max-age=\d+/);
    }
    assert.equal(page.headers.get("cross-origin-opener-policy"), "same-origin");
    assert.equal(page.headers.get("x-xss-protection"), "0");
    assert.equal(api.headers.get("x-xss-protection"), null);
  } finally {
    await t.close();
  }
});

Deno.test("every /api answer carries Cache-Control: no-store, errors and 401s included", async () => {
  const t = await createTestApp();
  try {
    const signedOut = [
      ["GET", "/api/auth/user", 401],
      ["GET", "/api/cards", 401],
      ["GET", "/api/central-bank-connections", 401],
      ["GET", "/api/sessions", 401],
      ["GET", "/api/login", 200],
    ] as const;
    for (const [method, path, status] of signedOut) {
      const res = await t.request(method, path);
      await res.body?.cancel();
      assert.equal(res.status, status, path);
      assert.equal(res.headers.get("cache-control"), "no-store", `${method} ${path}`);
    }
    const signedIn = [
      ["GET", "/api/auth/user", undefined, 200],
      ["GET", "/api/cards", undefined, 200],
      ["GET", "/api/central-bank-connections", undefined, 200],
      ["GET", "/api/sessions", undefined, 200],
      ["GET", "/api/no-such-route", undefined, 404],
      ["POST", "/api/institutions", { name: "" }, 400],
      ["GET", "/api/institutions/not-a-uuid", undefined, 404],
    ] as const;
    const desk = await t.desk();
    for (const [method, path, body, status] of signedIn) {
      const res = await desk(method, path, { body });
      await res.body?.cancel();
      assert.equal(res.status, status, `${method} ${path}`);
      assert.equal(res.headers.get("cache-control"), "no-store", `${method} ${path}`);
    }
    const login = await t.request("POST", "/api/login", { body: { email: ADMIN_EMAIL, password: "wrong" } });
    await login.body?.cancel();
    assert.equal(login.headers.get("cache-control"), "no-store");
    const page = await t.request("GET", "/institutions");
    await page.body?.cancel();
    assert.notEqual(page.headers.get("cache-control"), "no-store", "pages keep their own caching");
  } finally {
    await t.close();
  }
});
