import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { approveAllPending } from "../helpers/http_staff.ts";
import { e2eCrew, e2eTest, expectAccessible, signIn, signInAsOperator, withBrowser } from "./helpers.ts";

async function addAccount(page: Page, fields: {
  number: string;
  name: string;
  type: string;
  balance: string;
  threshold?: string;
  target?: string;
}) {
  await page.getByRole("button", { name: "Add Account" }).click();
  // The dialog element itself has no box (Headless UI); wait for its first field instead.
  const dialog = page.getByRole("dialog", { name: "Add Account" });
  await dialog.getByLabel("Account Number").waitFor();
  await dialog.getByLabel("Account Number").fill(fields.number);
  await dialog.getByLabel("Account Name").fill(fields.name);
  await dialog.getByLabel("Account Type").selectOption(fields.type);
  assert.equal(await dialog.getByLabel("Initial Balance").inputValue(), "0.00");
  await dialog.getByLabel("Initial Balance").fill(fields.balance);
  if (fields.threshold) await dialog.getByLabel("Sweep Threshold").fill(fields.threshold);
  if (fields.target) await dialog.getByLabel("Target Liquid Account").selectOption({ label: fields.target });
  // An account opened with money is a four-eyes request (issue 20); an empty one opens at once. The
  // dialog says so before submitting: the reason shows and the button says what will happen.
  const funded = Number(fields.balance) !== 0;
  if (funded) await dialog.getByLabel("Reason for approval").fill("Opening the E2E ledger");
  await dialog.getByRole("button", { name: funded ? "Submit for approval" : "Create Account" }).click();
  const toast = funded
    ? "Submitted for approval"
    : fields.type === "liquid"
    ? "Liquid account created successfully"
    : "Ledger account created successfully";
  await page.getByTestId("toast").filter({ hasText: toast }).waitFor();
  await dialog.waitFor({ state: "detached" });
}

async function statValue(page: Page, label: string): Promise<string> {
  const card = page.locator("p", { hasText: label }).locator("xpath=..");
  return (await card.locator("p").nth(1).innerText()).trim();
}

e2eTest(
  "balance sweeps: add two accounts, run a manual and an auto sweep, see both with their ISO 20022 links",
  () =>
    withBrowser(async ({ page, server }) => {
      // The operator opens accounts and sweeps; the first administrator holds administrator alone.
      await signInAsOperator(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/balance-sweep`);
      await page.getByRole("heading", { name: "Balance Sweep Management" }).waitFor();
      await page.getByRole("table", { name: "Ledger and liquid accounts" }).waitFor();
      await expectAccessible(page, "balance sweep screen");

      await page.getByRole("button", { name: "Add Account" }).click();
      await page.getByRole("dialog", { name: "Add Account" }).getByLabel("Account Number").waitFor();
      await expectAccessible(page, "add account dialog");
      await page.getByRole("button", { name: "Cancel" }).click();

      await addAccount(page, { number: "E2E-LIQ-001", name: "E2E Liquid", type: "liquid", balance: "0.00" });
      await addAccount(page, {
        number: "E2E-LDG-001",
        name: "E2E Ledger",
        type: "ledger",
        balance: "1500.00",
        threshold: "1000.00",
        target: "E2E Liquid (E2E-LIQ-001)",
      });
      // The screen shows the request as waiting, not the account as funded.
      const waiting = page.getByTestId("awaiting-approval");
      await waiting.getByRole("heading", { name: "Awaiting approval (1)" }).waitFor();
      assert.match(await waiting.innerText(), /Opening balance · \$1,500\.00: Open ledger account E2E-LDG-001/);
      await expectAccessible(page, "balance sweep screen with a request awaiting approval");
      // A second person approves the opening balance.
      const { approver } = await e2eCrew(server.baseUrl);
      assert.equal((await approveAllPending(server.baseUrl, approver)).length, 1);
      await page.reload();
      const accounts = page.getByRole("table", { name: "Ledger and liquid accounts" });
      await accounts.getByRole("row", { name: /E2E Ledger/ }).getByText("$1,500.00").first().waitFor();

      await page.getByRole("button", { name: "Manual Sweep" }).click();
      const dialog = page.getByRole("dialog", { name: "Manual Sweep" });
      await dialog.getByLabel("Source Account").waitFor();
      await expectAccessible(page, "manual sweep dialog");
      const sources = await dialog.getByLabel("Source Account").locator("option").allInnerTexts();
      assert.ok(sources.some((text) => text.startsWith("E2E Ledger (E2E-LDG-001)")), sources.join("\n"));
      assert.ok(
        !sources.some((text) => text.startsWith("E2E Liquid")),
        "a liquid account is offered as a source",
      );
      // Amounts are typed as text (grouped as typed, exact) and bring up the decimal keypad.
      assert.equal(await dialog.getByLabel("Sweep Amount").getAttribute("inputmode"), "decimal");
      await dialog.getByLabel("Source Account").selectOption({
        label: "E2E Ledger (E2E-LDG-001) · $1,500.00",
      });
      await dialog.getByLabel("Target Account").selectOption({ label: "E2E Liquid (E2E-LIQ-001) · $0.00" });

      // A rejected sweep shows the server's reason and leaves the dialog open.
      await dialog.getByLabel("Sweep Amount").fill("5000.00");
      await dialog.getByRole("button", { name: "Execute Sweep" }).click();
      const failure = page.getByTestId("toast").filter({ hasText: "Failed to execute balance sweep" });
      await failure.waitFor();
      assert.match(await failure.innerText(), /Insufficient funds/);
      await expectAccessible(page, "manual sweep dialog with a failure toast");

      await dialog.getByLabel("Sweep Amount").fill("200.00");
      await dialog.getByLabel("Sweep Reason").fill("Intraday liquidity");
      await dialog.getByRole("button", { name: "Execute Sweep" }).click();
      await page.getByTestId("toast").filter({ hasText: "Balance sweep executed successfully" }).waitFor();
      await dialog.waitFor({ state: "detached" });

      // Issue 23: the automatic sweep first shows what it will move and asks to confirm.
      await page.getByRole("button", { name: "Auto Sweep" }).click();
      const confirm = page.getByRole("dialog", { name: "Auto Sweep" });
      const planned = confirm.getByRole("table", { name: "Planned sweeps" });
      await planned.getByRole("row", { name: /E2E Ledger[\s\S]*E2E Liquid[\s\S]*\$300\.00/ }).waitFor();
      assert.equal(await confirm.getByTestId("auto-sweep-totals").innerText(), "Total: $300.00");
      await expectAccessible(page, "auto sweep confirmation");
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await confirm.waitFor({ state: "detached" });
      assert.equal(await statValue(page, "Total Liquid Balance"), "$200.00", "cancelling moves nothing");
      await page.getByRole("button", { name: "Auto Sweep" }).click();
      await confirm.getByRole("button", { name: "Confirm Auto Sweep" }).click();
      // Every automatic run with moves waits for a second person; nothing has moved yet.
      await page.getByTestId("toast").filter({ hasText: "Submitted for approval" }).waitFor();
      assert.equal(await statValue(page, "Total Liquid Balance"), "$200.00");
      await waiting.getByText(/Automatic sweep run · \$300\.00/).waitFor();
      const [run] = await approveAllPending(server.baseUrl, approver);
      assert.equal(run.kind, "auto_sweep");
      await page.reload();

      const recent = page.getByRole("table", { name: "Recent balance sweeps" });
      await recent.getByRole("row", { name: /Threshold/ }).waitFor();
      await waiting.waitFor({ state: "detached" });
      const rows = recent.locator("tbody tr");
      assert.equal(await rows.count(), 2);
      assert.match(
        await rows.nth(0).innerText(),
        /Threshold[\s\S]*E2E Ledger[\s\S]*E2E Liquid[\s\S]*\$300\.00/,
      );
      assert.match(await rows.nth(1).innerText(), /Manual[\s\S]*E2E Ledger[\s\S]*E2E Liquid[\s\S]*\$200\.00/);

      assert.equal(await statValue(page, "Total Liquid Balance"), "$500.00");
      assert.equal(await statValue(page, "Today's Sweeps"), "2");
      await accounts.getByRole("row", { name: /E2E Ledger/ }).getByText("$1,000.00").first().waitFor();

      const link = rows.nth(1).getByRole("link", { name: /Download ISO 20022 message/ });
      const href = await link.getAttribute("href");
      assert.match(href ?? "", /^\/api\/balance-sweeps\/[0-9a-f-]{36}\/iso20022$/);
      const xml = await page.request.get(`${server.baseUrl}${href}`);
      assert.equal(xml.status(), 200);
      assert.match(await xml.text(), /<AmtWthCcy Ccy="USD">200\.00<\/AmtWthCcy>/);
      await expectAccessible(page, "balance sweep screen with sweeps");
    }),
);

e2eTest(
  "ledger accounts: an administrator sets an account's daily outflow limit on the accounts table and removes it",
  () =>
    withBrowser(async ({ page, server }) => {
      await signIn(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/balance-sweep`);
      const accounts = page.getByRole("table", { name: "Ledger and liquid accounts" });
      const row = accounts.getByRole("row", { name: /CB-OPERATING-001/ });
      await row.getByText("None").waitFor();
      const edit = row.getByRole("button", { name: "Edit the daily outflow limit of CB-OPERATING-001" });
      await edit.click();
      const dialog = page.getByRole("dialog", { name: "Daily Outflow Limit" });
      const field = dialog.getByLabel("Daily Outflow Limit");
      await field.waitFor();
      assert.equal(await field.inputValue(), "");
      await expectAccessible(page, "daily outflow limit dialog");
      await field.fill("500000.00");
      await dialog.getByRole("button", { name: "Save Limit" }).click();
      await page.getByTestId("toast").filter({ hasText: "Daily outflow limit saved" }).waitFor();
      await dialog.waitFor({ state: "detached" });
      await row.getByText("$500,000.00").waitFor();

      // Blank removes the limit; the editor opens on the limit as stored.
      await edit.click();
      await field.waitFor();
      // Shown grouped, as typed.
      assert.equal(await field.inputValue(), "500,000.00");
      await field.fill("");
      await dialog.getByRole("button", { name: "Save Limit" }).click();
      await dialog.waitFor({ state: "detached" });
      await row.getByText("None").waitFor();
    }),
);
