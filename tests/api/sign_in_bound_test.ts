/**
 * The sign-in back-off's promises, through the HTTP API: the owner of an account under a guessing
 * attack gets in from a new browser after one wait of at most 30 s (measured in real time against a
 * real guessing loop), the second factor's limits, and the "under attack" event for administrators.
 */
import { soleGrant } from "../../src/server/auth/role_grants.ts";
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { TOTP } from "otpauth";
import { createUser } from "../../src/server/auth/users.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0];

/** A JSON POST reaching the console through one trusted proxy (TRUST_PROXY=1) for the client `address`. */
function viaProxy(t: TestApp, path: string, address: string, body: unknown, cookie?: string) {
  const headers: Record<string, string> = { "content-type": "application/json", "x-forwarded-for": address };
  if (cookie) headers.cookie = cookie;
  return Promise.resolve(t.app.request(`http://localhost${path}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  }, { remoteAddr: { hostname: "127.0.0.1" } }));
}

/**
 * An attack that has gone on for a minute: its failures have driven the keys' waits to their 30 s
 * cap, the last failure just now (what a minute of guessing every 250 ms leaves behind).
 */
async function attackUnderWay(t: TestApp, keys: string[]) {
  const now = Date.now();
  for (const key of keys) {
    await t.deps.db.transaction((tx) =>
      tx.run(sql`INSERT INTO login_throttle (key, failures, window_started_at, locked_until)
        VALUES (${key}, 12, ${new Date(now).toISOString()}, ${new Date(now + 30_000).toISOString()})`)
    );
  }
}

interface Pair {
  email: string;
  password: string;
  guesserAddress: string;
  ownerAddress: string;
}

/** A wrong password for the owner's e-mail every 250 ms, keeping no cookies, until told to stop. */
async function guess(t: TestApp, pair: Pair, stop: { done: boolean }) {
  const statuses: number[] = [];
  const started = Date.now();
  for (let i = 0; !stop.done; i++) {
    const res = await viaProxy(t, "/api/login", pair.guesserAddress, {
      email: pair.email,
      password: `guess-${i}-x`,
    });
    await res.body?.cancel();
    statuses.push(res.status);
    await sleep(Math.max(0, started + (i + 1) * 250 - Date.now()));
  }
  return statuses;
}

/** The owner in a new browser: tries, and when told to wait, waits Retry-After and tries again with its cookies. */
async function ownerSignsIn(t: TestApp, pair: Pair) {
  await sleep(1_000);
  const started = Date.now();
  const attempts: { status: number; retryAfter: number | null; afterMs: number }[] = [];
  let cookie: string | undefined;
  for (let i = 0; i < 2; i++) {
    const res = await viaProxy(t, "/api/login", pair.ownerAddress, {
      email: pair.email,
      password: pair.password,
    }, cookie);
    await res.body?.cancel();
    const retryAfter = res.headers.get("retry-after");
    attempts.push({
      status: res.status,
      retryAfter: retryAfter ? Number(retryAfter) : null,
      afterMs: Date.now() - started,
    });
    if (res.status !== 429) break;
    cookie = res.headers.getSetCookie().map((value) => value.split(";")[0]).join("; ") || cookie;
    await sleep(Number(retryAfter) * 1000);
  }
  return attempts;
}

Deno.test("the bound, measured: guessed every 250 ms from another address or from the owner's own, the owner in a new browser is in after one wait of at most 30 s", async () => {
  const t = await createTestApp({ TRUST_PROXY: "1" });
  try {
    const clerk = { email: "clerk@centralbank.test", password: "Quiet-Harbor-Lantern-4821" };
    await createUser(t.deps.db, t.deps.config, { ...clerk, roles: ["auditor"] }, soleGrant(null));
    const pairs: Pair[] = [
      {
        email: ADMIN_EMAIL,
        password: ADMIN_PASSWORD,
        guesserAddress: "127.0.0.10",
        ownerAddress: "127.0.0.11",
      },
      { ...clerk, guesserAddress: "127.0.0.20", ownerAddress: "127.0.0.20" },
    ];
    await attackUnderWay(t, [
      `account:${ADMIN_EMAIL}`,
      "address:127.0.0.10",
      `account:${clerk.email}`,
      "address:127.0.0.20",
    ]);
    const stop = { done: false };
    const guessers = pairs.map((pair) => guess(t, pair, stop));
    const owners = await Promise.all(pairs.map((pair) => ownerSignsIn(t, pair)));
    stop.done = true;
    const guessed = await Promise.all(guessers);

    for (const [i, attempts] of owners.entries()) {
      const where = i === 0 ? "from another address" : "from the owner's address";
      const last = attempts[attempts.length - 1];
      assert.equal(last.status, 200, `${where}: ${JSON.stringify(attempts)}`);
      assert(attempts.length <= 2, `${where}: waited more than once: ${JSON.stringify(attempts)}`);
      assert(attempts[0].status === 200 || attempts[0].retryAfter! <= 30, JSON.stringify(attempts));
      assert(last.afterMs <= 30_500, `${where}: in after ${last.afterMs} ms`);
    }
    for (const statuses of guessed) {
      assert(statuses.length >= 80, `the guesser sent ${statuses.length} requests`);
      assert(statuses.every((status) => status === 401 || status === 429));
      // One guess when the wait ends; nothing more in 30 s without a ticket of its own.
      assert(statuses.filter((status) => status === 401).length <= 2, JSON.stringify(statuses));
    }
  } finally {
    await t.close();
  }
});

Deno.test("40 parallel wrong passwords: four are judged (the three free tries and one at no wait), 36 refused unjudged", async () => {
  const t = await createTestApp();
  try {
    const answers = await Promise.all(
      Array.from(
        { length: 40 },
        (_, i) => t.request("POST", "/api/login", { body: { email: ADMIN_EMAIL, password: `guess-${i}-x` } }),
      ),
    );
    const statuses = answers.map((res) => res.status);
    for (const res of answers) await res.body?.cancel();
    assert.equal(statuses.filter((status) => status === 401).length, 4, statuses.join(" "));
    assert.equal(statuses.filter((status) => status === 429).length, 36, statuses.join(" "));
    const [{ n }] = await t.deps.db.read.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM audit_trail WHERE action = 'login_failed'`,
    );
    assert.equal(n, 4);
  } finally {
    await t.close();
  }
});

/** Signs in with the password as the first admin (REQUIRE_MFA=1: held to enrolment) and returns the pending cookie and the secret. */
async function pendingSignIn(t: TestApp) {
  const login = await t.request("POST", "/api/login", {
    body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  assert.equal((await expectJson(login, 200)).secondFactor, "enrol");
  const cookie = cookieOf(login);
  const { enrolment } = await expectJson(await t.request("GET", "/api/auth/second-factor", { cookie }), 200);
  const right = new TOTP({ secret: enrolment.secret, algorithm: "SHA1", digits: 6, period: 30 }).generate();
  return { cookie, wrong: right === "123456" ? "654321" : "123456" };
}

/** Sends wrong codes one after another, honouring Retry-After, until `judged` have been judged. */
async function wrongCodes(
  t: TestApp,
  cookie: string,
  wrong: string,
  judged: number,
  beforeEach?: () => Promise<void>,
) {
  const answers: { status: number; body: Record<string, unknown> }[] = [];
  while (answers.filter((answer) => answer.status === 401).length < judged) {
    await beforeEach?.();
    const res = await t.request("POST", "/api/login/second-factor", { cookie, body: { otp: wrong } });
    const body = await res.json();
    answers.push({ status: res.status, body });
    if (res.status === 429) await sleep(Number(res.headers.get("retry-after")) * 1000);
    else assert.equal(res.status, 401, JSON.stringify(body));
  }
  return answers.filter((answer) => answer.status === 401);
}

const countAudit = async (t: TestApp, action: string) =>
  (await t.deps.db.read.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM audit_trail WHERE action = ${action}`,
  ))[0].n;

Deno.test("second factor: the fifth wrong code ends the pending sign-in; the sixth answers that the password must be entered again", async () => {
  const t = await createTestApp({ REQUIRE_MFA: "1" });
  try {
    const { cookie, wrong } = await pendingSignIn(t);
    const judged = await wrongCodes(t, cookie, wrong, 5);
    assert.deepEqual(judged.slice(0, 4).map((answer) => answer.body.needed), [
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    assert.equal(judged[4].body.needed, "password");
    assert.match(String(judged[4].body.message), /Sign in with your password again/);
    const sixth = await expectJson(
      await t.request("POST", "/api/login/second-factor", { cookie, body: { otp: wrong } }),
      401,
    );
    assert.equal(sixth.needed, "password");
    assert.match(sixth.message, /password/);
    await expectJson(await t.request("GET", "/api/auth/second-factor", { cookie }), 401);
    assert.equal(await countAudit(t, "second_factor_failed"), 5);
    // The password again: a new pending sign-in, with its own five codes.
    await pendingSignIn(t);
  } finally {
    await t.close();
  }
});

Deno.test("second factor: a burst of 30 parallel codes gets exactly one judged, the rest 429 with Retry-After", async () => {
  const t = await createTestApp({ REQUIRE_MFA: "1" });
  try {
    const { cookie, wrong } = await pendingSignIn(t);
    const answers = await Promise.all(
      Array.from(
        { length: 30 },
        () => t.request("POST", "/api/login/second-factor", { cookie, body: { otp: wrong } }),
      ),
    );
    const statuses = answers.map((res) => res.status);
    assert.equal(statuses.filter((status) => status === 401).length, 1, statuses.join(" "));
    assert.equal(statuses.filter((status) => status === 429).length, 29, statuses.join(" "));
    for (const res of answers) {
      if (res.status === 429) assert.match(res.headers.get("retry-after") ?? "", /^[1-9]\d*$/);
      await res.body?.cancel();
    }
    assert.equal(await countAudit(t, "second_factor_failed"), 1);
  } finally {
    await t.close();
  }
});

Deno.test("second factor: the eleventh wrong code in an hour is refused unjudged; administrators see the account under attack", async () => {
  const t = await createTestApp({ REQUIRE_MFA: "1" });
  try {
    // The back-off between codes has its own test: here it is lifted before each code, to count the hour.
    const liftBackoff = () =>
      t.deps.db.transaction((tx) => tx.run(sql`DELETE FROM login_throttle`)).then(() => {});
    for (let i = 0; i < 2; i++) {
      const { cookie, wrong } = await pendingSignIn(t);
      await wrongCodes(t, cookie, wrong, 5, liftBackoff);
    }
    const { cookie, wrong } = await pendingSignIn(t);
    await liftBackoff();
    const eleventh = await t.request("POST", "/api/login/second-factor", { cookie, body: { otp: wrong } });
    const body = await expectJson(eleventh, 429);
    assert.match(
      body.message,
      /Too many wrong codes for this account in the last hour\. Try again in 60 minutes\./,
    );
    const retryAfter = Number(eleventh.headers.get("retry-after"));
    assert(retryAfter > 3_500 && retryAfter <= 3_600, `Retry-After ${retryAfter}`);
    assert.equal(await countAudit(t, "second_factor_failed"), 10);
    const events = await t.deps.db.read.all<{ entityType: string; changes: string }>(
      sql`SELECT entity_type AS entityType, changes FROM audit_trail WHERE action = 'sign_in_under_attack'`,
    );
    assert.deepEqual(events.map((event) => [event.entityType, JSON.parse(event.changes)]), [
      ["user", { factor: "second_factor", failures: 10 }],
    ]);

    // The dashboard, read without a second factor by the administrator and by an auditor.
    const relaxed = await createTestApp({ REQUIRE_MFA: "0" }, { dataDir: t.dataDir });
    try {
      const alerts = await expectJson(
        await relaxed.request("GET", "/api/dashboard/alerts", { cookie: await relaxed.login() }),
        200,
      );
      assert.equal(alerts.alerts[0].id, "sign-in-attacks");
      assert.equal(alerts.alerts[0].title, "1 account under sign-in attack");
      assert.match(alerts.alerts[0].text, new RegExp(ADMIN_EMAIL.replace(".", "\\.")));
      const auditor = { email: "reader@centralbank.test", password: "Quiet-Harbor-Lantern-4821" };
      await createUser(relaxed.deps.db, relaxed.deps.config, { ...auditor, roles: ["auditor"] }, soleGrant(null));
      const forAuditor = await expectJson(
        await relaxed.request("GET", "/api/dashboard/alerts", {
          cookie: await relaxed.login(auditor.email, auditor.password),
        }),
        200,
      );
      assert(!forAuditor.alerts.some((alert: { id: string }) => alert.id === "sign-in-attacks"));
    } finally {
      await relaxed.close();
    }
  } finally {
    await t.close();
  }
});

Deno.test("failed passwords: an account past ten failures in a row is reported under attack, once an hour", async () => {
  const t = await createTestApp();
  try {
    const clerk = { email: "clerk@centralbank.test", password: "Quiet-Harbor-Lantern-4821" };
    const { id } = await createUser(t.deps.db, t.deps.config, { ...clerk, roles: ["auditor"] }, soleGrant(null));
    // Nine failures so far, the last a minute ago: the wait is over and the next guess is judged.
    const nineFailures = () =>
      t.deps.db.transaction((tx) =>
        tx.run(sql`INSERT INTO login_throttle (key, failures, window_started_at, locked_until)
          VALUES (${`account:${clerk.email}`}, 9, ${new Date(Date.now() - 60_000).toISOString()}, NULL)
          ON CONFLICT (key) DO UPDATE SET failures = 9, window_started_at = excluded.window_started_at`)
      );
    for (let i = 0; i < 2; i++) {
      await nineFailures();
      await expectJson(
        await t.request("POST", "/api/login", { body: { email: clerk.email, password: `guess-${i}-x` } }),
        401,
      );
    }
    const events = await t.deps.db.read.all<{ entityId: string; changes: string }>(
      sql`SELECT entity_id AS entityId, changes FROM audit_trail WHERE action = 'sign_in_under_attack'`,
    );
    assert.deepEqual(events.map((event) => [event.entityId, JSON.parse(event.changes)]), [
      [id, { factor: "password", failures: 10 }],
    ]);
    const alerts = await expectJson(
      await t.request("GET", "/api/dashboard/alerts", { cookie: await t.login() }),
      200,
    );
    assert.deepEqual(alerts.alerts[0].title, "1 account under sign-in attack");
    assert.match(alerts.alerts[0].text, /clerk@centralbank\.test/);
  } finally {
    await t.close();
  }
});
