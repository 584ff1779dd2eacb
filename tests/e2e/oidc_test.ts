import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startProvider, type Tamper, type TestProvider } from "../helpers/oidc_provider.ts";
import { createClient } from "@libsql/client";
import {
  accountLabels,
  apiSession,
  chooseSignOut,
  E2E_ADMIN_EMAIL,
  E2E_ADMIN_PASSWORD,
  e2eTest,
  expectAccessible,
  freePort,
  type TestServer,
  withBrowser,
} from "./helpers.ts";

const ACCOUNTS = {
  alice: { givenName: "Alice", familyName: "Auditor", roles: ["registry-admins", "staff"] },
  bob: { roles: ["registry-staff"] },
  mallory: { roles: ["visitors"] },
  unverified: { roles: ["registry-staff"], emailVerified: false },
};

/** A console server wired to a fresh provider on loopback, and both torn down after `fn`. */
async function withSso(
  fn: (ctx: { page: Page; baseUrl: string; provider: TestProvider; server: TestServer }) => Promise<void>,
  env: Record<string, string> = {},
) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const provider = await startProvider(`${baseUrl}/api/login/oidc/callback`, ACCOUNTS);
  try {
    await withBrowser(({ page, server }) => fn({ page, baseUrl, provider, server }), {
      PORT: String(port),
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_REDIRECT_URI: `${baseUrl}/api/login/oidc/callback`,
      OIDC_PROVIDER_NAME: "Bank ID",
      OIDC_ROLE_MAP: "registry-admins=admin,registry-staff=operator",
      ...env,
    });
  } finally {
    await provider.stop();
  }
}

/** From the console's sign-in page through the provider's own sign-in and consent pages. */
async function signInAtProvider(page: Page, baseUrl: string, login: string) {
  await page.goto(`${baseUrl}/api/login`);
  await page.getByRole("link", { name: "Sign in with Bank ID" }).click();
  await page.getByPlaceholder("Enter any login").fill(login);
  await page.getByPlaceholder("and password").fill("any-password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

const currentUser = async (page: Page, baseUrl: string) => {
  const res = await page.request.get(`${baseUrl}/api/auth/user`);
  return { status: res.status(), body: res.status() === 200 ? await res.json() : null };
};

e2eTest(
  "single sign-on: the full browser flow signs in with the mapped role, and sign-out ends the session",
  () =>
    withSso(async ({ page, baseUrl }) => {
      await page.goto(`${baseUrl}/api/login`);
      await expectAccessible(page, "sign-in page with single sign-on");
      // Without the break-glass setting there is no password form at all.
      assert.equal(await page.getByLabel("Password").count(), 0);
      await signInAtProvider(page, baseUrl, "alice");
      await page.waitForURL(`${baseUrl}/`);
      assert.equal((await accountLabels(page)).user, "Alice Auditor");
      const alice = await currentUser(page, baseUrl);
      assert.equal(alice.body.email, "alice@centralbank.test");
      assert.equal(alice.body.role, "admin");

      await chooseSignOut(page);
      await page.getByRole("heading", { name: "National Payment Infrastructure Management" }).waitFor();
      assert.equal((await currentUser(page, baseUrl)).status, 401);

      // Password sign-in is closed while single sign-on is on, even for the local administrator.
      const local = await page.request.post(`${baseUrl}/api/login`, {
        data: { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD },
      });
      assert.equal(local.status(), 403);
      assert.match((await local.json()).message, /Sign in with Bank ID/);
    }),
);

e2eTest(
  "single sign-on: role mapping gives operators their role and turns away accounts with no mapped role",
  () =>
    withSso(async ({ page, baseUrl }) => {
      await signInAtProvider(page, baseUrl, "bob");
      await page.waitForURL(`${baseUrl}/`);
      assert.equal((await currentUser(page, baseUrl)).body.role, "operator");
      await chooseSignOut(page);
      await page.getByRole("heading", { name: "National Payment Infrastructure Management" }).waitFor();
      await page.context().clearCookies();

      await signInAtProvider(page, baseUrl, "mallory");
      await page.getByRole("alert").filter({ hasText: "has no role in the console" }).waitFor();
      assert.equal((await currentUser(page, baseUrl)).status, 401);
      await page.context().clearCookies();

      await signInAtProvider(page, baseUrl, "unverified");
      await page.getByRole("alert").filter({ hasText: "did not confirm your e-mail address" }).waitFor();
      assert.equal((await currentUser(page, baseUrl)).status, 401);
    }),
);

e2eTest(
  "single sign-on refuses an ID token with a wrong issuer, audience or nonce, an expired one, a bad signature, and a state mismatch",
  () =>
    withSso(async ({ page, baseUrl, provider, server }) => {
      const faults: Tamper[] = ["issuer", "audience", "nonce", "expired", "signature"];
      for (const fault of faults) {
        provider.tamper(fault);
        await page.context().clearCookies();
        await signInAtProvider(page, baseUrl, "alice");
        await page.getByRole("alert").filter({ hasText: "answer could not be verified" }).waitFor();
        assert.equal((await currentUser(page, baseUrl)).status, 401, `signed in despite a tampered ${fault}`);
      }
      provider.tamper(null);

      // State mismatch: a sign-in started, then another one in the same browser, and the provider's
      // answer to the first comes back; it carries the first state, the browser holds the second.
      await page.context().clearCookies();
      const begin = () => page.request.get(`${baseUrl}/api/login/oidc`, { maxRedirects: 0 });
      const firstAuthorization = (await begin()).headers()["location"];
      assert.match(firstAuthorization, /state=/);
      await begin();
      await page.goto(firstAuthorization);
      await page.getByPlaceholder("Enter any login").fill("alice");
      await page.getByPlaceholder("and password").fill("any-password");
      await page.getByRole("button", { name: "Sign-in" }).click();
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByRole("alert").filter({ hasText: "answer could not be verified" }).waitFor();
      assert.equal((await currentUser(page, baseUrl)).status, 401);

      // Each refusal is for the fault sent, as the audit trail records it.
      const db = createClient({ url: server.databaseUrl });
      const reasons = (await db.execute(
        "SELECT json_extract(changes, '$.reason') AS reason FROM audit_trail WHERE action = 'login_failed' ORDER BY seq",
      )).rows.map((row) => String(row.reason));
      db.close();
      assert.equal(reasons.length, 6);
      const expected = [/"iss"/, /"aud"/, /"nonce"/, /"exp"/, /signature verification failed/, /"state"/];
      expected.forEach((pattern, i) => assert.match(reasons[i], pattern));

      // The same provider, untampered, still signs in: the refusals were the faults, not the setup.
      await page.context().clearCookies();
      await signInAtProvider(page, baseUrl, "alice");
      await page.waitForURL(`${baseUrl}/`);
      assert.equal((await currentUser(page, baseUrl)).status, 200);
    }),
);

e2eTest(
  "with the break-glass setting, the local administrator signs in with a password beside single sign-on",
  () =>
    withSso(async ({ page, baseUrl }) => {
      await page.goto(`${baseUrl}/api/login`);
      await page.getByRole("heading", { name: "Break-glass administrator sign-in" }).waitFor();
      await page.getByLabel("E-mail address").fill(E2E_ADMIN_EMAIL);
      await page.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await page.waitForURL(`${baseUrl}/`);
      assert.equal((await currentUser(page, baseUrl)).body.email, E2E_ADMIN_EMAIL);
    }, { OIDC_LOCAL_BREAK_GLASS: "1" }),
);

e2eTest(
  "single sign-on: a provider account with a local account's e-mail is refused until an administrator links it on the Users screen",
  () =>
    withSso(async ({ page, baseUrl }) => {
      const api = await apiSession(baseUrl, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD);
      const created = await api("POST", "/api/users", { email: "bob@centralbank.test", roles: ["operator"] });
      assert.equal(created.status, 201);
      await signInAtProvider(page, baseUrl, "bob");
      await page.getByRole("alert").filter({ hasText: "an administrator must link your provider identity to it" })
        .waitFor();
      assert.equal((await currentUser(page, baseUrl)).status, 401);

      await page.context().clearCookies();
      await page.goto(`${baseUrl}/api/login`);
      await page.getByLabel("E-mail address").fill(E2E_ADMIN_EMAIL);
      await page.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await page.waitForURL(`${baseUrl}/`);
      await page.goto(`${baseUrl}/users`);
      await page.getByRole("row").filter({ hasText: "bob@centralbank.test" }).getByRole("button", { name: "Identities" })
        .click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText("No provider identity is linked.").waitFor();
      await dialog.getByLabel("Subject").fill("bob");
      await dialog.getByRole("button", { name: "Link identity" }).click();
      await dialog.getByRole("list", { name: "Linked identities" }).getByText("bob", { exact: true }).waitFor();
      await expectAccessible(page, "the sign-in identities dialog");

      await page.context().clearCookies();
      await signInAtProvider(page, baseUrl, "bob");
      await page.waitForURL(`${baseUrl}/`);
      const bob = await currentUser(page, baseUrl);
      assert.equal(bob.body.id, created.json.user.id, "the provider account lands on the linked user");
      assert.equal(bob.body.mustChangePassword, false, "no local password step");
    }, { OIDC_LOCAL_BREAK_GLASS: "1" }),
);
