/**
 * The header's bell, live: an approver's bell shows a request another user files through the API
 * within a second (server-sent events), the entry links to its subject, and its read state survives
 * a reload; no accessibility violation with the list open.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { cookieSession, e2eCrew, e2eTest, expectAccessible, withBrowser } from "./helpers.ts";

/** Signs the page in with an API session's cookie ("name=value"). */
async function useSession(page: Page, baseUrl: string, cookie: string) {
  const [name, ...value] = cookie.split("=");
  await page.context().addCookies([{ name, value: value.join("="), url: baseUrl }]);
}

e2eTest("an approver's bell shows a new request within a second over SSE, and read state persists across reload", () =>
  withBrowser(async ({ page, server }) => {
    const crew = await e2eCrew(server.baseUrl);
    await useSession(page, server.baseUrl, crew.approver);
    const streamOpened = page.waitForResponse((res) => res.url().endsWith("/api/notifications/stream"));
    await page.goto(`${server.baseUrl}/`);
    const bell = page.getByTestId("notification-bell");
    await bell.waitFor();
    assert.equal((await streamOpened).status(), 200);
    assert.equal(await bell.getAttribute("aria-label"), "Notifications, none unread");

    // Another user files a request through the API.
    const operator = cookieSession(server.baseUrl, crew.operator);
    const filed = await operator("POST", "/api/ledger-accounts", {
      accountNumber: "E2E-BELL-LDG",
      accountType: "ledger",
      accountName: "Bell Ledger",
      currency: "USD",
      currentBalance: "2500.00",
      requestReason: "Opening the bell ledger",
    });
    assert.equal(filed.status, 202);
    const filedAt = Date.now();
    await page.getByTestId("notification-count").filter({ hasText: "1" }).waitFor({ timeout: 1_000 });
    const latencyMs = Date.now() - filedAt;
    assert(latencyMs < 1_000, `the bell took ${latencyMs} ms`);
    assert.equal(await bell.getAttribute("aria-label"), "Notifications, 1 unread");

    await bell.click();
    const panel = page.getByTestId("notification-panel");
    const entry = panel.getByTestId("notification-entry");
    await entry.waitFor();
    assert.match(await entry.innerText(), /Opening balance of \$2,500\.00 requested by .* waits for a decision/);
    await expectAccessible(page, "the bell's open list");
    await entry.getByRole("button", { name: /^Mark read/ }).click();
    await page.getByTestId("notification-count").waitFor({ state: "detached" });

    await page.reload();
    await bell.waitFor();
    await page.waitForTimeout(300);
    assert.equal(await page.getByTestId("notification-count").count(), 0);
    assert.equal(await bell.getAttribute("aria-label"), "Notifications, none unread");
    await bell.click();
    await entry.waitFor();
    assert.equal(await entry.getByRole("button", { name: /^Mark read/ }).count(), 0);
    // The entry links to its subject.
    await entry.getByRole("link").click();
    await page.waitForURL(`${server.baseUrl}/approvals`);
    await expectAccessible(page, "the approvals screen reached from the bell");
  }));
