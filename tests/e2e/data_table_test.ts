/**
 * Issue 23: the shared data table in the browser: sorting by a column header, a status filter
 * answered by the server with X-Total-Count paging, routing codes naming their institution, and
 * the search box of the IBAN formats table; the Users, Approvals and Audit Trail screens on the same
 * table (role and status filters, empty states, the audit trail paged by the server).
 */
import assert from "node:assert/strict";
import {
  apiSession,
  e2eOperator,
  E2E_OPERATOR_PASSWORD,
  e2eTest,
  expectAccessible,
  signIn,
  signInAsOperator,
  withBrowser,
} from "./helpers.ts";

const INSTITUTIONS = 130;

e2eTest(
  "institutions: sort by a column, filter by status, page through the server's total",
  () =>
    withBrowser(async ({ page, server }) => {
      // The operator registers institutions; the first administrator holds administrator alone.
      await signInAsOperator(page, server.baseUrl);
      for (let i = 0; i < INSTITUTIONS; i++) {
        const res = await page.request.post(`${server.baseUrl}/api/institutions`, {
          data: {
            name: `Table Bank ${String((i * 37) % INSTITUTIONS).padStart(3, "0")}`,
            type: i % 2 === 0 ? "savings" : "commercial",
            registrationNumber: `TBL-${String(i).padStart(3, "0")}`,
            address: "1 Table Street",
            phoneNumber: "+1 202 555 0100",
            emailAddress: `bank${i}@table.example`,
          },
        });
        assert.equal(res.status(), 201);
      }
      await page.goto(`${server.baseUrl}/institutions`);
      const table = page.getByRole("table", { name: "Financial institutions" });
      const pagination = page.getByRole("navigation", { name: "Pagination" });
      await pagination.getByText(`Showing 1–100 of ${INSTITUTIONS}`).waitFor();

      await table.getByRole("button", { name: "Institution" }).click();
      await table.locator("th[aria-sort=ascending]").waitFor();
      await table.locator("tbody tr").first().getByText("Table Bank 000", { exact: true }).waitFor();
      await table.getByRole("button", { name: "Institution" }).click();
      await table.locator("th[aria-sort=descending]").waitFor();
      await table.locator("tbody tr").first().getByText("Table Bank 129", { exact: true }).waitFor();

      await pagination.getByRole("button", { name: "Next" }).click();
      await pagination.getByText(`Showing 101–${INSTITUTIONS} of ${INSTITUTIONS}`).waitFor();
      // The counter can change before the second page's rows replace the first's: wait for the rows.
      await table.locator("tbody tr").first().getByText(`Table Bank ${String(INSTITUTIONS - 101).padStart(3, "0")}`, {
        exact: true,
      }).waitFor();
      assert.equal(await table.locator("tbody tr").count(), INSTITUTIONS - 100);

      await page.getByLabel("Filter by type").selectOption("commercial");
      await pagination.getByText(`Showing 1–${INSTITUTIONS / 2} of ${INSTITUTIONS / 2}`).waitFor();
      const types = await table.locator("tbody tr td:nth-child(2)").allInnerTexts();
      assert.ok(types.every((type) => type === "Commercial"), types.join(","));

      await page.getByLabel("Filter by status").selectOption("active");
      await page.getByText("No institutions match these filters").waitFor();
      await expectAccessible(page, "/institutions filtered");
    }),
);

e2eTest(
  "routing codes name their institution; the IBAN formats table has a search box",
  () =>
    withBrowser(async ({ page, server }) => {
      await signIn(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/routing-codes`);
      const codes = page.getByRole("table", { name: "Routing codes" });
      await codes.locator("tbody tr").first().waitFor();
      assert.equal(await codes.getByRole("columnheader", { name: "Institution" }).count(), 1);
      const institutionCells = await codes.locator("tbody tr td:nth-child(3)").allInnerTexts();
      assert.ok(institutionCells.length > 0);
      for (const cell of institutionCells) {
        assert.doesNotMatch(cell, /^[0-9a-f]{8}-[0-9a-f]{4}-/, "a name, not a UUID");
      }

      await page.goto(`${server.baseUrl}/iban-validation`);
      const formats = page.getByRole("table", { name: "IBAN country configurations" });
      await formats.getByRole("cell", { name: "GB29NWBK60161331926819" }).waitFor();
      await page.getByLabel("Search IBAN formats").fill("germany");
      // The search applies once typing pauses: the other countries leave (DE is there before it too).
      await formats.getByRole("cell", { name: "GB29NWBK60161331926819" }).waitFor({ state: "detached" });
      await formats.locator("tbody tr").filter({ hasText: "DE" }).first().waitFor();
      assert.equal(await formats.locator("tbody tr").count(), 1);
      await page.getByLabel("Search IBAN formats").fill("no such country");
      await page.getByText("No matching country formats").waitFor();
    }, { SEED_DEMO: "1" }),
);

e2eTest(
  "users, approvals and the audit trail use the shared table: filters, empty states, server paging",
  () =>
    withBrowser(async ({ page, server }) => {
      await signIn(page, server.baseUrl);
      for (
        const [email, roles] of [["auditor@table.test", ["auditor"]], ["checker@table.test", ["approver"]]]
      ) {
        const res = await page.request.post(`${server.baseUrl}/api/users`, { data: { email, roles } });
        assert.equal(res.status(), 201);
      }
      // Enough changes for the audit trail to need a second page of 50, made by the server's operator
      // (a fourth user): the administrator registers no institutions.
      const operator = await apiSession(server.baseUrl, await e2eOperator(server.baseUrl), E2E_OPERATOR_PASSWORD);
      for (let i = 0; i < 60; i++) {
        const res = await operator("POST", "/api/institutions", {
          name: `Audit Bank ${String(i).padStart(2, "0")}`,
          type: "savings",
          registrationNumber: `AUD-${String(i).padStart(3, "0")}`,
          address: "1 Audit Street",
          phoneNumber: "+1 202 555 0100",
          emailAddress: `audit${i}@table.example`,
        });
        assert.equal(res.status, 201);
      }

      await page.goto(`${server.baseUrl}/users`);
      const users = page.getByRole("table", { name: "Users" });
      await users.getByRole("row", { name: /auditor@table\.test/ }).waitFor();
      assert.equal(await users.locator("tbody tr").count(), 4);
      await page.getByLabel("Filter by role").selectOption("auditor");
      await users.getByRole("row", { name: /checker@table\.test/ }).waitFor({ state: "detached" });
      assert.equal(await users.locator("tbody tr").count(), 1);
      await users.getByRole("button", { name: "Reset password" }).waitFor();
      await page.getByLabel("Filter by status").selectOption("disabled");
      await page.getByText("No users match these filters").waitFor();
      await expectAccessible(page, "/users filtered");

      await page.goto(`${server.baseUrl}/approvals`);
      await page.getByRole("table", { name: "Pending requests" }).waitFor();
      await page.getByText("Nothing waits for approval.").waitFor();

      const total = Number(
        (await page.request.get(`${server.baseUrl}/api/audit-trail?limit=1`)).headers()["x-total-count"],
      );
      assert.ok(total > 60, `audit events: ${total}`);
      await page.goto(`${server.baseUrl}/audit-trail`);
      const events = page.getByRole("table", { name: "Audit events" });
      const pagination = page.getByRole("navigation", { name: "Pagination" });
      await pagination.getByText(`Showing 1–50 of ${total}`).waitFor();
      assert.equal(await events.locator("tbody tr").count(), 50);
      await pagination.getByRole("button", { name: "Next" }).click();
      await pagination.getByText(`Showing 51–${Math.min(100, total)} of ${total}`).waitFor();
      const userEvents = Number(
        (await page.request.get(`${server.baseUrl}/api/audit-trail?limit=1&entityType=user`)).headers()[
          "x-total-count"
        ],
      );
      assert.ok(userEvents >= 2 && userEvents < 50, `user events: ${userEvents}`);
      await page.getByLabel("Entity", { exact: true }).selectOption("user");
      await page.getByRole("button", { name: "Filter", exact: true }).click();
      await pagination.getByText(`Showing 1–${userEvents} of ${userEvents}`).waitFor();
      const entities = await events.locator("tbody tr td:nth-child(4) p:first-child").allInnerTexts();
      assert.ok(entities.length > 0 && entities.every((entity) => entity === "user"), entities.join(","));
      await expectAccessible(page, "/audit-trail filtered");
    }),
);
