/** Issue 23: back to the page first asked for after signing in; the 404 screen leads home. */
import assert from "node:assert/strict";
import { isReturnPath } from "../../src/web/lib/return_to.ts";
import {
  chooseSignOut,
  E2E_ADMIN_EMAIL,
  E2E_ADMIN_PASSWORD,
  e2eApprover,
  e2eTest,
  expectAccessible,
  signIn,
  signInAsOperator,
  withBrowser,
} from "./helpers.ts";

Deno.test("isReturnPath() accepts only this app's own pages", () => {
  for (const path of ["/reports", "/institutions?search=bank", "/settings#backup"]) {
    assert.ok(isReturnPath(path), path);
  }
  for (
    const path of [
      "/",
      "//evil.example/x",
      "/\\evil.example",
      "https://evil.example/",
      "/api/logout",
      "/api",
      "",
    ]
  ) {
    assert.ok(!isReturnPath(path), path);
  }
  assert.ok(!isReturnPath(`/${"a".repeat(5000)}`));
});

e2eTest(
  "signing in from a link to /reports lands on /reports",
  () =>
    withBrowser(async ({ page, server }) => {
      await page.goto(`${server.baseUrl}/reports`);
      await page.getByRole("heading", { name: "National Payment Infrastructure Management" }).waitFor();
      await page.getByRole("button", { name: "Sign In" }).click();
      await page.waitForURL(`${server.baseUrl}/api/login`);
      await page.getByLabel("E-mail address").fill(E2E_ADMIN_EMAIL);
      await page.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
      await page.getByRole("button", { name: "Sign In" }).click();
      await page.waitForURL(`${server.baseUrl}/reports`);
      await page.getByRole("heading", { name: "Reports & Analytics", level: 1 }).waitFor();

      // Only once: signing out and in again from the landing page goes to the dashboard.
      await chooseSignOut(page);
      await page.getByRole("heading", { name: "National Payment Infrastructure Management" }).waitFor();
      await signIn(page, server.baseUrl);
      assert.equal(new URL(page.url()).pathname, "/");
    }),
);

e2eTest("the 404 screen links back to the dashboard", () =>
  withBrowser(async ({ page, server }) => {
    await signIn(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/no-such-screen`);
    await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
  }));

e2eTest(
  "an institution's name leads to its page: details, status history with the reason, codes; fits a phone",
  () =>
    withBrowser(async ({ page, server }) => {
      // The operator requests status changes; the first administrator holds administrator alone.
      await signInAsOperator(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/institutions`);
      const table = page.getByRole("table", { name: "Financial institutions" });
      const first = table.locator("tbody tr").first().getByRole("link");
      const name = await first.innerText();
      await first.click();
      await page.getByRole("heading", { name, level: 1 }).waitFor();
      assert.match(new URL(page.url()).pathname, /^\/institutions\/[^/]+$/);
      await page.getByRole("heading", { name: "Status History" }).waitFor();
      await page.getByRole("heading", { name: "National Routing Registry" }).waitFor();
      await page.getByRole("heading", { name: "Recent Audit Events" }).waitFor();
      await expectAccessible(page, "institution page");

      // A status change from the page asks its reason; once a second person approves the request
      // (issue 20), the reason shows in the history.
      const action = page.getByRole("main").getByRole("button", {
        name: new RegExp(`^(Request approval of|Suspend|Reactivate) ${name}$`),
      });
      await action.click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Reason").fill("Quarterly supervisory review");
      await dialog.getByRole("button", { name: "Submit for approval" }).click();
      await page.getByRole("main").getByText("Approval pending").waitFor();
      // An approver whose role a second administrator confirmed: one administrator's grant alone decides nothing.
      const checker = await e2eApprover(server.baseUrl);
      const queue = await checker("GET", "/api/approvals?status=pending&kind=institution_status");
      assert.equal(queue.json.length, 1);
      assert.equal((await checker("POST", `/api/approvals/${queue.json[0].id}/approve`, { reason: "Checked" })).status, 200);
      await page.reload();
      // Each reason under its author: the operator requested with theirs, the approver decided with "Checked".
      const history = page.getByRole("list", { name: "Status history, newest first" }).getByRole("listitem").first();
      await history.getByText("“Quarterly supervisory review”").waitFor();
      const requested = history.locator("div").filter({ hasText: "Quarterly supervisory review" });
      assert.match(await requested.locator("dt").innerText(), /^Requested by /);
      const approved = history.locator("div").filter({ hasText: "“Checked”" });
      assert.match(await approved.locator("dt").innerText(), /^Approved by /);
      assert.notEqual(
        (await requested.locator("dt").innerText()).replace(/^Requested by | ·.*$/g, ""),
        (await approved.locator("dt").innerText()).replace(/^Approved by | ·.*$/g, ""),
      );

      await page.setViewportSize({ width: 390, height: 844 });
      const overflow = await page.evaluate(() => {
        const main = document.querySelector("main")!;
        return document.documentElement.scrollWidth - document.documentElement.clientWidth +
          main.scrollWidth -
          main.clientWidth;
      });
      assert.equal(overflow, 0, "no sideways scrolling at 390 px");
      await page.screenshot({
        path: new URL("../../.test-artifacts/screens/institution-page-phone.png", import.meta.url).pathname,
      });
    }, { SEED_DEMO: "1" }),
);
