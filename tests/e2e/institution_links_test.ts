/**
 * Issue 23: wherever an institution is named, its name leads to its page (/institutions/:id): besides
 * the registry, dashboard and routing codes (tests/e2e/navigation_test.ts), an institution's status
 * request in Approvals, its rows in the Audit Trail, the dashboard's Code Lookup and the institution
 * an IBAN validation names.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  apiSession,
  E2E_OPERATOR_PASSWORD,
  e2eOperator,
  e2eTest,
  expectAccessible,
  signIn,
  withBrowser,
} from "./helpers.ts";

const NAME = "Westminster Link Bank";

async function expectInstitutionPage(page: Page, id: string) {
  await page.waitForURL(`**/institutions/${id}`);
  await page.getByRole("heading", { name: NAME }).first().waitFor();
}

e2eTest(
  "an institution's name links to its page from Approvals, the Audit Trail, Code Lookup and IBAN validation",
  () =>
    withBrowser(async ({ page, server }) => {
      // The operator registers the institution and requests its status change; the administrator,
      // who reads every screen below (the Audit Trail too), follows the links.
      const operator = await apiSession(
        server.baseUrl,
        await e2eOperator(server.baseUrl),
        E2E_OPERATOR_PASSWORD,
      );
      const created = await operator("POST", "/api/institutions", {
        name: NAME,
        type: "commercial",
        registrationNumber: "LINK-001",
        address: "1 Link Street",
        phoneNumber: "+44 20 7946 0000",
        emailAddress: "ops@link.example",
      });
      assert.equal(created.status, 201);
      const { id } = created.json;
      const bic = await operator("POST", "/api/swift-codes", { institutionId: id, bicCode: "NWBKGB2L" });
      assert.equal(bic.status, 201);
      const change = await operator("PATCH", `/api/institutions/${id}/status`, {
        status: "active",
        requestReason: "Licence granted",
      });
      assert.equal(change.status, 202, "a status change waits for a second person");
      await signIn(page, server.baseUrl);

      await page.goto(`${server.baseUrl}/approvals`);
      const pending = page.getByRole("table", { name: "Pending requests" });
      await pending.getByRole("link", { name: NAME }).click();
      await expectInstitutionPage(page, id);

      await page.goto(`${server.baseUrl}/audit-trail`);
      const events = page.getByRole("table", { name: "Audit events" });
      await events.getByRole("link", { name: NAME }).first().click();
      await expectInstitutionPage(page, id);

      await page.goto(`${server.baseUrl}/`);
      await page.getByLabel("Lookup type").selectOption("institution");
      await page.getByLabel("Search value").fill("Westminster");
      await page.getByRole("search", { name: "Code lookup" }).getByRole("button", { name: "Search" }).click();
      await page.getByTestId("lookup-results").getByRole("link", { name: NAME }).click();
      await expectInstitutionPage(page, id);

      await page.goto(`${server.baseUrl}/iban-validation`);
      await page.getByLabel("IBAN", { exact: true }).fill("GB29NWBK60161331926819");
      await page.getByRole("button", { name: "Validate" }).click();
      const link = page.getByRole("link", { name: NAME });
      await link.waitFor();
      await expectAccessible(page, "/iban-validation with the institution linked");
      await link.click();
      await expectInstitutionPage(page, id);
    }),
);
