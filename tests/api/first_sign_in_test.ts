/**
 * The first sign-in's pages and steps, in process: the sign-in page's word on the authenticator app
 * (by REQUIRE_MFA and the MFA setting), the step indicator of every step, and the recovery codes'
 * download and confirmation.
 */
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { TOTP } from "otpauth";
import { signInSettings, userCredentials } from "../../db/schema.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0];
const totpNow = (secret: string) => new TOTP({ secret, algorithm: "SHA1", digits: 6, period: 30 }).generate();
const form = (fields: Record<string, string>) => new URLSearchParams(fields);

async function loginPage(t: TestApp): Promise<string> {
  const res = await t.request("GET", "/api/login");
  assert.equal(res.status, 200);
  return await res.text();
}

/** The heading and the current item of the step indicator in a page. */
function stepOf(html: string) {
  const heading = html.match(/data-testid="sign-in-step-heading">([^<]*)</)?.[1] ?? null;
  const current = html.match(/aria-current="step">.*?<span>([^<]*)/)?.[1] ?? null;
  return { heading, current };
}

Deno.test("the sign-in page says beforehand who needs an authenticator app", async () => {
  const off = await createTestApp({ REQUIRE_MFA: "0" });
  try {
    assert(!(await loginPage(off)).includes("authenticator-notice"), "REQUIRE_MFA=0: nobody needs one");
  } finally {
    await off.close();
  }
  const on = await createTestApp({ REQUIRE_MFA: "1" });
  try {
    assert.match(await loginPage(on), /You also need an authenticator app \(any TOTP app, RFC 6238/);
    await on.deps.db.transaction((tx) =>
      tx.update(signInSettings).set({ mfaRequiredForAll: false }).where(eq(signInSettings.id, 1))
    );
    assert.match(await loginPage(on), /Administrators and approvers also need an authenticator app/);
  } finally {
    await on.close();
  }
});

Deno.test("a first sign-in counts its steps: enrolment 2 of 4, recovery codes 3 of 4, then the new password's step in /api/auth/user", async () => {
  const t = await createTestApp({ REQUIRE_MFA: "1" });
  try {
    await t.deps.db.transaction((tx) => tx.update(userCredentials).set({ mustChangePassword: true }));
    const login = await t.request("POST", "/api/login", {
      body: form({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    assert.equal(login.status, 303);
    const pending = cookieOf(login);
    const enrolPage = await (await t.request("GET", "/api/login/second-factor", { cookie: pending })).text();
    assert.deepEqual(stepOf(enrolPage), {
      heading: "Step 2 of 4: Set up your authenticator app",
      current: "Set up your authenticator app",
    });
    assert.match(enrolPage, /<nav aria-label="Sign-in steps"[^>]*>[\s\S]*<ol/);
    const { enrolment } = await expectJson(
      await t.request("GET", "/api/auth/second-factor", { cookie: pending }),
      200,
    );
    const groups = [...enrolPage.matchAll(/data-testid="totp-secret-group">([A-Z2-7]+)</g)].map((m) => m[1]);
    assert.equal(groups.join(""), enrolment.secret);
    assert(groups.every((group) => group.length === 4));

    const confirmed = await t.request("POST", "/api/login/second-factor", {
      cookie: pending,
      body: form({ otp: totpNow(enrolment.secret) }),
    });
    assert.equal(confirmed.status, 200);
    const codesPage = await confirmed.text();
    assert.deepEqual(stepOf(codesPage), {
      heading: "Step 3 of 4: Save your recovery codes",
      current: "Save your recovery codes",
    });
    const codes = [...codesPage.matchAll(/<li class="whitespace-nowrap[^"]*">([A-Z2-7-]{19})<\/li>/g)].map((
      m,
    ) => m[1]);
    assert.equal(codes.length, 10);
    const href = codesPage.match(/href="data:text\/plain;charset=utf-8,([^"]*)" download="([^"]*)"/);
    assert(href, "a download link");
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(href[2], `recovery-codes-${ADMIN_EMAIL}-${today}.txt`);
    const text = decodeURIComponent(href[1]);
    assert.match(text, /^Central Bank Registry Console: recovery codes\nConsole: http:\/\/localhost\n/);
    assert(text.includes(`Account: ${ADMIN_EMAIL}\nIssued: ${today} (UTC)\n`), text);
    assert.deepEqual(text.trim().split("\n").slice(-10), codes);
    assert.match(codesPage, /<input id="codes-saved" type="checkbox" required/);

    const user = await expectJson(
      await t.request("GET", "/api/auth/user", { cookie: cookieOf(confirmed) }),
      200,
    );
    assert.equal(user.mustChangePassword, true);
    assert.deepEqual(user.signInSteps.map((step: { id: string }) => step.id), [
      "password",
      "enrol",
      "recovery_codes",
      "new_password",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("an ordinary sign-in has no steps to count; a one-time password without a second factor counts two", async () => {
  const t = await createTestApp({ REQUIRE_MFA: "0" });
  try {
    const plain = await expectJson(
      await t.request("GET", "/api/auth/user", { cookie: await t.login() }),
      200,
    );
    assert.equal(plain.signInSteps, undefined);
    await t.deps.db.transaction((tx) => tx.update(userCredentials).set({ mustChangePassword: true }));
    const reset = await expectJson(
      await t.request("GET", "/api/auth/user", { cookie: await t.login() }),
      200,
    );
    assert.deepEqual(reset.signInSteps.map((step: { label: string }) => step.label), [
      "Sign in with your password",
      "Choose a new password",
    ]);
  } finally {
    await t.close();
  }
});
