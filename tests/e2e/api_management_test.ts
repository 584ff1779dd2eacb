import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { DOCUMENTED_ENDPOINTS } from "../../src/domain/public_api.ts";
import { e2eTest, expectAccessible, signIn, withBrowser } from "./helpers.ts";

const KEY_NAME = "Clearing house integration";

/**
 * The shared toaster renders each toast as an <li> with a status/alert role, which axe reports as a
 * list violation; the notification is dismissed before a screen is checked.
 */
async function dismissToasts(page: Page) {
  for (const button of await page.getByRole("button", { name: "Dismiss notification" }).all()) {
    await button.click();
  }
}

async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name }).click();
}

/** The request log is written in batches: refresh until the row shows up. */
async function waitForLogRow(page: Page, text: RegExp) {
  const rows = page.getByRole("table", { name: "Recent API requests" }).getByRole("row").filter({
    hasText: text,
  });
  for (let attempt = 0; attempt < 20; attempt++) {
    if (await rows.count() > 0) return rows.first();
    await page.getByRole("button", { name: "Refresh" }).click();
    await page.waitForTimeout(250);
  }
  throw new Error(`no log row matching ${text}`);
}

e2eTest(
  "API Management: create a key on the Keys tab, call the API with it, see the call on the Logs tab, revoke it",
  () =>
    withBrowser(async ({ page, server }) => {
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], {
        origin: server.baseUrl,
      });
      await signIn(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/api-management`);
      await page.getByRole("heading", { name: "API Management", level: 1 }).waitFor();
      for (const label of ["Requests Today", "Error Rate", "Median Latency", "Active Keys"]) {
        await page.getByText(label, { exact: true }).waitFor();
      }

      // Endpoints: every documented endpoint, each with a copy-path button.
      const endpoints = page.getByRole("table", { name: "Documented endpoints" });
      await endpoints.getByText("/api/routing-codes/{code}").waitFor();
      assert.equal(await endpoints.getByRole("row").count(), 1 + DOCUMENTED_ENDPOINTS.length);
      await endpoints.getByText("/api/directory/editions/{n}/full.csv").waitFor();
      await page.getByRole("button", { name: "Copy path /api/search" }).click();
      await page.getByRole("button", { name: "Copied!" }).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), "/api/search");
      await dismissToasts(page);
      await expectAccessible(page, "API Management, Endpoints tab");

      // Keys: create one, shown once.
      await openTab(page, "Keys");
      await page.getByText("No API keys yet").waitFor();
      await page.getByLabel("Key name").fill(KEY_NAME);
      await page.getByRole("button", { name: "Create Key" }).click();
      // Headless UI's dialog root has no box of its own: wait for what it shows.
      const dialog = page.getByRole("dialog", { name: "API key created" });
      await dialog.getByText("You will not see it again").waitFor();
      const key = await dialog.getByLabel(`API key "${KEY_NAME}"`).inputValue();
      assert.match(key, /^cbr_live_[A-Za-z0-9]{43}$/);
      await expectAccessible(page, "API Management, new key dialog");
      await dialog.getByRole("button", { name: "Copy API key" }).click();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);
      await dialog.getByRole("button", { name: "Done" }).click();
      await dismissToasts(page);
      const keys = page.getByRole("table", { name: "API keys" });
      await keys.getByRole("cell", { name: KEY_NAME, exact: true }).waitFor();
      assert(
        !(await page.content()).includes(key),
        "the key is gone from the page once the dialog is closed",
      );
      await expectAccessible(page, "API Management, Keys tab");

      // The API with the key: the envelope and the limit headers.
      const res = await fetch(`${server.baseUrl}/api/institutions`, {
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("ratelimit-limit"), "100");
      const body = await res.json();
      assert.deepEqual([body.success, Array.isArray(body.data)], [true, true]);

      // Logs: the call is there, attributed to the key.
      await openTab(page, "Logs");
      await page.getByLabel("Endpoint", { exact: true }).selectOption("/api/institutions");
      await page.getByLabel("Status", { exact: true }).selectOption("2xx");
      const row = await waitForLogRow(page, new RegExp(`Key: ${KEY_NAME}`));
      assert.match(await row.innerText(), /\/api\/institutions[\s\S]*200/);
      await expectAccessible(page, "API Management, Logs tab");
      await row.getByRole("button", { name: /^Details of GET \/api\/institutions/ }).click();
      const details = page.getByRole("dialog", { name: "GET /api/institutions" });
      await details.getByRole("region", { name: "Response payload" }).getByText('"success": true').waitFor();
      await expectAccessible(page, "API Management, log entry dialog");
      await details.getByRole("button", { name: "Close" }).click();

      // Docs: the header, the base URL, the envelope, 429, and the OpenAPI operations.
      await openTab(page, "Docs");
      await page.getByText(`${server.baseUrl}/api`, { exact: true }).waitFor();
      await page.getByText("HTTP 429 Too Many Requests").waitFor();
      await page.getByRole("article", { name: "GET /api/routing-codes/{code}" }).waitFor();
      await page.getByRole("article", { name: "POST /api/iban/validate" }).waitFor();
      await expectAccessible(page, "API Management, Docs tab");

      // Revoke: the key stops working at once.
      await openTab(page, "Keys");
      await page.getByRole("button", { name: `Revoke ${KEY_NAME}` }).click();
      const confirm = page.getByRole("dialog", { name: "Revoke API key?" });
      await confirm.getByRole("button", { name: "Revoke Key" }).waitFor();
      await expectAccessible(page, "API Management, revoke dialog");
      await confirm.getByRole("button", { name: "Revoke Key" }).click();
      await keys.getByText("revoked").waitFor();
      await page.getByTestId("toast").getByText("API key revoked").waitFor();
      const after = await fetch(`${server.baseUrl}/api/institutions`, {
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(after.status, 401);
      assert.match(await after.text(), /Unauthorized/);
    }),
);

e2eTest(
  "API Management: an ended session shows the Unauthorized toast and returns to sign-in",
  () =>
    withBrowser(async ({ page, server }) => {
      await signIn(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/api-management`);
      await page.getByRole("heading", { name: "API Management", level: 1 }).waitFor();
      const cookies = await page.context().cookies();
      await page.context().clearCookies();
      await page.context().addCookies(
        cookies.map((cookie) => ({ ...cookie, value: "revoked-session-token" })),
      );
      await openTab(page, "Keys");
      const toast = page.getByTestId("toast");
      await toast.waitFor();
      assert.match(await toast.innerText(), /Unauthorized[\s\S]*You are logged out\. Logging in again\.\.\./);
      await page.waitForURL(`${server.baseUrl}/api/login`);
    }),
);
