/**
 * The System Settings screen against a real server: the system's name heads the shell, "Back up now"
 * reports the copy, a Security change under dual control is a request (not "saved") that a second
 * administrator approves, and staff who are not administrators see the settings read-only.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { cookieSession, e2eCrew, e2eTest, signIn, signInAsOperator, withBrowser } from "./helpers.ts";

/** The toast that says `title` (earlier toasts may still show), read and dismissed. */
async function toastText(page: Page, title: string): Promise<string> {
  const toast = page.getByTestId("toast").filter({ hasText: title });
  await toast.waitFor();
  const text = await toast.innerText();
  await toast.getByRole("button", { name: "Dismiss notification" }).click();
  return text;
}

async function openSettings(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/settings`);
  await page.getByRole("heading", { name: "System Settings", level: 1 }).waitFor();
}

e2eTest(
  "System Settings: the name heads the shell, Back up now reports the copy, security changes under dual control wait for a second administrator",
  () =>
    withBrowser(async ({ page, server }) => {
      await signIn(page, server.baseUrl);
      await openSettings(page, server.baseUrl);
      await page.getByLabel("System Name").fill("Reserve Bank Registry");
      await page.getByLabel("System Description").fill("The reserve bank's payment registry");
      await page.getByLabel("Country").selectOption("DE");
      await page.getByLabel("Currency").selectOption("EUR");
      await page.getByLabel("Timezone").selectOption("CET");
      await page.getByRole("button", { name: "Save Settings" }).click();
      assert.match(await toastText(page, "Settings Saved"), /saved on the server/);
      await page.getByTestId("system-name").filter({ hasText: "Reserve Bank Registry" }).first().waitFor();
      await page.getByTestId("system-description").filter({ hasText: "The reserve bank's payment registry" }).first()
        .waitFor();
      assert.equal(await page.getByTestId("system-locale").textContent(), "Country, currency and time zone:DE · EUR · CET");

      await page.getByRole("tab", { name: "Backup" }).click();
      await page.getByText("No backup taken yet").waitFor();
      await page.getByRole("button", { name: "Back up now" }).click();
      assert.match(await toastText(page, "Backup Started"), /shows how it ends/);
      await page.getByText(/^Completed at /).waitFor();

      // A second administrator exists from here on: dual control is in force.
      const crew = await e2eCrew(server.baseUrl);
      await page.reload();
      await page.getByRole("heading", { name: "System Settings", level: 1 }).waitFor();
      await page.getByRole("tab", { name: "Security" }).click();
      await page.getByLabel("Session Timeout (minutes)").fill("15");
      await page.getByLabel("Password Policy").selectOption("complex");
      await page.getByLabel("Reason for approval").fill("Examiners' finding on idle sessions");
      await page.getByRole("button", { name: "Save Settings" }).click();
      const pending = await toastText(page, "Submitted for approval");
      assert.match(pending, /a second administrator must approve it/);
      assert.equal(await page.getByTestId("toast").filter({ hasText: "Settings Saved" }).count(), 0);
      assert.equal(
        await page.getByLabel("Session Timeout (minutes)").inputValue(),
        "30",
        "nothing changed yet",
      );

      const second = cookieSession(server.baseUrl, crew.secondAdministrator);
      const queue = await second("GET", "/api/approvals?status=pending");
      const items = (queue.json.items ?? queue.json) as { id: string; kind: string }[];
      const request = items.find((item) => item.kind === "security_settings");
      assert.ok(request, "the request is in the queue");
      assert.equal(
        (await second("POST", `/api/approvals/${request.id}/approve`, { reason: "Agreed" })).status,
        200,
      );
      await page.reload();
      await page.getByRole("tab", { name: "Security" }).click();
      assert.equal(await page.getByLabel("Session Timeout (minutes)").inputValue(), "15");
      assert.equal(await page.getByLabel("Password Policy").inputValue(), "complex");
    }),
);

e2eTest(
  "System Settings: staff who are not administrators see the settings read-only",
  () =>
    withBrowser(async ({ page, server }) => {
      await signInAsOperator(page, server.baseUrl);
      await openSettings(page, server.baseUrl);
      await page.getByText("Only administrators can change these settings").waitFor();
      assert.equal(await page.getByRole("button", { name: "Save Settings" }).count(), 0);
      assert.equal(await page.getByLabel("System Name").isDisabled(), true);
      await page.getByRole("tab", { name: "Backup" }).click();
      assert.equal(await page.getByRole("button", { name: "Back up now" }).count(), 0);
      assert.equal(await page.getByRole("switch", { name: "Automatic backups" }).isDisabled(), true);
    }),
);
