/**
 * The screens' signals tell the truth: each of these used to show a state nothing had established
 * ("All endpoints operational" with no connection, "Operational" for a sandbox, "Complete" with no
 * report, a confirmation with nothing recorded, "Central Bank Admin" for everyone).
 */
import assert from "node:assert/strict";
import { createUser } from "../helpers/http_staff.ts";
import {
  accountLabels,
  cookieSession,
  e2eAdminCookie,
  e2eTest,
  expectAccessible,
  firstSignInInBrowser,
  readAndDismissToast,
  signIn,
  signOut,
  withBrowser,
} from "./helpers.ts";

const MS_PER_DAY = 86_400_000;
const utcDay = (offsetDays: number) => new Date(Date.now() + offsetDays * MS_PER_DAY).toISOString().slice(0, 10);

e2eTest("dashboard: no active connection is not operational, and an untested one is named", () =>
  withBrowser(async ({ page, server }) => {
    await signIn(page, server.baseUrl);
    const alerts = page.getByTestId("system-alerts");
    await alerts.getByText("No active connections", { exact: true }).waitFor();
    assert.doesNotMatch(await alerts.innerText(), /All endpoints operational/);
    const admin = cookieSession(server.baseUrl, await e2eAdminCookie(server.baseUrl));
    const created = await admin("POST", "/api/central-bank-connections", {
      partnerCentralBank: "Bank of Xland",
      connectionType: "bilateral",
      connectionStatus: "active",
      messageStandard: "iso20022",
      settlementCurrency: "EUR",
      apiEndpoint: null,
      authenticationMethod: "oauth2",
      credentialsConfig: { authenticationType: "oauth2" },
    });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    await page.reload();
    await alerts.getByText("1 connection untested: Bank of Xland", { exact: true }).waitFor();
    assert.doesNotMatch(await alerts.innerText(), /All endpoints operational/);
    await expectAccessible(page, "dashboard with an untested connection");
  }));

e2eTest("fintech operations and the expediter: sandboxed providers say Sandbox, never Operational", () =>
  withBrowser(async ({ page, server }) => {
    await signIn(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/fintech-operations`);
    for (const provider of ["plaid", "visa"]) {
      const card = page.getByTestId(`provider-${provider}`);
      await card.getByText("Sandbox", { exact: true }).waitFor();
      assert.doesNotMatch(await card.innerText(), /Operational/);
    }
    await page.goto(`${server.baseUrl}/partnership-expediter`);
    const accountData = page.getByTestId("account-data-services");
    await accountData.getByText("Sandbox", { exact: true }).waitFor();
    assert.match(await accountData.innerText(), /no live provider is configured/);
    assert.doesNotMatch(await page.locator("main").innerText(), /Operational/);
  }));

e2eTest("reports: the compliance schedule shows Due, Overdue, and Complete only once the report exists", () =>
  withBrowser(async ({ page, server }) => {
    await signIn(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/reports`);
    await page.getByText("No filings scheduled", { exact: true }).waitFor();
    assert.doesNotMatch(await page.locator("main").innerText(), /Complete\b/);
    const addFiling = async (name: string, type: string, opensOn: string, dueDate: string) => {
      const form = page.getByRole("form", { name: "Add filing" });
      await form.getByLabel("Filing Name").fill(name);
      await form.getByLabel("Fulfilled By").selectOption(type);
      await form.getByLabel("Opens On").fill(opensOn);
      await form.getByLabel("Due Date").fill(dueDate);
      await form.getByRole("button", { name: "Add Filing" }).click();
    };
    await addFiling("Institutions Return", "institutions", utcDay(0), utcDay(7));
    const filings = page.getByTestId("compliance-filing");
    await filings.filter({ hasText: "Institutions Return" }).getByText(`Due ${utcDay(7)}`, { exact: true }).waitFor();
    await addFiling("Routing Code Census", "routing-codes", utcDay(-10), utcDay(-1));
    await filings.filter({ hasText: "Routing Code Census" }).getByText("Overdue", { exact: true }).waitFor();
    await expectAccessible(page, "reports: compliance schedule");

    const admin = cookieSession(server.baseUrl, await e2eAdminCookie(server.baseUrl));
    const generated = await fetch(`${server.baseUrl}/api/reports`, {
      method: "POST",
      headers: { cookie: await e2eAdminCookie(server.baseUrl), "content-type": "application/json" },
      body: JSON.stringify({ type: "institutions", from: utcDay(-1), to: utcDay(0), format: "csv" }),
    });
    assert.equal(generated.status, 200);
    await generated.arrayBuffer();
    await page.reload();
    await filings.filter({ hasText: "Institutions Return" })
      .getByText(new RegExp(`^Complete \\(generated ${utcDay(0)} by .+\\)$`)).waitFor();
    await filings.filter({ hasText: "Routing Code Census" }).getByText("Overdue", { exact: true }).waitFor();
    // Moving the due date is an administrator's change, recorded in the audit trail.
    await page.getByRole("button", { name: "Change due date of Routing Code Census" }).click();
    await page.getByLabel("New due date of Routing Code Census").fill(utcDay(3));
    await page.getByRole("button", { name: "Save" }).click();
    await filings.filter({ hasText: "Routing Code Census" }).getByText(`Due ${utcDay(3)}`, { exact: true }).waitFor();
    const audit = await admin("GET", "/api/audit-trail?entityType=compliance_filing&action=update");
    assert.equal(audit.status, 200);
    assert.ok(JSON.stringify(audit.json).includes(utcDay(3)));
  }));

e2eTest("partnership expediter: a filed request is recorded, listed and moved on", () =>
  withBrowser(async ({ page, server }) => {
    await signIn(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/partnership-expediter`);
    await page.getByText("No expedition requests", { exact: true }).waitFor();
    await page.getByRole("tab", { name: "Visa", exact: true }).click();
    // A blank justification is refused by the server, field by field, and nothing is confirmed.
    await page.getByRole("button", { name: "Expedite Visa Partnership" }).click();
    assert.match(await readAndDismissToast(page), /^Expedition request not recorded/);
    await page.getByText("Required").first().waitFor();
    await page.getByLabel("Priority Level").selectOption("urgent");
    await page.getByLabel("Justification").fill("Scheme launch in March");
    await page.getByRole("button", { name: "Expedite Visa Partnership" }).click();
    assert.match(
      await readAndDismissToast(page),
      /^Expedition Request Initiated\s+Priority escalation submitted for Visa partnership/,
    );
    const table = page.getByRole("table", { name: "Expedition requests" });
    const row = table.locator("tbody tr");
    await row.filter({ hasText: "Scheme launch in March" }).waitFor();
    assert.match(await row.innerText(), /Visa\s+Urgent\s+Scheme launch in March\s+Open/);
    await row.getByRole("button", { name: /^Start:/ }).click();
    await row.getByText("In Progress", { exact: true }).waitFor();
    await row.getByRole("button", { name: /^Mark Done:/ }).click();
    await row.getByText("Done", { exact: true }).waitFor();
    assert.equal(await row.getByRole("button").count(), 0, "done is final");
    await expectAccessible(page, "partnership expediter with a request");
  }));

e2eTest("account menu: the role label names the roles held, Central Bank Admin only for administrators", () =>
  withBrowser(async ({ page, server }) => {
    await signIn(page, server.baseUrl);
    assert.equal((await accountLabels(page)).role, "Central Bank Admin");
    const adminCookie = await e2eAdminCookie(server.baseUrl);
    await signOut(page);
    for (
      const [roles, label] of [
        [["approver"], "Approver"],
        [["auditor"], "Auditor"],
      ] as const
    ) {
      const email = `${roles[0]}.label@centralbank.test`;
      const { initialPassword } = await createUser(server.baseUrl, adminCookie, email, [...roles]);
      await firstSignInInBrowser(page, server.baseUrl, { email, initialPassword, newPassword: "label-check-password-1" });
      assert.equal((await accountLabels(page)).role, label);
      assert.doesNotMatch(await page.locator("aside, nav").first().innerText(), /Central Bank Admin/);
      await signOut(page);
    }
  }));
