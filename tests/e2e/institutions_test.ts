import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { chooseNew, e2eApprover, e2eTest, expectAccessible, signInAsOperator, withBrowser } from "./helpers.ts";

const NAME = "Harborview Savings Bank";
const REGISTRATION_NUMBER = "CBR-SA-90001";

/** Checks the toast's text, then dismisses it: axe flags the toaster's <li role="status"> as a list violation. */
async function expectToast(page: Page, pattern: RegExp) {
  const toast = page.getByTestId("toast");
  await toast.filter({ hasText: pattern }).waitFor();
  assert.match(await toast.innerText(), pattern);
  await toast.getByRole("button", { name: "Dismiss notification" }).click();
  await toast.waitFor({ state: "detached" });
}

e2eTest(
  "an institution registered from the header's dialog shows on the dashboard and in the registry, and can be approved",
  () =>
    withBrowser(async ({ page, server }) => {
      await signInAsOperator(page, server.baseUrl);
      await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
      await page.getByText("Central Bank Registry System Overview").waitFor();
      await page.getByText("No recent registrations").waitFor();
      await page.getByText("New institution registrations will appear here.").waitFor();
      // Issue 23: the trends and alerts are computed, so an empty registry shows no growth and no approval alert.
      const emptyCards = page.getByTestId("stat-cards");
      for (const label of ["Registered Institutions", "SWIFT Participants"]) {
        await emptyCards.filter({ hasText: new RegExp(`${label}\\s*0\\s*No change`) }).waitFor();
      }
      // A new database has no requests yesterday, so today's figure has nothing to be compared with.
      await emptyCards.filter({ hasText: /API Requests Today\s*\d+\s*(No change|None yesterday)/ }).waitFor();
      const alerts = page.getByTestId("system-alerts");
      await alerts.getByText("No active connections").waitFor();
      assert.doesNotMatch(await alerts.innerText(), /awaiting approval/);
      await expectAccessible(page, "dashboard (empty)");

      await chooseNew(page, "New Institution");
      const dialog = page.getByRole("dialog", { name: "Register New Institution" });
      // The dialog element itself has no box (its panel is fixed-positioned): wait for its content.
      await dialog.getByLabel("Institution Name", { exact: true }).waitFor();
      await expectAccessible(page, "new institution dialog");

      await dialog.getByRole("button", { name: "Register Institution" }).click();
      assert.ok(await dialog.getByText("Required").count() >= 6, "each required field says Required");

      await dialog.getByLabel("Institution Name", { exact: true }).fill(NAME);
      await dialog.getByLabel("Institution Type", { exact: true }).selectOption("savings");
      await dialog.getByLabel("Registration Number", { exact: true }).fill(REGISTRATION_NUMBER);
      await dialog.getByLabel("License Number", { exact: true }).fill("LIC-90001");
      await dialog.getByLabel("Address", { exact: true }).fill("12 Quay Street, Harbor City");
      await dialog.getByLabel("Phone Number", { exact: true }).fill("+1 202 555 0177");
      await dialog.getByLabel("Email Address", { exact: true }).fill("compliance@harborview.example");
      await dialog.getByLabel("Number of Branches", { exact: true }).fill("");
      assert.equal(
        await dialog.getByLabel("SWIFT Membership Type", { exact: true }).count(),
        0,
        "hidden while the switch is off",
      );
      await dialog.getByRole("switch", { name: "SWIFT Participant" }).click();
      await dialog.getByLabel("SWIFT Membership Type", { exact: true }).selectOption("full");
      await expectAccessible(page, "new institution dialog (filled, SWIFT on)");
      await dialog.getByRole("button", { name: "Register Institution" }).click();

      await expectToast(page, /Institution registered successfully/);
      await dialog.waitFor({ state: "detached" });

      const recent = page.getByRole("table", { name: "Recent institution registrations" });
      const recentRow = recent.getByRole("row").filter({ hasText: NAME });
      await recentRow.waitFor();
      const recentText = await recentRow.innerText();
      for (const expected of ["1 branch", "Savings", REGISTRATION_NUMBER, "pending"]) {
        assert.match(recentText, new RegExp(expected));
      }
      const cards = page.getByTestId("stat-cards");
      await cards.getByText("+1 this month").first().waitFor();
      assert.match(await cards.innerText(), /Registered Institutions\s+1\s+\+1 this month/);
      assert.match(await cards.innerText(), /SWIFT Participants\s+1\s+\+1 this month/);
      await alerts.getByText("1 institution pending activation").waitFor();
      await expectAccessible(page, "dashboard (with a registration)");

      await page.getByRole("link", { name: "View All" }).click();
      await page.waitForURL(`${server.baseUrl}/institutions`);
      await page.getByRole("heading", { name: "Financial Institutions", level: 1 }).waitFor();
      const table = page.getByRole("table", { name: "Financial institutions" });
      const row = table.getByRole("row").filter({ hasText: NAME });
      await row.waitFor();
      const rowText = await row.innerText();
      for (const expected of ["compliance@harborview.example", "+1 202 555 0177", "Savings", "pending"]) {
        assert.match(rowText, new RegExp(expected.replace(/[+.]/g, "\\$&")));
      }
      await expectAccessible(page, "institutions");

      // Issue 23: a status change asks for its reason first; issue 20: it is a four-eyes request
      // that waits for a second person, and the reason travels with it.
      const requestApproval = row.getByRole("button", { name: `Request approval of ${NAME}` });
      assert.equal(await requestApproval.innerText(), "Request approval");
      await requestApproval.click();
      const request = page.getByRole("dialog", { name: `Request approval of ${NAME}?` });
      await request.getByLabel("Reason").waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA", "the reason has focus");
      await request.getByRole("button", { name: "Submit for approval" }).click();
      await request.getByText("Required").waitFor();
      await expectAccessible(page, "institution status request dialog");
      await request.getByLabel("Reason").fill("Licence granted by the board");
      await request.getByRole("button", { name: "Submit for approval" }).click();
      await expectToast(page, /Submitted for approval/);
      await row.getByText("Approval pending").waitFor();
      await row.getByText("pending", { exact: true }).waitFor();

      // An approver whose role a second administrator confirmed: one administrator's grant alone decides nothing.
      const checker = await e2eApprover(server.baseUrl);
      const queue = await checker("GET", "/api/approvals?status=pending&kind=institution_status");
      assert.equal(queue.json.length, 1);
      assert.equal(queue.json[0].requestReason, "Licence granted by the board");
      const approved = await checker("POST", `/api/approvals/${queue.json[0].id}/approve`, { reason: "Verified" });
      assert.equal(approved.status, 200);
      await page.reload();
      await row.getByText("active", { exact: true }).waitFor();
      await row.getByRole("button", { name: `Suspend ${NAME}` }).waitFor();

      const search = page.getByRole("searchbox", { name: "Search institutions" });
      await search.fill("harborview");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await row.waitFor();
      await search.fill("no such institution");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.getByText("No institutions match your search").waitFor();
      await search.fill("");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await row.waitFor();
      assert.match(
        await page.getByRole("navigation", { name: "Pagination" }).innerText(),
        /Showing 1–1 of 1/,
      );

      await page.getByRole("link", { name: "Dashboard", exact: true }).click();
      await recent.getByRole("row").filter({ hasText: NAME }).getByText("active", { exact: true }).waitFor();
      await alerts.getByText("1 institution pending activation").waitFor({ state: "detached" });
    }),
);

e2eTest(
  "Code Lookup asks for a value, reports no results, and lists matches under the card",
  () =>
    withBrowser(async ({ page, server }) => {
      await signInAsOperator(page, server.baseUrl);
      const lookup = page.getByRole("search", { name: "Code lookup" });
      await lookup.waitFor();
      await lookup.getByRole("button", { name: "Search" }).click();
      await expectToast(page, /Please enter a search value/);

      await lookup.getByLabel("Search value").fill("ZZZ");
      await lookup.getByRole("button", { name: "Search" }).click();
      await expectToast(page, /No results found[\s\S]*No matching records found for your search\./);

      const created = await page.request.post(`${server.baseUrl}/api/institutions`, {
        data: {
          name: "Meridian Commercial Bank",
          type: "commercial",
          registrationNumber: "CBR-CO-00002",
          address: "200 Meridian Avenue",
          phoneNumber: "+1 202 555 0102",
          emailAddress: "ops@meridian.example",
        },
      });
      assert.equal(created.status(), 201);
      await lookup.getByLabel("Lookup type").selectOption("institution");
      await lookup.getByLabel("Search value").fill("meridian");
      await lookup.getByRole("button", { name: "Search" }).click();
      const results = page.getByTestId("lookup-results");
      await results.getByText("Meridian Commercial Bank").waitFor();
      assert.match(await results.innerText(), /CBR-CO-00002/);
      await expectAccessible(page, "dashboard with lookup results");
    }),
);

e2eTest(
  "an empty registry offers Register First Institution, which opens the dialog",
  () =>
    withBrowser(async ({ page, server }) => {
      await signInAsOperator(page, server.baseUrl);
      await page.getByRole("link", { name: "Financial Institutions", exact: true }).click();
      const first = page.getByRole("button", { name: "Register First Institution" });
      await first.waitFor();
      await expectAccessible(page, "institutions (empty)");
      await first.click();
      const dialog = page.getByRole("dialog", { name: "Register New Institution" });
      await dialog.getByLabel("Institution Name", { exact: true }).waitFor();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Register New Bank" }).count().then((n) => assert.equal(n, 0));
      await page.getByRole("link", { name: "Dashboard", exact: true }).click();
      await page.getByRole("button", { name: "Register New Bank" }).click();
      await dialog.getByLabel("Institution Name", { exact: true }).waitFor();
    }),
);
