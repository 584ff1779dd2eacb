/**
 * Settings → Notifications against a real server and a real SMTP server on 127.0.0.1: an administrator
 * sets the mail server (the password is stored, never shown again), "Send test e-mail" reaches the
 * mail server addressed to that administrator with no secret in it, the user's own e-mail choices
 * survive a reload, SMS is off with its reason, and an operator reads the mail server without a form.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startMailServer } from "../helpers/mail_server.ts";
import { E2E_ADMIN_EMAIL, e2eTest, expectAccessible, signIn, signInAsOperator, withBrowser } from "./helpers.ts";

const SMTP_USER = "console-relay";
const SMTP_PASSWORD = "relay-secret-Zq7!";

async function openNotificationsTab(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/settings`);
  await page.getByRole("heading", { name: "System Settings", level: 1 }).waitFor();
  await page.getByRole("tab", { name: "Notifications" }).click();
}

async function dismissToast(page: Page, title: string) {
  const toast = page.getByTestId("toast").filter({ hasText: title });
  await toast.waitFor();
  await toast.getByRole("button", { name: "Dismiss notification" }).click();
}

e2eTest(
  "Settings, Notifications: the mail server is kept by the server, the test e-mail arrives, e-mail choices persist",
  async () => {
    const mail = await startMailServer({ user: SMTP_USER, password: SMTP_PASSWORD });
    try {
      await withBrowser(async ({ page, server }) => {
        await signIn(page, server.baseUrl);
        await openNotificationsTab(page, server.baseUrl);
        await page.getByLabel("SMTP host").fill("127.0.0.1");
        await page.getByLabel("Port", { exact: true }).fill(String(mail.port));
        await page.getByLabel("Encryption").selectOption("none");
        await page.getByLabel("Sender address").fill("registry@centralbank.test");
        await page.getByLabel("User name").fill(SMTP_USER);
        await page.getByLabel("Password").fill(SMTP_PASSWORD);
        await page.getByRole("button", { name: "Save e-mail settings" }).click();
        await dismissToast(page, "E-mail settings saved");

        await page.reload();
        await page.getByRole("tab", { name: "Notifications" }).click();
        await page.getByText("A password is stored; leave blank to keep it").waitFor();
        assert.equal(await page.getByLabel("Password").inputValue(), "", "the password is never shown again");
        assert.ok(!(await page.content()).includes(SMTP_PASSWORD));

        await page.getByRole("button", { name: "Send test e-mail" }).click();
        await dismissToast(page, "Test e-mail sent");
        assert.equal(mail.received.length, 1);
        assert.deepEqual(mail.received[0].to, [E2E_ADMIN_EMAIL]);
        assert.ok(!mail.received[0].data.includes(SMTP_PASSWORD), "no secret in the e-mail");

        const choice = page.getByRole("switch", { name: "A connection test failed" });
        const before = await choice.getAttribute("aria-checked");
        await choice.click();
        await dismissToast(page, "E-mail choices saved");
        await page.reload();
        await page.getByRole("tab", { name: "Notifications" }).click();
        const after = page.getByRole("switch", { name: "A connection test failed" });
        await after.waitFor();
        assert.notEqual(await after.getAttribute("aria-checked"), before, "the choice survives a reload");

        const sms = page.getByRole("switch", { name: "SMS notifications" });
        assert.equal(await sms.isDisabled(), true);
        assert.equal(await sms.getAttribute("aria-checked"), "false");
        await expectAccessible(page, "Settings, Notifications");
      }, { ALLOW_NET_HOSTS: `127.0.0.1:${mail.port}` });
    } finally {
      await mail.stop();
    }
  },
);

e2eTest("Settings, Notifications: an operator reads the mail server without a form", () =>
  withBrowser(async ({ page, server }) => {
    await signInAsOperator(page, server.baseUrl);
    await openNotificationsTab(page, server.baseUrl);
    await page.getByText("No mail server is configured: notifications appear in the bell only.").waitFor();
    assert.equal(await page.getByRole("button", { name: "Save e-mail settings" }).count(), 0);
    await page.getByRole("switch", { name: "A request waits for my decision" }).waitFor();
  }));
