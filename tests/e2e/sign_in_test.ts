import assert from "node:assert/strict";
import { TOTP } from "otpauth";
import {
  chooseSignOut,
  E2E_ADMIN_EMAIL,
  E2E_ADMIN_PASSWORD,
  e2eTest,
  expectAccessible,
  signIn,
  withBrowser,
} from "./helpers.ts";

const codeFor = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret, algorithm: "SHA1", digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });

e2eTest(
  "second factor: an administrator enrols with the QR code's secret, keeps recovery codes, and gives a code next time",
  () =>
    withBrowser(async ({ page, server }) => {
      await page.goto(`${server.baseUrl}/api/login`);
      await page.getByLabel("E-mail address").fill(E2E_ADMIN_EMAIL);
      await page.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
      await page.getByRole("button", { name: "Sign In" }).click();
      await page.waitForURL(`${server.baseUrl}/api/login/second-factor`);
      const qr = page.getByRole("img", { name: "QR code for your authenticator app" });
      await qr.waitFor();
      assert.match(await qr.getAttribute("src") ?? "", /^data:image\/png;base64,/);
      await expectAccessible(page, "second-factor enrolment");
      // Held to enrolment: the console's API refuses everything else, naming what is needed.
      const held = await page.request.get(`${server.baseUrl}/api/institutions`);
      assert.equal(held.status(), 403);
      assert.match((await held.json()).message, /second factor/);

      const secret = (await page.getByTestId("totp-secret").innerText()).replaceAll(" ", "");
      await page.getByLabel("Code from the app").fill("000000" === codeFor(secret) ? "111111" : "000000");
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByRole("alert").filter({ hasText: "That code is not correct" }).waitFor();
      await page.getByLabel("Code from the app").fill(codeFor(secret));
      await page.getByRole("button", { name: "Continue" }).click();
      const codes = page.getByTestId("recovery-codes").getByRole("listitem");
      await codes.first().waitFor();
      assert.equal(await codes.count(), 10);
      await page.getByLabel("I have saved these codes").check();
      await page.getByRole("button", { name: "Continue to the console" }).click();
      await page.getByTestId("account-menu-button").waitFor();

      await chooseSignOut(page);
      await page.getByRole("heading", { name: "National Payment Infrastructure Management" }).waitFor();
      await page.goto(`${server.baseUrl}/api/login`);
      await page.getByLabel("E-mail address").fill(E2E_ADMIN_EMAIL);
      await page.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
      await page.getByRole("button", { name: "Sign In" }).click();
      await page.getByLabel("Authentication code").fill(codeFor(secret, 1));
      await page.getByRole("button", { name: "Continue" }).click();
      await page.waitForURL(`${server.baseUrl}/`);
      await page.getByTestId("account-menu-button").waitFor();
    }, { REQUIRE_MFA: "1" }),
);

e2eTest(
  "two minutes before the idle timeout the screen offers Stay signed in, which extends the session",
  () =>
    withBrowser(async ({ page, server }) => {
      await signIn(page, server.baseUrl);
      const dialog = page.getByRole("dialog", { name: "Your session is about to end" });
      // The dialog element itself has no box (its panel is fixed-positioned): wait for its title.
      await dialog.getByRole("heading", { name: "Your session is about to end" }).waitFor();
      await expectAccessible(page, "stay signed in");
      await page.waitForTimeout(2_000);
      const before = await page.getByTestId("session-countdown").innerText();
      const extended = page.waitForResponse((res) =>
        res.url().endsWith("/api/auth/session/extend") && res.status() === 200
      );
      await dialog.getByRole("button", { name: "Stay signed in" }).click();
      const body = await (await extended).json();
      assert(Date.parse(body.expiresAt) > Date.now() + 50_000);
      await page.waitForFunction(
        (previous) => document.querySelector("[data-testid=session-countdown]")?.textContent !== previous,
        before,
      );
    }, { SESSION_IDLE_MINUTES: "1" }),
);

e2eTest("a link to sign-out only asks; the button signs out", () =>
  withBrowser(async ({ page, server }) => {
    await signIn(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/api/logout`);
    assert.equal((await page.request.get(`${server.baseUrl}/api/auth/user`)).status(), 200);
    await page.getByRole("button", { name: "Sign Out" }).click();
    await page.getByRole("heading", { name: "National Payment Infrastructure Management" }).waitFor();
    assert.equal((await page.request.get(`${server.baseUrl}/api/auth/user`)).status(), 401);
  }));

e2eTest(
  "the Security tab's MFA switch is the server's setting: saved at once, still off after a reload",
  () =>
    withBrowser(async ({ page, server }) => {
      await signIn(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/settings`);
      await page.getByRole("tab", { name: "Security" }).click();
      const mfa = page.getByRole("switch", { name: "Require multi-factor authentication" });
      assert.equal(await mfa.getAttribute("aria-checked"), "true");
      await mfa.click();
      await page.getByTestId("toast").filter({ hasText: "Sign-in Setting Saved" }).waitFor();
      await page.evaluate(() => localStorage.clear());
      await page.reload();
      await page.getByRole("tab", { name: "Security" }).click();
      await page.waitForFunction(() =>
        document.querySelector("[role=switch][aria-checked=false]")?.closest("div")?.textContent?.includes(
          "multi-factor",
        )
      );
      const setting = await (await page.request.get(`${server.baseUrl}/api/auth/sign-in-settings`)).json();
      assert.equal(setting.mfaRequired, false);
    }),
);
