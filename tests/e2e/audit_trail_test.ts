/**
 * The audit trail reads as sentences: an approved sweep names its approver, amount and accounts, each
 * linked to its screen; an event's changes open as a before/after table; filters live in the address,
 * so a reload keeps them. At a phone's and a desktop's size, with axe-core clean.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  cookieSession,
  e2eAdminCookie,
  e2eApprover,
  e2eCrew,
  e2eTest,
  expectAccessible,
  signIn,
  withBrowser,
} from "./helpers.ts";
import { openAccount } from "../helpers/http_staff.ts";

const VIEWPORTS = [{ width: 390, height: 844 }, { width: 1440, height: 900 }];

/** A sweep of 3,000,000.00 over the approval threshold, approved by the crew's approver; answers the approver's name. */
async function approvedSweep(baseUrl: string): Promise<string> {
  const crew = await e2eCrew(baseUrl);
  const operator = cookieSession(baseUrl, crew.operator);
  const liquid = await operator("POST", "/api/ledger-accounts", {
    accountNumber: "E2E-AT-LIQ",
    accountType: "liquid",
    accountName: "Audit Liquid",
    currency: "USD",
  });
  assert.equal(liquid.status, 201);
  const reserve = await openAccount(baseUrl, crew.operator, {
    accountNumber: "E2E-AT-RES",
    accountType: "ledger",
    accountName: "Audit Reserve",
    currency: "USD",
    currentBalance: "5000000.00",
  }, await e2eAdminCookie(baseUrl));
  const filed = await operator("POST", "/api/balance-sweeps", {
    sourceAccountId: reserve,
    targetAccountId: liquid.json.id,
    sweepAmount: "3000000.00",
    requestReason: "Quarter-end liquidity",
  });
  assert.equal(filed.status, 202, "above the threshold, the sweep waits for a second person");
  const approver = await e2eApprover(baseUrl);
  const approved = await approver("POST", `/api/approvals/${filed.json.approvalRequest.id}/approve`, {
    reason: "Figures checked",
  });
  assert.equal(approved.status, 200);
  const admin = cookieSession(baseUrl, await e2eAdminCookie(baseUrl));
  const [event] =
    (await admin("GET", "/api/audit-trail?entityType=approval_request&action=approve&limit=1")).json;
  return event.performedByName;
}

async function expectSweepSentence(page: Page, approverName: string) {
  const events = page.getByRole("table", { name: "Audit events" });
  const row = events.locator("tbody tr", { hasText: "approved the sweep of $3,000,000.00" }).first();
  await row.waitFor();
  const sentence = row.locator("p", { hasText: "approved the sweep" });
  assert.equal(
    (await sentence.innerText()).replace(/\s+/g, " ").trim(),
    `${approverName} approved the sweep of $3,000,000.00 from Audit Reserve (E2E-AT-RES) to Audit Liquid (E2E-AT-LIQ)`,
  );
  assert.equal(await sentence.getByRole("link", { name: approverName }).getAttribute("href"), "/users");
  assert.equal(await sentence.getByRole("link", { name: "the sweep" }).getAttribute("href"), "/approvals");
  assert.equal(
    await sentence.getByRole("link", { name: "Audit Reserve (E2E-AT-RES)" }).getAttribute("href"),
    "/balance-sweep",
  );
  assert.equal(
    await sentence.getByRole("link", { name: "Audit Liquid (E2E-AT-LIQ)" }).getAttribute("href"),
    "/balance-sweep",
  );
  return row;
}

e2eTest(
  "the audit trail reads an approved sweep as a linked sentence, shows a change's before and after, and keeps its filters in the address",
  () =>
    withBrowser(async ({ page, server }) => {
      const approverName = await approvedSweep(server.baseUrl);
      await signIn(page, server.baseUrl);
      for (const viewport of VIEWPORTS) {
        const size = `${viewport.width}×${viewport.height}`;
        await page.setViewportSize(viewport);
        await page.goto(`${server.baseUrl}/audit-trail`);
        const row = await expectSweepSentence(page, approverName);
        // On a phone the sentence stands beside the actor: entity and action, which it says, are left out.
        const entityHeader = page.getByRole("table", { name: "Audit events" }).getByRole("columnheader", {
          name: "Entity",
        });
        assert.equal(await entityHeader.isVisible(), viewport.width >= 1024, `Entity column at ${size}`);
        await row.getByRole("button", { name: "Show details" }).click();
        const changes = row.getByRole("table", { name: /Changes recorded with event \d+/ });
        const status = changes.getByRole("row", { name: /^Status/ });
        assert.deepEqual(await status.locator("th, td").allInnerTexts(), ["Status", "pending", "approved"]);
        assert.equal(
          await changes.getByRole("columnheader").allInnerTexts().then((h) => h.join("|")),
          "Field|Before|After",
        );
        assert.equal(await row.getByText("approval_request").count(), 0, "no snake_case in the row");
        await expectAccessible(page, `/audit-trail with an event's changes open at ${size}`);
      }

      // Filters go into the address: a reload, or the link shared, shows the same events.
      await page.goto(`${server.baseUrl}/audit-trail`);
      await page.getByLabel("Entity", { exact: true }).selectOption("approval_request");
      await page.getByLabel("Action", { exact: true }).selectOption("approve");
      await page.getByLabel("Search", { exact: true }).fill("Figures checked");
      await page.getByRole("button", { name: "Filter", exact: true }).click();
      await page.waitForURL(/entityType=approval_request/);
      const url = new URL(page.url());
      assert.equal(url.searchParams.get("action"), "approve");
      assert.equal(url.searchParams.get("search"), "Figures checked");
      await page.reload();
      await expectSweepSentence(page, approverName);
      assert.equal(await page.getByLabel("Entity", { exact: true }).inputValue(), "approval_request");
      assert.equal(await page.getByLabel("Action", { exact: true }).inputValue(), "approve");
      assert.equal(await page.getByLabel("Search", { exact: true }).inputValue(), "Figures checked");
      const pagination = page.getByRole("navigation", { name: "Pagination" });
      await pagination.getByText("Showing 1–1 of 1").waitFor();
      await expectAccessible(page, "/audit-trail filtered from the address");

      await page.getByRole("button", { name: "Clear", exact: true }).click();
      await page.waitForURL((next) => next.search === "");
      // The address changes first; the form, keyed by it, is made anew on the next render.
      await page.waitForFunction(() =>
        [...document.querySelectorAll("label")].some((label) =>
          label.textContent === "Action" && (label.control as HTMLSelectElement | null)?.value === ""
        ), undefined, { timeout: 5_000 });
    }),
);
