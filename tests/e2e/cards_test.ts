import assert from "node:assert/strict";
import type { Page, Route } from "playwright-core";
import { e2eTest, expectAccessible, signInAsOperator, withBrowser } from "./helpers.ts";

/** Waits for the one visible toast to contain `text` and returns its whole text. */
async function toastWith(page: Page, text: string): Promise<string> {
  const toast = page.getByTestId("toast").filter({ hasText: text });
  await toast.waitFor();
  return await toast.innerText();
}

/**
 * The shared toaster renders each toast as <li role="alert|status"> inside an <ol>, which axe
 * reports as a serious "list" violation; the screens are checked with no toast showing.
 */
async function checkAccessible(page: Page, context: string) {
  for (const dismiss of await page.getByRole("button", { name: "Dismiss notification" }).all()) await dismiss.click();
  await page.getByTestId("toast").waitFor({ state: "detached" });
  await expectAccessible(page, context);
}

async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name }).click();
  await page.getByRole("tab", { name, selected: true }).waitFor();
}

e2eTest("card management: issue a card, load funds and see the new balance, on accessible tabs", () =>
  withBrowser(async ({ page, server }) => {
    await signInAsOperator(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/card-management`);
    await page.getByRole("heading", { name: "Card Management", level: 1 }).waitFor();
    await page.getByText("enormous available balances with immediate availability").waitFor();
    assert.equal(await page.getByTestId("available-central_bank_treasury").innerText(), "$1,000,000,000,000.00");
    await page.getByText("No cards issued yet").waitFor();
    await checkAccessible(page, "card management: existing cards (empty)");

    await openTab(page, "Issue New Card");
    await checkAccessible(page, "card management: issue new card");
    assert.equal(await page.getByLabel("Spending Limit").inputValue(), "10000");
    assert.equal(await page.getByLabel("Daily Limit").inputValue(), "1000");
    await page.getByLabel("Cardholder Name").fill("Ada Lovelace");
    await page.getByLabel("Initial Balance").fill("25.50");
    await page.getByRole("button", { name: "Issue Card" }).click();
    assert.match(await toastWith(page, "Card Issued"), /issued to Ada Lovelace, funded with \$25\.50/);
    assert.equal(await page.getByLabel("Cardholder Name").inputValue(), "");
    assert.equal(await page.getByLabel("Initial Balance").inputValue(), "0");

    await openTab(page, "Load Funds");
    await checkAccessible(page, "card management: load funds");
    const submit = page.getByRole("button", { name: "Load Funds" });
    assert.equal(await submit.isDisabled(), true, "disabled while no card is chosen");
    const cardSelect = page.getByLabel("Card", { exact: true });
    const option = cardSelect.locator("option", { hasText: "Ada Lovelace" });
    await cardSelect.selectOption(await option.getAttribute("value") ?? "");
    assert.equal(await submit.isDisabled(), true, "disabled while the amount is 0");
    await page.getByLabel("Amount").fill("100.25");
    await page.getByLabel("Funding Source").selectOption("settlement_source");
    await submit.click();
    assert.match(await toastWith(page, "Funds Loaded"), /\$100\.25 loaded onto \d{6}\*{6}\d{4} from Settlement Source\. New balance: \$125\.75/);
    assert.equal(await page.getByLabel("Card", { exact: true }).inputValue(), "", "the form is back to its defaults");
    assert.equal(await page.getByLabel("Funding Source").inputValue(), "central_bank_treasury");
    assert.equal(await submit.isDisabled(), true);

    await openTab(page, "Distribute Card");
    await checkAccessible(page, "card management: distribute card");
    await page.getByLabel("Recipient Name").fill("Grace Hopper");
    await page.getByLabel("Recipient Email").fill("grace@navy.test");
    await page.getByLabel("Distribution Method").selectOption("physical");
    await page.getByLabel("Load Amount").fill("10");
    await page.getByRole("button", { name: "Distribute Card" }).click();
    assert.match(await toastWith(page, "Card Distributed"), /Grace Hopper \(Physical\), loaded with \$10\.00/);
    assert.equal(await page.getByLabel("Recipient Name").inputValue(), "");

    await openTab(page, "Existing Cards");
    const adaRow = page.getByRole("row").filter({ hasText: "Ada Lovelace" });
    await adaRow.waitFor();
    assert.equal(await adaRow.getByTestId("card-balance").innerText(), "$125.75");
    assert.match(await adaRow.innerText(), /\d{6}\*{6}\d{4}[\s\S]*active[\s\S]*VISA Prepaid[\s\S]*\$1,000\.00[\s\S]*\$10,000\.00/);
    await page.getByRole("row").filter({ hasText: "Grace Hopper" }).waitFor();
    await checkAccessible(page, "card management: existing cards");
    assert.equal(await page.getByTestId("available-central_bank_treasury").innerText(), "$999,999,999,964.50");
    assert.equal(await page.getByTestId("available-settlement_source").innerText(), "$999,999,999,899.75");
    assert.ok(!/\d{16}/.test(await page.locator("main").innerText()), "no full card number on screen");
  }));

e2eTest("fintech operations: sandbox labels, missing-input messages, and an account verified in the sandbox", () =>
  withBrowser(async ({ page, server }) => {
    await signInAsOperator(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/fintech-operations`);
    await page.getByRole("heading", { name: "Fintech Operations", level: 1 }).waitFor();
    // Sandboxed providers say so, and nothing on the card calls them operational.
    for (const provider of ["plaid", "visa"]) {
      assert.equal(await page.getByTestId(`provider-${provider}-status`).innerText(), "Sandbox");
      assert.doesNotMatch(await page.getByTestId(`provider-${provider}`).innerText(), /Operational/);
    }
    await checkAccessible(page, "fintech: account data services");

    await page.getByRole("button", { name: "Verify Account" }).click();
    assert.match(await toastWith(page, "Missing Information"), /Please provide both account number and routing number/);
    await page.getByRole("button", { name: "Check Balance" }).click();
    assert.match(await toastWith(page, "Missing Account ID"), /Please provide an account ID/);

    await page.getByLabel("Account Number").fill("123456789012");
    await page.getByLabel("Routing Number").fill("021000022");
    await page.getByRole("button", { name: "Verify Account" }).click();
    assert.match(await toastWith(page, "Verification Failed"), /Failed to verify account through Plaid/);

    await page.getByLabel("Account Number").fill("123456789012");
    await page.getByLabel("Routing Number").fill("021000021");
    await page.getByRole("button", { name: "Verify Account" }).click();
    assert.match(await toastWith(page, "Account Verified"), /Account verified via instant_auth/);
    const result = page.getByTestId("verification-result");
    assert.match(await result.innerText(), /\*\*\*\*9012[\s\S]*021000021/);
    await checkAccessible(page, "fintech: account verified");
    await page.getByRole("button", { name: "Use for Balance Check" }).click();
    await page.getByRole("button", { name: "Check Balance" }).click();
    assert.match(await toastWith(page, "Balance Retrieved"), /Available: \$[\d,]+\.\d{2}, Current: \$[\d,]+\.\d{2}/);

    await openTab(page, "Card Payment Services");
    await checkAccessible(page, "fintech: card payment services");
    await page.getByRole("button", { name: "Send Transfer" }).click();
    assert.match(await toastWith(page, "Missing Information"), /Please provide recipient card and amount/);
    await page.getByRole("button", { name: "Process Payment" }).click();
    assert.match(await toastWith(page, "Missing Information"), /Please provide account ID, card number, and amount/);
    await page.getByLabel("Recipient Card").fill("4532015112830367");
    await page.getByLabel("Amount (USD)").fill("12.34");
    await page.getByRole("button", { name: "Send Transfer" }).click();
    assert.match(await toastWith(page, "Transfer Failed"), /Failed to process Visa Direct transfer/);
    await page.getByLabel("Recipient Card").fill("4532015112830366");
    await page.getByRole("button", { name: "Send Transfer" }).click();
    assert.match(await toastWith(page, "Transfer Completed"), /Transfer ID: \d{15}, Amount: \$12\.34/);
    assert.equal(await page.getByLabel("Recipient Card").inputValue(), "");
    await page.getByLabel("Account ID").fill("CB-OPERATING-001");
    await page.getByLabel("Card Number").fill("4532015112830366");
    await page.getByLabel("Payment Amount").fill("5");
    await page.getByRole("button", { name: "Process Payment" }).click();
    assert.match(await toastWith(page, "Payment Approved"), /Payment ID: \d{15}, Auth Code: [0-9A-Z]{6}/);
  }));

/**
 * The first request the page sends to `path` reaches the server, whose answer is then lost as
 * `lose` says; answers the Idempotency-Key of each request sent to `path`, in order.
 */
async function loseFirstAnswer(page: Page, path: string, lose: (route: Route) => Promise<void>): Promise<string[]> {
  let lost = false;
  await page.route(`**${path}`, async (route) => {
    if (lost) return route.fallback();
    lost = true;
    await route.fetch();
    await lose(route);
  });
  // Registered last, so it sees every request first.
  const keys: string[] = [];
  await page.route(`**${path}`, (route) => {
    keys.push(route.request().headers()["idempotency-key"] ?? "");
    return route.fallback();
  });
  return keys;
}

e2eTest("a submission whose answer was lost (503, no answer) is sent again with its key and happens once", () =>
  withBrowser(async ({ page, server }) => {
    await signInAsOperator(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/card-management`);
    await openTab(page, "Issue New Card");
    // The first answer is lost after the server issued the card: the screen sees a 503.
    const issueKeys = await loseFirstAnswer(page, "/api/cards/issue", (route) =>
      route.fulfill({
        status: 503,
        json: { message: "Changes are paused: headquarters cannot be reached.", code: "unavailable" },
      }));
    await page.getByLabel("Cardholder Name").fill("Ada Lovelace");
    await page.getByLabel("Initial Balance").fill("5.00");
    await page.getByRole("button", { name: "Issue Card" }).click();
    await toastWith(page, "Failed to issue card");
    await page.getByRole("button", { name: "Issue Card" }).click();
    assert.match(await toastWith(page, "Card Issued"), /issued to Ada Lovelace, funded with \$5\.00/);
    // After a success the same form is a new submission.
    await page.getByLabel("Cardholder Name").fill("Ada Lovelace");
    await page.getByLabel("Initial Balance").fill("5.00");
    const fresh = page.waitForResponse((response) => response.url().endsWith("/api/cards/issue"));
    await page.getByRole("button", { name: "Issue Card" }).click();
    assert.equal((await fresh).status(), 201);
    assert.equal((await fresh).headers()["idempotent-replayed"], undefined);
    assert.equal(issueKeys.length, 3);
    assert.equal(issueKeys[1], issueKeys[0], "the retry of the lost submission carries its key");
    assert.notEqual(issueKeys[2], issueKeys[0], "a new submission carries a new key");
    await openTab(page, "Existing Cards");
    await page.getByRole("row").filter({ hasText: "Ada Lovelace" }).nth(1).waitFor();
    assert.equal(await page.getByRole("row").filter({ hasText: "Ada Lovelace" }).count(), 2, "two submissions, two cards");

    // A transfer whose connection fails after Visa was asked: the retry is answered without asking again.
    await page.goto(`${server.baseUrl}/fintech-operations`);
    await openTab(page, "Card Payment Services");
    const transferKeys = await loseFirstAnswer(page, "/api/visa/direct-transfer", (route) => route.abort("connectionreset"));
    await page.getByLabel("Recipient Card").fill("4532015112830366");
    await page.getByLabel("Amount (USD)").fill("7.00");
    await page.getByRole("button", { name: "Send Transfer" }).click();
    await toastWith(page, "Transfer Failed");
    const replayed = page.waitForResponse((response) => response.url().endsWith("/api/visa/direct-transfer"));
    await page.getByRole("button", { name: "Send Transfer" }).click();
    assert.equal((await replayed).headers()["idempotent-replayed"], "true");
    assert.match(await toastWith(page, "Transfer Completed"), /Amount: \$7\.00/);
    assert.equal(transferKeys.length, 2);
    assert.equal(transferKeys[1], transferKeys[0]);
  }));
