import { soleGrant } from "../../src/server/auth/role_grants.ts";
import assert from "node:assert/strict";
import { eq, sql } from "drizzle-orm";
import { TOTP } from "otpauth";
import { sessions, userRecoveryCodes, userTotp } from "../../db/schema.ts";
import { clientAddress, parseTrustProxy } from "../../src/server/http/client_address.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0];

/** A request as it arrives from the socket `peer`, optionally through proxies that wrote X-Forwarded-For. */
function fromAddress(
  t: TestApp,
  peer: string,
  path: string,
  init: { body?: unknown; forwardedFor?: string; cookie?: string },
) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (init.forwardedFor) headers["x-forwarded-for"] = init.forwardedFor;
  if (init.cookie) headers.cookie = init.cookie;
  return Promise.resolve(t.app.request(`http://localhost${path}`, {
    method: "POST",
    headers,
    body: JSON.stringify(init.body ?? {}),
  }, { remoteAddr: { hostname: peer } }));
}

Deno.test("40 parallel wrong passwords: every refusal is 401 or 429 with Retry-After, and the right password signs in within 30 s", async () => {
  const t = await createTestApp();
  try {
    const attacks = await Promise.all(
      Array.from(
        { length: 40 },
        (_, i) =>
          t.request("POST", "/api/login", { body: { email: ADMIN_EMAIL, password: `guess-${i}-wrong` } }),
      ),
    );
    for (const res of attacks) {
      await res.body?.cancel();
      assert(res.status === 401 || res.status === 429, `unexpected ${res.status}`);
      if (res.status === 429) assert.match(res.headers.get("retry-after") ?? "", /^[1-9]\d*$/);
    }
    const started = Date.now();
    for (;;) {
      const res = await t.request("POST", "/api/login", {
        body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      });
      if (res.status === 200) break;
      await expectJson(res, 429);
      const retryAfter = Number(res.headers.get("retry-after"));
      assert(retryAfter >= 1 && retryAfter <= 30, `Retry-After ${retryAfter}`);
      await sleep(retryAfter * 1000);
    }
    assert(Date.now() - started <= 31_000, `signed in after ${Date.now() - started} ms`);
  } finally {
    await t.close();
  }
});

Deno.test("a flood of refused attempts during the back-off does not extend it", async () => {
  const t = await createTestApp();
  try {
    for (let i = 0; i < 5; i++) {
      await (await t.request("POST", "/api/login", {
        body: { email: ADMIN_EMAIL, password: `bad-${i}-password` },
      })).body?.cancel();
    }
    const first = await t.request("POST", "/api/login", {
      body: { email: ADMIN_EMAIL, password: "still-wrong" },
    });
    await expectJson(first, 429);
    const waitSeconds = Number(first.headers.get("retry-after"));
    for (let i = 0; i < 20; i++) {
      const res = await t.request("POST", "/api/login", {
        body: { email: ADMIN_EMAIL, password: "still-wrong" },
      });
      await expectJson(res, 429);
      assert(Number(res.headers.get("retry-after")) <= waitSeconds);
    }
    // The sign-in form gets the same answer, as a page.
    const form = await t.request("POST", "/api/login", {
      body: new URLSearchParams({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    assert.equal(form.status, 429);
    assert.match(form.headers.get("retry-after") ?? "", /^[1-9]\d*$/);
    assert.match(await form.text(), /Too many failed sign-in attempts\. Try again in \d+ seconds\./);
    await sleep(waitSeconds * 1000 + 100);
    await expectJson(
      await t.request("POST", "/api/login", { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } }),
      200,
    );
  } finally {
    await t.close();
  }
});

Deno.test("the per-address back-off counts that address's failures only", async () => {
  const t = await createTestApp();
  try {
    // Many accounts guessed from one address: the address backs off, the accounts stay free.
    for (let i = 0; i < 11; i++) {
      const res = await fromAddress(t, "198.51.100.7", "/api/login", {
        body: { email: `nobody-${i}@centralbank.test`, password: "wrong-password" },
      });
      await expectJson(res, 401);
    }
    const refused = await fromAddress(t, "198.51.100.7", "/api/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    await expectJson(refused, 429);
    assert.match(refused.headers.get("retry-after") ?? "", /^[1-9]\d*$/);
    const elsewhere = await fromAddress(t, "198.51.100.8", "/api/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    await expectJson(elsewhere, 200);
  } finally {
    await t.close();
  }
});

Deno.test("forged left-most X-Forwarded-For entries neither move the client address nor escape the back-off", async () => {
  const t = await createTestApp({ TRUST_PROXY: "1" });
  try {
    for (let i = 0; i < 11; i++) {
      const res = await fromAddress(t, "127.0.0.1", "/api/login", {
        body: { email: `nobody-${i}@centralbank.test`, password: "wrong-password" },
        forwardedFor: `10.9.${i}.1, 203.0.113.50`,
      });
      await expectJson(res, 401);
    }
    const forged = await fromAddress(t, "127.0.0.1", "/api/login", {
      body: { email: "nobody-x@centralbank.test", password: "wrong-password" },
      forwardedFor: "192.0.2.99, 203.0.113.50",
    });
    await expectJson(forged, 429);
    const rows = await t.deps.db.read.all<{ ip: string }>(
      sql`SELECT DISTINCT ip_address AS ip FROM audit_trail WHERE action = 'login_failed'`,
    );
    assert.deepEqual(rows.map((row) => row.ip), ["203.0.113.50"]);
  } finally {
    await t.close();
  }
});

Deno.test("TRUST_PROXY: the client address is the right-most address that is not a trusted proxy", () => {
  const hops = parseTrustProxy("2");
  assert.equal(clientAddress("10.0.0.1", "6.6.6.6, 203.0.113.9, 10.0.0.2", hops), "203.0.113.9");
  assert.equal(clientAddress("10.0.0.1", "203.0.113.9", hops), "203.0.113.9");
  const ranges = parseTrustProxy("127.0.0.1/8, 10.0.0.0/8");
  assert.equal(clientAddress("127.0.0.1", "6.6.6.6, 203.0.113.9, 10.1.2.3", ranges), "203.0.113.9");
  assert.equal(clientAddress("127.0.0.1", "10.1.2.3, 10.1.2.4", ranges), "10.1.2.3");
  assert.equal(clientAddress("198.51.100.1", "6.6.6.6", ranges), "198.51.100.1");
  assert.equal(clientAddress("198.51.100.1", "6.6.6.6", parseTrustProxy(undefined)), "198.51.100.1");
  assert.equal(parseTrustProxy("0"), null);
  assert.throws(() => parseTrustProxy("not-an-address"), /TRUST_PROXY/);
});

Deno.test("a session ends at its absolute lifetime however busy it is", async () => {
  const t = await createTestApp({ SESSION_ABSOLUTE_HOURS: "1" });
  try {
    const cookie = await t.login();
    const status = await expectJson(await t.request("GET", "/api/auth/session", { cookie }), 200);
    assert(Date.parse(status.absoluteExpiresAt) - Date.now() <= 3_600_000);
    const row = await t.deps.db.read.select().from(sessions).get();
    const sess = { ...row!.sess, createdAt: new Date(Date.now() - 61 * 60_000).toISOString() };
    await t.deps.db.transaction((tx) => tx.update(sessions).set({ sess }).where(eq(sessions.sid, row!.sid)));
    // Another process on the same database: nothing about this session in its memory.
    const other = await createTestApp({ SESSION_ABSOLUTE_HOURS: "1" }, { dataDir: t.dataDir });
    try {
      await expectJson(await other.request("GET", "/api/auth/user", { cookie }), 401);
    } finally {
      await other.close();
    }
  } finally {
    await t.close();
  }
});

Deno.test("reading the session's expiry does not extend it; Stay signed in does", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const early = new Date(Date.now() + 2 * 60_000).toISOString();
    await t.deps.db.transaction((tx) => tx.update(sessions).set({ expire: early }));
    const again = await createTestApp({}, { dataDir: t.dataDir });
    try {
      const read = await expectJson(await again.request("GET", "/api/auth/session", { cookie }), 200);
      assert.equal(read.expiresAt, early);
      assert.equal(read.idleTimeoutMinutes, 30);
      const extended = await expectJson(
        await again.request("POST", "/api/auth/session/extend", { cookie, body: {} }),
        200,
      );
      assert(Date.parse(extended.expiresAt) > Date.now() + 29 * 60_000);
    } finally {
      await again.close();
    }
  } finally {
    await t.close();
  }
});

Deno.test("signing in ends the session this browser held before", async () => {
  const t = await createTestApp();
  try {
    const first = await t.login();
    const res = await t.request("POST", "/api/login", {
      cookie: first,
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    await expectJson(res, 200);
    const second = cookieOf(res);
    assert.notEqual(second, first);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie: first }), 401);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie: second }), 200);
  } finally {
    await t.close();
  }
});

Deno.test("a cross-site GET or POST to sign-out does nothing; a same-site POST signs out", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const get = await t.request("GET", "/api/logout", {
      cookie,
      headers: { "sec-fetch-site": "cross-site" },
    });
    assert.equal(get.status, 200);
    assert.match(await get.text(), /<form method="post" action="\/api\/logout"/);
    const post = await t.request("POST", "/api/logout", {
      cookie,
      headers: { "sec-fetch-site": "cross-site" },
    });
    await expectJson(post, 403);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie }), 200);
    const out = await t.request("POST", "/api/logout", {
      cookie,
      headers: { "sec-fetch-site": "same-origin" },
    });
    assert.equal(out.status, 303);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie }), 401);
  } finally {
    await t.close();
  }
});

Deno.test("over https the session cookie is __Host- prefixed and Secure, and only that name is accepted", async () => {
  const t = await createTestApp();
  try {
    const res = await t.app.request("https://console.example/api/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    await expectJson(res, 200);
    const setCookie = res.headers.get("set-cookie") ?? "";
    assert.match(setCookie, /^__Host-cbr_session=/);
    assert.match(setCookie, /; Secure/);
    assert.match(setCookie, /; Path=\//);
    assert.doesNotMatch(setCookie, /Domain=/i);
    const cookie = setCookie.split(";")[0];
    const me = await t.app.request("https://console.example/api/auth/user", { headers: { cookie } });
    await expectJson(me, 200);
    const unprefixed = cookie.replace("__Host-", "");
    await expectJson(
      await t.app.request("https://console.example/api/auth/user", { headers: { cookie: unprefixed } }),
      401,
    );
  } finally {
    await t.close();
  }
});

const totpNow = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret, algorithm: "SHA1", digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });

Deno.test("TOTP: an administrator is held to enrolment, confirms with a first code, and gets ten single-use recovery codes", async () => {
  const t = await createTestApp({ REQUIRE_MFA: "1" });
  try {
    const login = await t.request("POST", "/api/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    const user = await expectJson(login, 200);
    assert.equal(user.secondFactor, "enrol");
    const pending = cookieOf(login);
    const held = await expectJson(await t.request("GET", "/api/auth/user", { cookie: pending }), 403);
    assert.equal(held.needed, "second_factor_enrolment");
    assert.match(held.message, /second factor/);
    await expectJson(await t.request("GET", "/api/institutions", { cookie: pending }), 403);

    const { stage, enrolment } = await expectJson(
      await t.request("GET", "/api/auth/second-factor", { cookie: pending }),
      200,
    );
    assert.equal(stage, "enrol");
    assert.match(enrolment.secret, /^[A-Z2-7]{32}$/);
    assert.match(enrolment.otpauthUri, /^otpauth:\/\/totp\//);
    assert.match(enrolment.otpauthQrCode, /^data:image\/png;base64,/);
    const stored = await t.deps.db.read.select().from(userTotp).get();
    assert(!stored!.secretEncrypted.includes(enrolment.secret), "the secret is encrypted at rest");

    const wrong = await t.request("POST", "/api/login/second-factor", {
      cookie: pending,
      body: { otp: "000000" === totpNow(enrolment.secret) ? "111111" : "000000" },
    });
    await expectJson(wrong, 401);
    const confirmed = await t.request("POST", "/api/login/second-factor", {
      cookie: pending,
      body: { otp: totpNow(enrolment.secret) },
    });
    const done = await expectJson(confirmed, 200);
    assert.equal(done.recoveryCodes.length, 10);
    assert.equal(new Set(done.recoveryCodes).size, 10);
    const hashes = await t.deps.db.read.select().from(userRecoveryCodes).all();
    assert.equal(hashes.length, 10);
    for (const code of done.recoveryCodes) {
      assert(!hashes.some((row) => row.codeHash.includes(code.replaceAll("-", ""))));
    }
    const full = cookieOf(confirmed);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie: pending }), 401);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie: full }), 200);

    // Next sign-in: the code is asked for; the one already used is refused (replay), a recovery code works once.
    const again = await t.request("POST", "/api/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    assert.equal((await expectJson(again, 200)).secondFactor, "verify");
    const verifying = cookieOf(again);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie: verifying }), 403);
    const replay = await t.request("POST", "/api/login/second-factor", {
      cookie: verifying,
      body: { otp: totpNow(enrolment.secret) },
    });
    await expectJson(replay, 401);
    const recovered = await t.request("POST", "/api/login/second-factor", {
      cookie: verifying,
      body: { otp: done.recoveryCodes[3] },
    });
    await expectJson(recovered, 200);

    const third = await t.request("POST", "/api/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    const thirdCookie = cookieOf(third);
    await third.body?.cancel();
    const reused = await t.request("POST", "/api/login/second-factor", {
      cookie: thirdCookie,
      body: { otp: done.recoveryCodes[3] },
    });
    await expectJson(reused, 401);
    // A code of the next time step is newer than the one used, so it is accepted.
    const next = await t.request("POST", "/api/login/second-factor", {
      cookie: thirdCookie,
      body: { otp: totpNow(enrolment.secret, 1) },
    });
    await expectJson(next, 200);
    const audit = await t.deps.db.read.all<{ action: string }>(
      sql`SELECT action FROM audit_trail WHERE entity_type = 'session' ORDER BY rowid`,
    );
    assert(audit.some((row) => row.action === "second_factor_failed"));

    // The request log keeps every /api call, but none of the second factor's secrets.
    await t.app.requestLog.flush();
    const logged = JSON.stringify(await t.deps.db.read.all(sql`SELECT * FROM api_logs`));
    assert.match(logged, /second-factor/);
    for (const secret of [enrolment.secret, ...done.recoveryCodes, totpNow(enrolment.secret)]) {
      assert(!logged.includes(secret), `the request log holds ${secret}`);
    }
    assert(!logged.includes("otpauth://"));
  } finally {
    await t.close();
  }
});

Deno.test("TOTP: wrong codes back off like wrong passwords", async () => {
  const t = await createTestApp({ REQUIRE_MFA: "1" });
  try {
    const login = await t.request("POST", "/api/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    await login.body?.cancel();
    const pending = cookieOf(login);
    const { enrolment } = await expectJson(
      await t.request("GET", "/api/auth/second-factor", { cookie: pending }),
      200,
    );
    const wrong = totpNow(enrolment.secret) === "123456" ? "654321" : "123456";
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.request("POST", "/api/login/second-factor", {
        cookie: pending,
        body: { otp: wrong },
      });
      await res.body?.cancel();
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 429]);
    // The enrolment form gets the wait as the same page, QR code and all.
    const form = await t.request("POST", "/api/login/second-factor", {
      cookie: pending,
      body: new URLSearchParams({ otp: wrong }),
    });
    assert.equal(form.status, 429);
    assert.match(form.headers.get("retry-after") ?? "", /^[1-9]\d*$/);
    const html = await form.text();
    assert.match(html, /Try again in \d+ seconds/);
    assert.match(html, /QR code for your authenticator app/);
  } finally {
    await t.close();
  }
});

Deno.test("a browser that signed in before is not held back by others' failures (device cookie)", async () => {
  const t = await createTestApp();
  try {
    const first = await t.request("POST", "/api/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    await expectJson(first, 200);
    const device = first.headers.getSetCookie().find((cookie) =>
      cookie.startsWith("cbr_device=")
    )!.split(";")[0];
    assert.match(device, /^cbr_device=[0-9a-f]{32}\.[0-9a-f]{64}$/);
    for (let i = 0; i < 8; i++) {
      await (await t.request("POST", "/api/login", {
        body: { email: ADMIN_EMAIL, password: `attack-${i}-wrong` },
      })).body?.cancel();
    }
    await expectJson(
      await t.request("POST", "/api/login", { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } }),
      429,
    );
    const owner = await t.request("POST", "/api/login", {
      cookie: device,
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    await expectJson(owner, 200);
    // A device cookie names one account: presented for another e-mail, or tampered with, it counts for nothing.
    const forged = device.replace(/.$/, (last) => (last === "0" ? "1" : "0"));
    // Nor do failures from the owner's own address (everyone behind one proxy), past the address's free tries.
    for (let i = 0; i < 11; i++) {
      const res = await fromAddress(t, "198.51.100.20", "/api/login", {
        body: { email: `nobody-${i}@centralbank.test`, password: "wrong-password" },
      });
      await res.body?.cancel();
    }
    const sharedAddress = await fromAddress(t, "198.51.100.20", "/api/login", {
      cookie: device,
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    await expectJson(sharedAddress, 200);
    const withForged = await t.request("POST", "/api/login", {
      cookie: forged,
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    await expectJson(withForged, 429);
  } finally {
    await t.close();
  }
});

Deno.test("the MFA required setting: on, every user is held to enrolment; off, only administrators; changed by administrators only", async () => {
  const { createUser } = await import("../../src/server/auth/users.ts");
  const t = await createTestApp({ REQUIRE_MFA: "1" });
  try {
    await createUser(t.deps.db, t.deps.config, {
      email: "operator@centralbank.test",
      password: "lantern-harbour-quiet",
      roles: ["operator"],
    }, soleGrant(null));
    const asOperator = await t.request("POST", "/api/login", {
      body: { email: "operator@centralbank.test", password: "lantern-harbour-quiet" },
    });
    assert.equal((await expectJson(asOperator, 200)).secondFactor, "enrol");

    // With no second factor at all (REQUIRE_MFA=0) the administrator changes the setting.
    const relaxed = await createTestApp({ REQUIRE_MFA: "0" }, { dataDir: t.dataDir });
    try {
      const admin = await relaxed.login();
      assert.deepEqual(
        await expectJson(await relaxed.request("GET", "/api/auth/sign-in-settings", { cookie: admin }), 200),
        {
          mfaRequired: true,
          mfaEnforced: false,
        },
      );
      const off = await relaxed.request("PUT", "/api/auth/sign-in-settings", {
        cookie: admin,
        body: { mfaRequired: false },
      });
      assert.equal((await expectJson(off, 200)).mfaRequired, false);
      await expectJson(
        await relaxed.request("PUT", "/api/auth/sign-in-settings", {
          cookie: admin,
          body: { mfaRequired: "no" },
        }),
        400,
      );
      const operator = await relaxed.login("operator@centralbank.test", "lantern-harbour-quiet");
      await expectJson(
        await relaxed.request("PUT", "/api/auth/sign-in-settings", {
          cookie: operator,
          body: { mfaRequired: true },
        }),
        403,
      );
      const audit = await relaxed.deps.db.read.all<{ n: number }>(
        sql`SELECT count(*) AS n FROM audit_trail WHERE entity_type = 'sign_in_settings'`,
      );
      assert.equal(audit[0].n, 1);
    } finally {
      await relaxed.close();
    }

    const operatorAgain = await t.request("POST", "/api/login", {
      body: { email: "operator@centralbank.test", password: "lantern-harbour-quiet" },
    });
    const operatorUser = await expectJson(operatorAgain, 200);
    assert.equal(operatorUser.secondFactor, undefined);
    await expectJson(await t.request("GET", "/api/auth/user", { cookie: cookieOf(operatorAgain) }), 200);
    const admin = await t.request("POST", "/api/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    assert.equal((await expectJson(admin, 200)).secondFactor, "enrol");
  } finally {
    await t.close();
  }
});

Deno.test("OIDC settings: half a configuration stops the start; the provider's host is added to the server's network permission", async () => {
  const { parseOidcConfig } = await import("../../src/server/auth/oidc_config.ts");
  const { serverPermissions } = await import("../../scripts/start.ts");
  const complete = {
    OIDC_ISSUER: "https://login.bank.example/realms/staff",
    OIDC_CLIENT_ID: "registry-console",
    OIDC_CLIENT_SECRET: "s3cret",
    OIDC_REDIRECT_URI: "https://registry.bank.example/api/login/oidc/callback",
    OIDC_ROLE_MAP: "registry-admins=admin",
  };
  assert.equal(parseOidcConfig({}), null);
  assert.throws(
    () => parseOidcConfig({ ...complete, OIDC_CLIENT_SECRET: "" }),
    /OIDC_CLIENT_SECRET must be set/,
  );
  assert.throws(
    () => parseOidcConfig({ ...complete, OIDC_REDIRECT_URI: "https://registry.bank.example/callback" }),
    /must end in/,
  );
  assert.throws(
    () => parseOidcConfig({ ...complete, OIDC_ROLE_MAP: "registry-admins=root" }),
    /not a console role/,
  );
  const config = parseOidcConfig(complete)!;
  assert.equal(config.providerName, "login.bank.example");
  assert.equal(config.localBreakGlass, false);
  const net = serverPermissions({ ...complete, DATA_DIR: "/tmp/x" }).find((flag) =>
    flag.startsWith("--allow-net=")
  )!;
  assert(net.split(/[=,]/).includes("login.bank.example"), net);
});

Deno.test("without OIDC the sign-in page offers no single sign-on and /api/login/oidc is 404", async () => {
  const t = await createTestApp();
  try {
    const html = await (await t.request("GET", "/api/login")).text();
    assert(!html.includes("/api/login/oidc"));
    await expectJson(await t.request("GET", "/api/login/oidc"), 404);
    await expectJson(await t.request("GET", "/api/login/oidc/callback?code=x&state=y"), 404);
  } finally {
    await t.close();
  }
});

Deno.test("deno task user:reset-mfa removes a lost authenticator: sessions end and the next sign-in enrols again", async () => {
  const t = await createTestApp({ REQUIRE_MFA: "1" });
  try {
    const login = await t.request("POST", "/api/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    await login.body?.cancel();
    const { enrolment } = await expectJson(
      await t.request("GET", "/api/auth/second-factor", { cookie: cookieOf(login) }),
      200,
    );
    const enrolled = await t.request("POST", "/api/login/second-factor", {
      cookie: cookieOf(login),
      body: { otp: totpNow(enrolment.secret) },
    });
    await expectJson(enrolled, 200);
    const full = cookieOf(enrolled);

    const script = new URL("../../scripts/mfa_reset.ts", import.meta.url).pathname;
    const run = await new Deno.Command(Deno.execPath(), {
      // The permissions of `deno task user:reset-mfa` (deno.json).
      args: [
        "run",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "--allow-ffi",
        "--allow-sys=cpus,networkInterfaces,hostname",
        script,
        "--email",
        ADMIN_EMAIL.toUpperCase(),
      ],
      env: { DATA_DIR: t.dataDir },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert(run.success, new TextDecoder().decode(run.stderr));
    assert.match(new TextDecoder().decode(run.stdout), /Removed the second factor/);

    await expectJson(await t.request("GET", "/api/auth/user", { cookie: full }), 401);
    const again = await t.request("POST", "/api/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    assert.equal((await expectJson(again, 200)).secondFactor, "enrol");
    assert.equal((await t.deps.db.read.select().from(userRecoveryCodes).all()).length, 0);
  } finally {
    await t.close();
  }
});

Deno.test("an unreachable identity provider gives a 502 page, not a stack trace, and the next try discovers again", async () => {
  const t = await createTestApp({
    OIDC_ISSUER: "http://127.0.0.1:1",
    OIDC_CLIENT_ID: "registry-console",
    OIDC_CLIENT_SECRET: "s3cret",
    OIDC_REDIRECT_URI: "http://localhost/api/login/oidc/callback",
    OIDC_ROLE_MAP: "registry-admins=admin",
    OIDC_PROVIDER_NAME: "Bank ID",
  });
  try {
    const page = await (await t.request("GET", "/api/login")).text();
    assert.match(page, /href="\/api\/login\/oidc"[^>]*>Sign in with Bank ID</);
    assert(!page.includes('name="password"'), "no password form without the break-glass setting");
    for (let i = 0; i < 2; i++) {
      const res = await t.request("GET", "/api/login/oidc");
      assert.equal(res.status, 502);
      assert.match(await res.text(), /The identity provider cannot be reached/);
    }
    const callback = await t.request("GET", "/api/login/oidc/callback?code=x&state=y");
    assert.equal(callback.status, 401);
    assert.match(
      await callback.text(),
      /Single sign-on failed\. The sign-in took too long or was started elsewhere\./,
    );
    await expectJson(
      await t.request("POST", "/api/login", { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } }),
      403,
    );
  } finally {
    await t.close();
  }
});

Deno.test("a session owing its second factor lasts ten minutes and is not kept alive by the calls it is refused", async () => {
  const t = await createTestApp({ REQUIRE_MFA: "1" });
  try {
    const login = await t.request("POST", "/api/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    await login.body?.cancel();
    const before = (await t.deps.db.read.select().from(sessions).get())!.expire;
    assert(Date.parse(before) <= Date.now() + 10 * 60_000);
    // Later, in another process, with the session last seen long ago: a refused call does not extend it.
    const lastSeenAt = new Date(Date.now() - 5 * 60_000).toISOString();
    const row = (await t.deps.db.read.select().from(sessions).get())!;
    await t.deps.db.transaction((tx) => tx.update(sessions).set({ sess: { ...row.sess, lastSeenAt } }));
    const other = await createTestApp({ REQUIRE_MFA: "1" }, { dataDir: t.dataDir });
    try {
      await expectJson(await other.request("GET", "/api/institutions", { cookie: cookieOf(login) }), 403);
    } finally {
      await other.close();
    }
    assert.equal((await t.deps.db.read.select().from(sessions).get())!.expire, before);
  } finally {
    await t.close();
  }
});
