import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { institutions } from "../../db/schema.ts";
import { formatRoutingCode } from "../../src/domain/routing_code.ts";
import { openDatabase } from "../../src/server/db/database.ts";
import {
  e2eApprover,
  e2eTest,
  expectAccessible,
  signIn,
  signInAsOperator,
  type TestServer,
  withBrowser,
} from "./helpers.ts";

/** Registers an institution straight into the server's database (a second connection to the same file). */
async function insertInstitution(server: TestServer, name: string): Promise<string> {
  const db = await openDatabase(server.databaseUrl);
  const id = crypto.randomUUID();
  try {
    await db.transaction(async (tx) => {
      await tx.insert(institutions).values({
        id,
        name,
        type: "commercial",
        registrationNumber: `E2E-${id.slice(0, 8)}`,
        address: "1 Treasury Square",
        phoneNumber: "+1 555 0100",
        emailAddress: "ops@e2e.test",
        status: "active",
        swiftParticipant: true,
        swiftMembershipType: "full",
      });
    });
  } finally {
    db.close();
  }
  return id;
}

/**
 * Reads the toast and dismisses it: the shared toaster's list markup (li with role alert/status in
 * an ol) trips axe's "list" rule, which is not this screen's to fix.
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
  "IBAN screen: validates a valid and an invalid IBAN, upper-cases the input and lists the 89 formats",
  () =>
    withBrowser(async ({ page, server }) => {
      await signIn(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/iban-validation`);
      await page.getByRole("heading", { name: "IBAN Validation", level: 1 }).waitFor();
      const table = page.getByRole("table", { name: "IBAN country configurations" });
      await table.getByRole("cell", { name: "GB29NWBK60161331926819" }).waitFor();
      assert.equal(await table.locator("tbody tr").count(), 89);
      assert.equal(await statValue(page, "Supported Countries"), "89");
      assert.equal(await statValue(page, "Active Configs"), "89");
      assert.equal(await statValue(page, "Standard"), "ISO 13616");

      const input = page.getByLabel("IBAN", { exact: true });
      const validate = page.getByRole("button", { name: "Validate" });
      assert(await validate.isDisabled(), "Validate is disabled while the input is blank");
      await input.pressSequentially("   ");
      assert(await validate.isDisabled(), "Validate stays disabled for white space");
      await input.fill("");
      await input.pressSequentially("gb29 nwbk 6016 1331 9268 19");
      assert.equal(await input.inputValue(), "GB29 NWBK 6016 1331 9268 19");
      await expectAccessible(page, "/iban-validation");
      await validate.click();
      const result = page.getByTestId("iban-result");
      await result.getByRole("heading", { name: "Valid IBAN" }).waitFor();
      const text = await result.innerText();
      for (
        const part of ["GB29 NWBK 6016 1331 9268 19", "GB (United Kingdom)", "NWBK", "601613", "31926819"]
      ) {
        assert(text.includes(part), `result shows ${part}:\n${text}`);
      }
      await expectAccessible(page, "/iban-validation with a valid result");

      await input.fill("GB28NWBK60161331926819");
      await validate.click();
      assert.match(await readAndDismissToast(page), /Invalid IBAN[\s\S]*wrong check digits/);
      await result.getByRole("heading", { name: "Invalid IBAN" }).waitFor();
      await expectAccessible(page, "/iban-validation with an invalid result");

      // Only a-z is upper-cased: a long s stays itself instead of becoming the S of a valid SE IBAN.
      await input.fill("\u017Fe45 5000 0000 0583 9825 7466");
      assert.equal(await input.inputValue(), "\u017FE45 5000 0000 0583 9825 7466");
      await validate.click();
      assert.match(
        await readAndDismissToast(page),
        /Invalid IBAN[\s\S]*invalid character "\u017F" \(U\+017F\) at position 1/,
      );
    }),
);

e2eTest(
  "Routing Codes screen: assigns a code after previewing it, then filters the table",
  () =>
    withBrowser(async ({ page, server }) => {
      await insertInstitution(server, "Harbor City Clearing Bank");
      await signInAsOperator(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/routing-codes`);
      await page.getByRole("heading", { name: "Routing Codes", level: 1 }).waitFor();
      await page.getByText("No routing codes yet").waitFor();
      assert.equal(await statValue(page, "Total Codes"), "0");
      await expectAccessible(page, "/routing-codes");

      await page.getByRole("button", { name: "Assign New Code" }).click();
      const dialog = page.getByRole("dialog", { name: "Assign New Code" });
      await dialog.getByLabel("Institution").waitFor();
      await dialog.getByLabel("Institution").selectOption({ label: "Harbor City Clearing Bank" });
      const prefix = dialog.getByLabel("Prefix");
      const preview = dialog.getByTestId("routing-code-preview");
      await prefix.pressSequentially("cb");
      assert.equal(await prefix.inputValue(), "CB");
      assert.equal(await preview.innerText(), "", "no preview before three characters");
      await prefix.pressSequentially("rx");
      assert.equal(await prefix.inputValue(), "CBR", "the prefix holds at most three characters");
      const expected = formatRoutingCode("CBR", 1);
      await preview.getByText(expected).waitFor();
      await prefix.press("Backspace");
      await page.waitForFunction(() =>
        document.querySelector("[data-testid=routing-code-preview]")?.textContent === ""
      );
      await prefix.pressSequentially("R");
      await preview.getByText(expected).waitFor();
      await dialog.getByLabel("Branch Code").fill("001");
      await dialog.getByLabel("Description").fill("Head office clearing");
      await expectAccessible(page, "assign routing code dialog");
      await dialog.getByRole("button", { name: "Assign Code" }).click();
      assert.match(await readAndDismissToast(page), new RegExp(`Routing code assigned[\\s\\S]*${expected}`));
      await dialog.waitFor({ state: "detached" });

      const table = page.getByRole("table", { name: "Routing codes" });
      const row = table.getByRole("row", { name: new RegExp(expected) });
      await row.waitFor();
      assert.match(await row.innerText(), /CBR[\s\S]*001[\s\S]*active[\s\S]*Head office clearing/);
      assert.equal(await statValue(page, "Total Codes"), "1");
      assert.equal(await statValue(page, "Active Codes"), "1");
      assert.equal(await statValue(page, "Unique Prefixes"), "1");
      assert.equal(await statValue(page, "This Month"), "1");

      const search = page.getByLabel("Search routing codes");
      await search.fill("zzz");
      await page.getByText("No matching routing codes").waitFor();
      await search.fill("head office");
      await row.waitFor();
      await expectAccessible(page, "/routing-codes with a code");
    }),
);

e2eTest(
  "SWIFT/BIC screen: registers a BIC with live validation, and the IBAN screen then names its institution",
  () =>
    withBrowser(async ({ page, server }) => {
      await insertInstitution(server, "Westminster Clearing Bank");
      await signInAsOperator(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/swift-bic`);
      await page.getByRole("heading", { name: "SWIFT/BIC Management", level: 1 }).waitFor();
      await page.getByText("No BIC codes yet").waitFor();
      await expectAccessible(page, "/swift-bic");

      await page.getByRole("button", { name: "Register BIC Code" }).click();
      const dialog = page.getByRole("dialog", { name: "Register BIC Code" });
      await dialog.getByLabel("Institution").waitFor();
      await dialog.getByLabel("Institution").selectOption({ label: "Westminster Clearing Bank" });
      const bic = dialog.getByLabel("BIC Code");
      const submit = dialog.getByRole("button", { name: "Register BIC" });
      await bic.pressSequentially("nwbkgb2");
      assert.equal(await bic.inputValue(), "NWBKGB2");
      await dialog.getByText("BIC must be 8 or 11 characters, got 7").waitFor();
      assert(await submit.isDisabled());
      await bic.fill("NWBKZZ2L");
      await dialog.getByText("BIC country code ZZ is not an ISO 3166-1 country").waitFor();
      await bic.fill("NWBKGB2L");
      await dialog.getByText("Valid BIC: bank NWBK, country GB, location 2L, branch XXX (primary office)")
        .waitFor();
      await dialog.getByLabel("Membership Type").selectOption("full");
      await expectAccessible(page, "register BIC dialog");
      await submit.click();
      assert.match(await readAndDismissToast(page), /BIC code registered[\s\S]*NWBKGB2L/);
      await dialog.waitFor({ state: "detached" });

      const row = page.getByRole("table", { name: "BIC codes" }).getByRole("row", { name: /NWBKGB2L/ });
      await row.waitFor();
      const cells = await row.getByRole("cell").allInnerTexts();
      // Successor and changes to come are empty; the row's buttons close it.
      assert.deepEqual(cells, [
        "NWBKGB2L",
        "NWBK",
        "GB",
        "2L",
        "XXX",
        "Full",
        "active",
        "Indefinite",
        "—",
        "—",
        "History\nChange status",
      ]);
      assert.equal(await statValue(page, "Total BIC Codes"), "1");
      assert.equal(await statValue(page, "Full Members"), "1");
      const search = page.getByLabel("Search BIC codes");
      await search.fill("DEUT");
      await page.getByText("No matching BIC codes").waitFor();
      await search.fill("gb");
      await row.waitFor();
      await expectAccessible(page, "/swift-bic with a BIC");

      await page.getByRole("navigation", { name: "Main" }).getByRole("link", {
        name: "IBAN Validation",
        exact: true,
      }).click();
      await page.getByLabel("IBAN", { exact: true }).fill("GB29NWBK60161331926819");
      await page.getByRole("button", { name: "Validate" }).click();
      const result = page.getByTestId("iban-result");
      await result.getByText("Westminster Clearing Bank").waitFor();
      assert.match(await result.innerText(), /Institution[\s\S]*Westminster Clearing Bank \(NWBKGB2L\)/i);
    }),
);

e2eTest(
  "Routing Codes screen: a suspension requested from a date shows as a change to come once approved, and in the code's history",
  () =>
    withBrowser(async ({ page, server }) => {
      await insertInstitution(server, "Lakeside Clearing Bank");
      await signInAsOperator(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/routing-codes`);
      await page.getByRole("button", { name: "Assign New Code" }).click();
      const assign = page.getByRole("dialog", { name: "Assign New Code" });
      await assign.getByLabel("Institution").selectOption({ label: "Lakeside Clearing Bank" });
      await assign.getByLabel("Prefix").pressSequentially("LKS");
      const code = formatRoutingCode("LKS", 1);
      await assign.getByTestId("routing-code-preview").getByText(code).waitFor();
      await assign.getByRole("button", { name: "Assign Code" }).click();
      await readAndDismissToast(page);
      await assign.waitFor({ state: "detached" });

      const row = page.getByRole("table", { name: "Routing codes" }).getByRole("row", { name: new RegExp(code) });
      await row.getByRole("button", { name: `Change the status of ${code}` }).click();
      const dialog = page.getByRole("dialog", { name: `Change the status of routing code ${code}` });
      await dialog.getByLabel("New status").selectOption("suspended");
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      await dialog.getByLabel("Effective date").fill(tomorrow);
      await dialog.getByLabel("Suspended until").waitFor();
      await dialog.getByLabel("Reason").fill("Clearing membership paused");
      await expectAccessible(page, "routing code status change dialog");
      await dialog.getByRole("button", { name: "Submit for approval" }).click();
      assert.match(await readAndDismissToast(page), /Submitted for approval/);
      await dialog.waitFor({ state: "detached" });

      const checker = await e2eApprover(server.baseUrl);
      const queue = await checker("GET", "/api/approvals?status=pending&kind=code_change");
      assert.equal(queue.json.length, 1);
      assert.equal((await checker("POST", `/api/approvals/${queue.json[0].id}/approve`, { reason: "Agreed" })).status, 200);
      await page.reload();
      await row.getByText(`from ${tomorrow}: Status active → suspended`).waitFor();
      await row.getByText("active", { exact: true }).waitFor();

      await row.getByRole("button", { name: `History of ${code}` }).click();
      const history = page.getByRole("dialog", { name: `History of ${code}` });
      await history.getByText("Status active → suspended").waitFor();
      await history.getByText("To come").waitFor();
      await history.getByText("Registered").waitFor();
      await expectAccessible(page, "routing code history dialog");
    }),
);
