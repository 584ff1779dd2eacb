/**
 * A fresh install reaching dual control in the browser: the one-administrator banner, a second
 * administrator made alone, a role grant that the second administrator approves (with the one-time
 * password shown to them once), and the new approver deciding a sweep.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  E2E_ADMIN_EMAIL,
  E2E_ADMIN_PASSWORD,
  e2eTest,
  expectAccessible,
  firstSignInInBrowser,
  signIn,
  signOut,
  withBrowser,
} from "./helpers.ts";
import { approveFiled, createStaffSession, signInSession } from "../helpers/http_staff.ts";

const OWN_PASSWORD = "e2e-own-password-for-staff";
const SECOND_ADMIN = "second.admin@centralbank.test";
const APPROVER = "checker@centralbank.test";

/** Fills the New user dialog with one role; answers the dialog. */
async function newUser(page: Page, baseUrl: string, email: string, role: RegExp) {
  await page.goto(`${baseUrl}/users`);
  await page.getByRole("button", { name: "New User" }).click();
  const dialog = page.getByRole("dialog", { name: "New user" });
  await dialog.getByLabel("E-mail address").fill(email);
  // Operator is ticked by default, and no administrator or approver is also an operator.
  await dialog.getByRole("checkbox", { name: /^Operator/ }).uncheck();
  await dialog.getByRole("checkbox", { name: role }).check();
  return dialog;
}

async function oneTimePassword(page: Page, email: string): Promise<string> {
  const shown = page.getByRole("dialog", { name: "One-time password" });
  const password = await shown.getByLabel(`Initial password for ${email}`).inputValue();
  await shown.getByRole("button", { name: "Done" }).click();
  return password;
}

/** The operator's sweep above the default threshold (1,000,000.00), from a funded ledger an approver opened. */
async function requestLargeSweep(baseUrl: string, operatorCookie: string, approverCookie: string) {
  const send = async (path: string, body: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { cookie: operatorCookie, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  };
  const liquid = await send("/api/ledger-accounts", {
    accountNumber: "E2E-DC-LIQ",
    accountType: "liquid",
    accountName: "Dual Control Liquid",
    currency: "USD",
  });
  assert.equal(liquid.status, 201);
  const ledger = await send("/api/ledger-accounts", {
    accountNumber: "E2E-DC-LDG",
    accountType: "ledger",
    accountName: "Dual Control Ledger",
    currency: "USD",
    currentBalance: "3000000.00",
    requestReason: "Opening balance",
  });
  assert.equal(ledger.status, 202);
  const opened = await approveFiled(baseUrl, approverCookie, ledger.json);
  assert.equal(opened.status, 200, JSON.stringify(opened.json));
  const sweep = await send("/api/balance-sweeps", {
    sourceAccountId: opened.json.resultEntityId,
    targetAccountId: liquid.json.id,
    sweepAmount: "1500000.00",
    sweepReason: "Quarter-end liquidity",
  });
  assert.equal(sweep.status, 202, JSON.stringify(sweep.json));
}

e2eTest(
  "a fresh install shows the one-administrator banner; a second administrator approves a role grant; the new approver approves a sweep",
  () =>
    withBrowser(async ({ page, server }) => {
      const base = server.baseUrl;
      // Made while the first administrator still acts alone: the operator who will request the sweep.
      const adminCookie = await signInSession(base, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD);
      const operatorCookie = await createStaffSession(base, adminCookie, "maker@centralbank.test", [
        "operator",
      ]);

      await signIn(page, base);
      const banner = page.getByTestId("dual-control-banner");
      await banner.getByText("Dual control is not in force: one administrator").waitFor();
      const created = await newUser(page, base, SECOND_ADMIN, /^Administrator/);
      await expectAccessible(page, "new user dialog");
      await created.getByRole("button", { name: "Create user" }).click();
      const secondPassword = await oneTimePassword(page, SECOND_ADMIN);
      await banner.waitFor({ state: "detached" });
      await signOut(page);

      await firstSignInInBrowser(page, base, { email: SECOND_ADMIN, initialPassword: secondPassword, newPassword: OWN_PASSWORD });
      assert.equal(await banner.count(), 0);
      await signOut(page);

      // Dual control is in force: a new approver is a request, with its reason.
      await signIn(page, base);
      const requested = await newUser(page, base, APPROVER, /^Approver/);
      await requested.getByLabel("Reason for approval").fill("A second approver for the treasury desk");
      await requested.getByRole("button", { name: "Submit for approval" }).click();
      await page.getByTestId("toast").filter({ hasText: "second administrator must approve it" }).waitFor();
      await page.getByRole("table", { name: "Users" }).getByRole("row", { name: /second\.admin/ }).waitFor();
      assert.equal(await page.getByRole("row", { name: /checker@centralbank\.test/ }).count(), 0);
      await signOut(page);

      await signIn(page, base, SECOND_ADMIN, OWN_PASSWORD);
      await page.goto(`${base}/approvals`);
      const row = page.getByRole("table", { name: "Pending requests" }).getByRole("row", {
        name: /checker@centralbank/,
      });
      await row.getByText("New user checker@centralbank.test: Approver").waitFor();
      await expectAccessible(page, "approvals screen with an administration request");
      await row.getByRole("button", { name: "Approve" }).click();
      const confirm = page.getByRole("dialog", { name: "Approve this request?" });
      assert.match(
        await confirm.getByTestId("decision-summary").innerText(),
        /New user checker@centralbank\.test: Approver/,
      );
      await confirm.getByLabel("Reason for the decision").fill("Agreed with the head of treasury");
      await confirm.getByRole("button", { name: "Confirm approve" }).click();
      const approverPassword = await oneTimePassword(page, APPROVER);
      await signOut(page);

      await firstSignInInBrowser(page, base, { email: APPROVER, initialPassword: approverPassword, newPassword: OWN_PASSWORD });
      await requestLargeSweep(base, operatorCookie, await signInSession(base, APPROVER, OWN_PASSWORD));
      await page.goto(`${base}/approvals`);
      const sweep = page.getByRole("table", { name: "Pending requests" }).getByRole("row", {
        name: /Quarter-end liquidity/,
      });
      await sweep.getByRole("button", { name: "Approve" }).click();
      await confirm.getByLabel("Reason for the decision").fill("Checked against the plan");
      await confirm.getByRole("button", { name: "Confirm approve" }).click();
      await page.getByTestId("toast").filter({ hasText: "Request approved and executed" }).waitFor();
      const accounts = await (await page.request.get(`${base}/api/ledger-accounts`)).json();
      const balance = (number: string) =>
        accounts.find((a: { accountNumber: string }) => a.accountNumber === number)?.currentBalance;
      assert.equal(balance("E2E-DC-LDG"), "1500000.00");
      assert.equal(balance("E2E-DC-LIQ"), "1500000.00");
    }),
);
