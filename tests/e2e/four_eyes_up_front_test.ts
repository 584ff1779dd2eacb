/**
 * Four-eyes control said up front, on a phone and on a desktop: the sweep dialog says whether the
 * sweep executes or goes to approval (with the threshold) before it is submitted; a funded account
 * asks its reason before submitting; amounts are grouped as typed and sent exact; toasts show en-US
 * currency; a card funded above the threshold says so before it is issued; the registry's row action
 * that files a request says "Request approval"; the dashboard's awaiting-approval count is the queue's.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { openAccount } from "../helpers/http_staff.ts";
import {
  e2eAdminCookie,
  e2eCrew,
  e2eTest,
  expectAccessible,
  signInAsOperator,
  withBrowser,
} from "./helpers.ts";

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1440, height: 900 },
] as const;

/** Opens a liquid account and a ledger funded with 3,000,000.00 (approved by a second person) through the API. */
async function sweepAccounts(baseUrl: string) {
  const crew = await e2eCrew(baseUrl);
  const base = { currency: "USD", accountName: "Preview" };
  await openAccount(baseUrl, crew.operator, { ...base, accountNumber: "E2E-PV-LIQ", accountType: "liquid" });
  await openAccount(baseUrl, crew.operator, {
    ...base,
    accountNumber: "E2E-PV-LDG",
    accountType: "ledger",
    currentBalance: "3000000.00",
  }, await e2eAdminCookie(baseUrl));
}

/** Types into the amount field key by key, as a person does, and reads what it shows after each key. */
async function typeAmount(page: Page, label: string, keys: string): Promise<string[]> {
  const field = page.getByRole("dialog").getByLabel(label);
  await field.fill("");
  const shown: string[] = [];
  for (const key of keys) {
    await field.press(key);
    shown.push(await field.inputValue());
  }
  return shown;
}

async function fundedAccountAsksItsReason(page: Page) {
  await page.getByRole("button", { name: "Add Account" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Account" });
  await dialog.getByLabel("Account Number").fill("E2E-PV-NEW");
  await dialog.getByLabel("Account Name").fill("Funded at opening");
  // An empty account opens at once: no reason asked, the button creates.
  await dialog.getByRole("button", { name: "Create Account" }).waitFor();
  assert.equal(await dialog.getByLabel("Reason for approval").count(), 0);
  const shown = await typeAmount(page, "Initial Balance", "1200000.07");
  assert.equal(shown.at(-1), "1,200,000.07");
  assert.ok(shown.includes("1,200"), `grouped as typed: ${shown.join(" | ")}`);
  // Before submitting: the reason shows, required, and the button says where it goes.
  const reason = dialog.getByLabel("Reason for approval");
  await reason.waitFor();
  assert.equal(await reason.getAttribute("required"), "");
  await dialog.getByRole("button", { name: "Submit for approval" }).waitFor();
  await expectAccessible(page, "add account dialog with a funded balance");
  await dialog.getByRole("button", { name: "Submit for approval" }).click();
  await dialog.getByText("Give a reason: an initial balance other than 0.00 needs a second person's approval").waitFor();
  await reason.fill("Opening float for the preview desk");
  const sent = page.waitForRequest((request) => request.method() === "POST" && request.url().endsWith("/api/ledger-accounts"));
  await dialog.getByRole("button", { name: "Submit for approval" }).click();
  assert.equal((await sent).postDataJSON().currentBalance, "1200000.07", "the exact decimal string is sent");
  const toast = page.getByTestId("toast").filter({ hasText: "Submitted for approval" });
  await toast.waitFor();
  const text = await toast.innerText();
  assert.match(text, /\$1,200,000\.07/);
  assert.doesNotMatch(text, /\d\.\d\d [A-Z]{3}\b/, "no bare figure followed by a currency code");
  await dialog.waitFor({ state: "detached" });
}

async function sweepDialogSaysWhereItGoes(page: Page) {
  await page.getByRole("button", { name: "Manual Sweep" }).click();
  const dialog = page.getByRole("dialog", { name: "Manual Sweep" });
  await dialog.getByLabel("Source Account").selectOption({ label: "Preview (E2E-PV-LDG) · $3,000,000.00" });
  await dialog.getByLabel("Target Account").selectOption({ label: "Preview (E2E-PV-LIQ) · $0.00" });
  await typeAmount(page, "Sweep Amount", "500000");
  const note = dialog.getByTestId("approval-preview");
  await dialog.locator('[data-testid="approval-preview"][data-outcome="execute"]').waitFor();
  assert.match(await note.innerText(), /executes at once[\s\S]*Approval threshold \$1,000,000\.00; you moved \$0\.00/);
  await dialog.getByRole("button", { name: "Execute Sweep" }).waitFor();

  assert.deepEqual((await typeAmount(page, "Sweep Amount", "1500000")).at(-1), "1,500,000");
  await dialog.locator('[data-testid="approval-preview"][data-outcome="approval"]').waitFor();
  assert.match(await note.innerText(), /goes to approval[\s\S]*\$1,500,000\.00 is over the \$1,000,000\.00 threshold/);
  await dialog.getByRole("button", { name: "Submit for approval" }).waitFor();
  assert.equal(await dialog.getByRole("button", { name: "Execute Sweep" }).count(), 0);
  await expectAccessible(page, "manual sweep dialog going to approval");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await dialog.waitFor({ state: "detached" });
}

/** A card funded above what the maker may move alone today says so before it is issued. */
async function cardFundingSaysWhereItGoes(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/card-management`);
  await page.getByRole("tab", { name: "Issue New Card" }).click();
  const amount = page.getByLabel("Initial Balance");
  await amount.fill("2500000.00");
  assert.equal(await amount.inputValue(), "2,500,000.00");
  const note = page.getByTestId("approval-preview");
  await page.locator('[data-testid="approval-preview"][data-outcome="approval"]').waitFor();
  assert.match(await note.innerText(), /\$2,500,000\.00 is over the \$1,000,000\.00 threshold/);
  await page.getByRole("button", { name: "Submit for approval" }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Issue Card" }).count(), 0);
  await expectAccessible(page, "issue card going to approval");
}

async function dashboardCountsTheQueue(page: Page, baseUrl: string) {
  const crew = await e2eCrew(baseUrl);
  const queue = await fetch(`${baseUrl}/api/approvals?status=pending&limit=1`, { headers: { cookie: crew.operator } });
  await queue.body?.cancel();
  const total = Number(queue.headers.get("x-total-count"));
  assert.ok(total >= 1, "the funded account's request waits");
  await page.goto(`${baseUrl}/`);
  const alerts = page.getByTestId("system-alerts");
  await alerts.getByText(`${total} ${total === 1 ? "request" : "requests"} awaiting approval`).waitFor();
  assert.equal(await page.getByTestId("approvals-badge").innerText(), String(total));
  await expectAccessible(page, "dashboard with requests awaiting approval");
}

/** The registry's row action for a pending institution files a request: it says so, never "Approve". */
async function rowActionRequestsApproval(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/institutions`);
  const table = page.getByRole("table", { name: "Financial institutions" });
  await table.locator("tbody tr").first().waitFor();
  const pendingRow = table.locator("tbody tr").filter({ hasText: "pending" }).first();
  const action = pendingRow.getByRole("button", { name: /^Request approval of / });
  await action.waitFor();
  assert.equal(await action.innerText(), "Request approval");
  assert.equal(await table.getByRole("button", { name: /^Approve\b/ }).count(), 0);
  await expectAccessible(page, "institutions registry with a pending institution");
}

for (const viewport of VIEWPORTS) {
  e2eTest(
    `four-eyes up front on a ${viewport.name} (${viewport.width}×${viewport.height}): preview, reasons, amounts, counts`,
    () =>
      withBrowser(async ({ page, server }) => {
        await sweepAccounts(server.baseUrl);
        await signInAsOperator(page, server.baseUrl);
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await page.goto(`${server.baseUrl}/balance-sweep`);
        await page.getByRole("table", { name: "Ledger and liquid accounts" }).waitFor();
        await fundedAccountAsksItsReason(page);
        await sweepDialogSaysWhereItGoes(page);
        await cardFundingSaysWhereItGoes(page, server.baseUrl);
        await dashboardCountsTheQueue(page, server.baseUrl);
        await rowActionRequestsApproval(page, server.baseUrl);
      }, { SEED_DEMO: "1" }),
  );
}
