import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { parse as parseCsv } from "csv-parse/sync";
import { e2eTest, expectAccessible, signIn, withBrowser } from "./helpers.ts";

/**
 * Reads the toast and dismisses it: the shared toaster's list markup trips axe's "list" rule,
 * which is not these screens' to fix, so accessibility checks run without a toast shown.
 */
async function readAndDismissToast(page: Page): Promise<string> {
  const toast = page.getByTestId("toast");
  await toast.waitFor();
  const text = await toast.innerText();
  await toast.getByRole("button", { name: "Dismiss notification" }).click();
  await toast.waitFor({ state: "detached" });
  return text;
}

async function statValue(page: Page, label: string): Promise<string> {
  const card = page.locator("p", { hasText: new RegExp(`^${label}$`) }).locator("xpath=..");
  return (await card.locator("p").nth(1).innerText()).trim();
}

e2eTest(
  "Reports: no type gives the error toast; a CSV report downloads, is listed and downloads again",
  () =>
    withBrowser(async ({ page, server }) => {
      await signIn(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/reports`);
      await page.getByRole("heading", { name: "Reports & Analytics", level: 1 }).waitFor();
      await page.getByText("No reports generated yet").waitFor();
      await expectAccessible(page, "reports");
      assert.equal(await page.getByLabel("Export Format").inputValue(), "pdf", "PDF is the default format");
      assert.equal(
        await page.getByRole("group", { name: "Report date range" }).locator("caption").count(),
        2,
        "two months shown",
      );

      await page.getByRole("button", { name: "Generate Report" }).click();
      assert.match(await readAndDismissToast(page), /^Error\s+Please select a report type/);

      // Keyboard use of the calendar: Enter picks the start, ArrowDown moves a week, Enter picks the end.
      const from = await page.getByLabel("From", { exact: true }).inputValue();
      const calendar = page.getByRole("group", { name: "Report date range" });
      await calendar.locator(`button[data-day="${from}"]`).focus();
      await page.keyboard.press("Enter");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      const weekLater = new Date(Date.parse(`${from}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
      assert.equal(await page.getByLabel("To", { exact: true }).inputValue(), weekLater);
      await expectAccessible(page, "reports with a range picked");

      await page.getByLabel("Report Type").selectOption("institutions");
      await page.getByLabel("Export Format").selectOption("csv");
      const downloadEvent = page.waitForEvent("download");
      await page.getByRole("button", { name: "Generate Report" }).click();
      // The toast shows for 5 s from the click: read it before waiting for the file, which may take longer.
      assert.match(
        await readAndDismissToast(page),
        /^Report Generated\s+Institutions Report is being prepared for download/,
      );
      const download = await downloadEvent;
      const fileName = `institutions_${from}_${weekLater}.csv`;
      assert.equal(download.suggestedFilename(), fileName);
      const csv = await Deno.readTextFile((await download.path())!);
      const rows = parseCsv(csv, { columns: true }) as Record<string, string>[];
      assert.ok(csv.startsWith("id,name,type,registrationNumber,"));
      assert.equal(rows.length, 0, "a fresh registry has no institutions");

      const table = page.getByRole("table", { name: "Recent reports" });
      await table.getByRole("cell", { name: "Institutions Report" }).waitFor();
      assert.equal(await statValue(page, "Total Reports"), "1");
      assert.equal(await statValue(page, "Reports This Month"), "1");
      await expectAccessible(page, "reports with a recorded report");

      const again = page.waitForEvent("download");
      await table.getByRole("link", { name: `Download ${fileName}` }).click();
      const second = await again;
      assert.equal(second.suggestedFilename(), fileName);
      assert.equal(await Deno.readTextFile((await second.path())!), csv);

      // An ended session: the shared handler shows the unauthorized toast and goes to sign-in.
      const cookies = await page.context().cookies();
      await page.context().clearCookies();
      await page.context().addCookies(
        cookies.map((cookie) => ({ ...cookie, value: "revoked-session-token" })),
      );
      await page.getByRole("button", { name: "Generate Report" }).click();
      const toast = page.getByTestId("toast");
      await toast.getByText("Unauthorized", { exact: true }).waitFor();
      assert.match(await toast.innerText(), /You are logged out\. Logging in again\.\.\./);
      await page.waitForURL(`${server.baseUrl}/api/login`);
    }),
);

e2eTest(
  "Partnership Expediter: each tab's action records the expedition request, then confirms it",
  () =>
    withBrowser(async ({ page, server }) => {
      await signIn(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/partnership-expediter`);
      await page.getByRole("heading", { name: "Partnership Expediter", level: 1 }).waitFor();
      for (
        const status of [
          "Awaiting Correspondent Documentation",
          "Documentation Phase",
          "Under Review",
        ]
      ) {
        await page.getByText(status).first().waitFor();
      }
      // No live provider is configured: the account data services card says Sandbox, not Operational.
      await page.getByTestId("account-data-services").getByText("Sandbox", { exact: true }).waitFor();
      const posts: string[] = [];
      page.on("request", (request) => {
        if (request.method() !== "GET") posts.push(request.url());
      });
      const tabs = [
        {
          tab: "SWIFT",
          select: "Expedition Method",
          values: ["executive-contact", "urgent-documentation", "priority-review", "regulatory-priority"],
          button: "Expedite SWIFT Membership",
          partner: "SWIFT",
        },
        {
          tab: "Visa",
          select: "Priority Level",
          values: ["standard", "priority", "urgent", "emergency"],
          button: "Expedite Visa Partnership",
          partner: "Visa",
        },
        {
          tab: "Executive Escalation",
          select: "Escalation Type",
          values: ["regulatory-urgent", "sovereign-priority", "emergency-operations", "diplomatic-channels"],
          button: "Submit Executive Escalation",
          partner: "Executive",
        },
      ];
      for (const { tab, select, values, button, partner } of tabs) {
        await page.getByRole("tab", { name: tab, exact: true }).click();
        const options = await page.getByLabel(select).locator("option").evaluateAll((nodes) =>
          nodes.map((node) => (node as HTMLOptionElement).value)
        );
        assert.deepEqual(options, values);
        await page.getByText("24-48 hours").waitFor();
        await page.getByText("3-5 business days").waitFor();
        await page.getByText("1-2 weeks").waitFor();
        await expectAccessible(page, `partnership expediter ${tab} tab`);
        await page.getByLabel(select).selectOption(values[1]);
        await page.getByLabel("Justification").fill("Settlement go-live depends on it");
        await page.getByRole("button", { name: button }).click();
        assert.match(
          await readAndDismissToast(page),
          new RegExp(
            `^Expedition Request Initiated\\s+Priority escalation submitted for ${partner} partnership`,
          ),
        );
      }
      assert.deepEqual(posts, tabs.map(() => `${server.baseUrl}/api/expedition-requests`), "each request recorded");
      const recorded = page.getByRole("table", { name: "Expedition requests" }).locator("tbody tr");
      assert.equal(await recorded.count(), tabs.length);
    }),
);

e2eTest(
  "System Settings: every tab is accessible, a saved change is kept by the server and survives a reload",
  () =>
    withBrowser(async ({ page, server }) => {
      await signIn(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/settings`);
      await page.getByRole("heading", { name: "System Settings", level: 1 }).waitFor();

      await page.getByRole("tab", { name: "Security" }).click();
      assert.equal(await page.getByLabel("Session Timeout (minutes)").inputValue(), "30");
      assert.equal(await page.getByLabel("Audit Log Retention").inputValue(), "Kept permanently");
      await page.getByText("The audit trail is never pruned").waitFor();
      const policies = await page.getByLabel("Password Policy").locator("option").allInnerTexts();
      assert.deepEqual(policies, [
        "Strong (12+ characters)",
        "Stronger (14+ characters)",
        "Complex (16+ characters)",
      ]);
      assert.equal(
        await page.getByRole("switch", { name: "Require multi-factor authentication" }).getAttribute(
          "aria-checked",
        ),
        "true",
      );
      await page.getByRole("tab", { name: "API" }).click();
      assert.equal(await page.getByLabel("API Rate Limit (requests per hour)").inputValue(), "1000");
      await page.getByRole("tab", { name: "Backup" }).click();
      assert.equal(
        await page.getByRole("switch", { name: "Automatic backups" }).getAttribute("aria-checked"),
        "true",
      );
      assert.equal(await page.getByLabel("Backup Frequency").inputValue(), "daily");
      await page.getByRole("tab", { name: "Notifications" }).click();
      await page.getByText("This console has no SMS gateway").waitFor();

      for (const tab of ["General", "Security", "Notifications", "API", "Backup", "System"]) {
        await page.getByRole("tab", { name: tab, exact: true }).click();
        await expectAccessible(page, `settings ${tab} tab`);
      }

      await page.getByRole("tab", { name: "General" }).click();
      await page.getByLabel("System Name").fill("Reserve Bank Registry");
      await page.getByLabel("Currency").selectOption("EUR");
      await page.getByRole("tab", { name: "Security" }).click();
      await page.getByLabel("Session Timeout (minutes)").fill("25");
      await page.getByRole("button", { name: "Save Settings" }).click();
      assert.match(await readAndDismissToast(page), /^Settings Saved/);
      const stored = await page.evaluate(() => JSON.stringify(localStorage));
      assert.ok(!stored.includes("Reserve Bank Registry"), "kept by the server, not in this browser");

      await page.reload();
      await page.getByRole("heading", { name: "System Settings", level: 1 }).waitFor();
      assert.equal(await page.getByLabel("System Name").inputValue(), "Reserve Bank Registry");
      assert.equal(await page.getByLabel("Currency").inputValue(), "EUR");
      await page.getByRole("tab", { name: "Security" }).click();
      assert.equal(await page.getByLabel("Session Timeout (minutes)").inputValue(), "25");

      await page.getByLabel("Session Timeout (minutes)").fill("2");
      await page.getByRole("button", { name: "Save Settings" }).click();
      assert.match(await readAndDismissToast(page), /^Error\s+Session timeout must be at least 5 minutes/);
      await page.getByText("Session timeout must be at least 5 minutes").waitFor();
      await expectAccessible(page, "settings with a field error");
    }),
);
