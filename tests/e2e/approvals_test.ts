import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  apiSession,
  cookieSession,
  E2E_ADMIN_EMAIL,
  E2E_ADMIN_PASSWORD,
  e2eAdminCookie,
  e2eCrew,
  e2eTest,
  expectAccessible,
  firstSignInInBrowser,
  signOut,
  withBrowser,
} from "./helpers.ts";
import { confirmRoles, openAccount } from "../helpers/http_staff.ts";

const NEW_PASSWORD = "e2e-own-password-for-staff";

/** The staff's first sign-in, checked for accessibility on the password screen. */
const signInFirstTime = (page: Page, baseUrl: string, email: string, initialPassword: string) =>
  firstSignInInBrowser(page, baseUrl, { email, initialPassword, newPassword: NEW_PASSWORD }, true);

e2eTest(
  "an operator requests a large sweep, an approver approves it in the Approvals screen, the balances change; an auditor sees the audit trail and no mutating buttons",
  () =>
    withBrowser(async ({ page, server }) => {
      const admin = await apiSession(server.baseUrl, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD);
      const staff: Record<string, string> = {};
      const ids: Record<string, string> = {};
      for (
        const [email, roles] of [
          ["maker@centralbank.test", ["operator"]],
          ["checker@centralbank.test", ["approver"]],
          ["auditor@centralbank.test", ["auditor"]],
        ] as const
      ) {
        const created = await admin("POST", "/api/users", { email, roles });
        assert.equal(created.status, 201);
        staff[email] = created.json.initialPassword;
        ids[email] = created.json.user.id;
      }
      // Sweeps above 1,000.00 need approval.
      assert.equal(
        (await admin("PUT", "/api/approval-settings", { thresholds: { USD: "1000.00" } })).status,
        200,
      );
      // The administrator granted the checker's role alone: a second administrator (the crew's)
      // confirms it, or the checker decides nothing. The crew's operator opens the accounts under test.
      const crew = await e2eCrew(server.baseUrl);
      await confirmRoles(server.baseUrl, crew.secondAdministrator, ids["checker@centralbank.test"]);
      const liquid = await cookieSession(server.baseUrl, crew.operator)("POST", "/api/ledger-accounts", {
        accountNumber: "E2E-4E-LIQ",
        accountType: "liquid",
        accountName: "Four-eyes Liquid",
        currency: "USD",
      });
      // The funded ledger is itself a four-eyes request, approved by a second person.
      await openAccount(server.baseUrl, crew.operator, {
        accountNumber: "E2E-4E-LDG",
        accountType: "ledger",
        accountName: "Four-eyes Ledger",
        currency: "USD",
        currentBalance: "20000.00",
      }, await e2eAdminCookie(server.baseUrl));
      assert.equal(liquid.status, 201);

      // The maker: first sign-in, then a sweep above the threshold stays a request.
      await signInFirstTime(page, server.baseUrl, "maker@centralbank.test", staff["maker@centralbank.test"]);
      await page.goto(`${server.baseUrl}/balance-sweep`);
      await page.getByRole("heading", { name: "Balance Sweep Management" }).waitFor();
      await page.getByRole("button", { name: "Manual Sweep" }).click();
      const dialog = page.getByRole("dialog", { name: "Manual Sweep" });
      await dialog.getByLabel("Source Account").waitFor();
      await dialog.getByLabel("Source Account").selectOption({
        label: "Four-eyes Ledger (E2E-4E-LDG) · $20,000.00",
      });
      await dialog.getByLabel("Target Account").selectOption({
        label: "Four-eyes Liquid (E2E-4E-LIQ) · $0.00",
      });
      await dialog.getByLabel("Sweep Amount").fill("5000.00");
      await dialog.getByLabel("Sweep Reason").fill("Month-end liquidity");
      // Above the threshold the dialog says before submitting that the sweep goes to approval.
      await dialog.getByRole("button", { name: "Submit for approval" }).click();
      await page.getByTestId("toast").filter({ hasText: "Submitted for approval" }).waitFor();
      const accounts = page.getByRole("table", { name: "Ledger and liquid accounts" });
      await accounts.getByRole("row", { name: /Four-eyes Ledger/ }).getByText("$20,000.00").first().waitFor();
      await page.goto(`${server.baseUrl}/approvals`);
      await page.getByRole("tab", { name: "My requests" }).click();
      await page.getByText("Month-end liquidity").first().waitFor();
      assert.equal(await page.getByRole("button", { name: "Approve" }).count(), 0);
      await signOut(page);

      // The approver: the badge counts the request; approving restates the amount and executes it.
      await signInFirstTime(page, server.baseUrl, "checker@centralbank.test", staff["checker@centralbank.test"]);
      assert.equal(await page.getByTestId("approvals-badge").innerText(), "1");
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Approvals/ }).click();
      await page.getByRole("heading", { name: "Approvals" }).waitFor();
      await page.getByRole("table", { name: "Pending requests" }).getByText("Month-end liquidity").waitFor();
      await expectAccessible(page, "approvals screen");
      await page.getByRole("button", { name: "Approve" }).click();
      const confirm = page.getByRole("dialog", { name: "Approve this request?" });
      await confirm.getByLabel("Reason for the decision").waitFor();
      const summary = await confirm.getByTestId("decision-summary").innerText();
      assert.match(summary, /\$5,000\.00/);
      assert.match(summary, /E2E-4E-LDG/);
      assert.match(summary, /E2E-4E-LIQ/);
      await confirm.getByLabel("Reason for the decision").fill("Checked against the plan");
      await confirm.getByRole("button", { name: "Confirm approve" }).click();
      await page.getByTestId("toast").filter({ hasText: "Request approved and executed" }).waitFor();
      await page.goto(`${server.baseUrl}/balance-sweep`);
      const after = page.getByRole("table", { name: "Ledger and liquid accounts" });
      await after.getByRole("row", { name: /Four-eyes Ledger/ }).getByText("$15,000.00").first().waitFor();
      await after.getByRole("row", { name: /Four-eyes Liquid/ }).getByText("$5,000.00").first().waitFor();
      assert.equal(await page.getByRole("button", { name: "Manual Sweep" }).count(), 0);
      await signOut(page);

      // The auditor: reads the audit trail with its chain state, and meets no button that changes anything.
      await signInFirstTime(page, server.baseUrl, "auditor@centralbank.test", staff["auditor@centralbank.test"]);
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit Trail" }).click();
      await page.getByRole("heading", { name: "Audit Trail" }).waitFor();
      await page.getByText(/Hash chain verified up to row \d+/).waitFor();
      await page.getByRole("table", { name: "Audit events" }).getByText("approval request", { exact: true }).first()
        .waitFor();
      await expectAccessible(page, "audit trail screen");
      assert.equal(await page.getByRole("link", { name: "Users" }).count(), 0);
      for (
        const [path, heading] of [
          ["/balance-sweep", "Balance Sweep Management"],
          ["/institutions", "Financial Institutions"],
          ["/card-management", "Card Management"],
        ]
      ) {
        await page.goto(`${server.baseUrl}${path}`);
        await page.getByRole("heading", { name: heading }).first().waitFor();
        for (
          const name of [
            "Manual Sweep",
            "Add Account",
            "Auto Sweep",
            "New Institution",
            "Issue Card",
            "Load Funds",
          ]
        ) {
          assert.equal(await page.getByRole("button", { name }).count(), 0, `${name} on ${path}`);
        }
      }
    }),
);
