/**
 * Issue 23: the Approvals and Audit Trail tables sort by their column headers, the server doing the
 * ordering (the browser holds one page): each click asks again and the first row changes with it.
 * The Approvals tables also filter by status and type on the server.
 */
import assert from "node:assert/strict";
import { chooseSignOut, e2eTest, expectAccessible, signIn, signInAsOperator, withBrowser } from "./helpers.ts";

const BANKS = ["Sort Bank Alpha", "Sort Bank Beta", "Sort Bank Gamma"];

e2eTest(
  "approvals and the audit trail sort by a column header, approvals filter by status and type, on the server",
  () =>
    withBrowser(async ({ page, server }) => {
      // The operator files and withdraws the requests; the administrator reads the audit trail.
      await signInAsOperator(page, server.baseUrl);
      const requests: string[] = [];
      // One status-change request per bank, oldest first; the last is withdrawn.
      for (const [i, name] of BANKS.entries()) {
        const created = await page.request.post(`${server.baseUrl}/api/institutions`, {
          data: {
            name,
            type: "savings",
            registrationNumber: `SORT-${i}`,
            address: "1 Order Street",
            phoneNumber: "+1 202 555 0100",
            emailAddress: `sort${i}@order.example`,
          },
        });
        assert.equal(created.status(), 201);
        const { id } = await created.json();
        const change = await page.request.patch(`${server.baseUrl}/api/institutions/${id}/status`, {
          data: { status: "active", requestReason: `Licence granted to ${name}` },
        });
        assert.equal(change.status(), 202, "a status change waits for a second person");
        requests.push((await change.json()).approvalRequest.id);
      }
      const withdrawn = await page.request.post(`${server.baseUrl}/api/approvals/${requests[2]}/cancel`);
      assert.equal(withdrawn.status(), 200);

      await page.goto(`${server.baseUrl}/approvals`);
      const pending = page.getByRole("table", { name: "Pending requests" });
      const firstRow = pending.locator("tbody tr").first();
      // Unsorted: newest first.
      await firstRow.filter({ hasText: BANKS[1] }).waitFor();
      await pending.getByRole("button", { name: "Requested" }).click();
      await pending.locator("th[aria-sort=ascending]", { hasText: "Requested" }).waitFor();
      await firstRow.filter({ hasText: BANKS[0] }).waitFor();
      await pending.getByRole("button", { name: "Requested" }).click();
      await pending.locator("th[aria-sort=descending]", { hasText: "Requested" }).waitFor();
      await firstRow.filter({ hasText: BANKS[1] }).waitFor();

      await page.getByRole("tab", { name: "All requests" }).click();
      const all = page.getByRole("table", { name: "All requests" });
      const allFirst = all.locator("tbody tr").first();
      await allFirst.filter({ hasText: BANKS[2] }).waitFor();
      await all.getByRole("button", { name: "Status" }).click();
      await all.locator("th[aria-sort=ascending]", { hasText: "Status" }).waitFor();
      // "cancelled" before "pending".
      await allFirst.filter({ hasText: "cancelled" }).waitFor();
      await all.getByRole("button", { name: "Status" }).click();
      await all.locator("th[aria-sort=descending]", { hasText: "Status" }).waitFor();
      await allFirst.filter({ hasText: "pending" }).waitFor();
      // The server filters too: only the withdrawn request, then no request of another type.
      const pagination = page.getByRole("navigation", { name: "Pagination" });
      await page.getByLabel("Filter by status").selectOption("cancelled");
      await pagination.getByText("Showing 1–1 of 1").waitFor();
      await allFirst.filter({ hasText: BANKS[2] }).waitFor();
      await page.getByLabel("Filter by type").selectOption("card_load");
      await page.getByText("No request matches these filters.").waitFor();
      await expectAccessible(page, "/approvals sorted and filtered");

      await chooseSignOut(page);
      await page.getByRole("button", { name: "Sign In" }).first().waitFor();
      await signIn(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/audit-trail`);
      const events = page.getByRole("table", { name: "Audit events" });
      const firstEvent = events.locator("tbody tr").first();
      const newest = Number(
        (await page.request.get(`${server.baseUrl}/api/audit-trail?limit=1`)).headers()["x-total-count"],
      );
      assert.ok(newest > 5);
      await firstEvent.locator("td").first().getByText(String(newest), { exact: true }).waitFor();
      await events.getByRole("button", { name: "#" }).click();
      await events.locator("th[aria-sort=ascending]", { hasText: "#" }).waitFor();
      await firstEvent.locator("td").first().getByText("1", { exact: true }).waitFor();
      // By action, A to Z: the first row is the one the API puts first for the same order.
      const [byAction] = await (await page.request.get(
        `${server.baseUrl}/api/audit-trail?sort=action&order=asc&limit=1`,
      )).json();
      await events.getByRole("button", { name: "Action" }).click();
      await events.locator("th[aria-sort=ascending]", { hasText: "Action" }).waitFor();
      await firstEvent.locator("td").first().getByText(String(byAction.seq), { exact: true }).waitFor();
      assert.equal(await firstEvent.locator("td").nth(4).innerText(), byAction.action);
      await expectAccessible(page, "/audit-trail sorted");
    }),
);
