/** Issue 23: charts drawn from the server's aggregates, each with its text alternative. */
import assert from "node:assert/strict";
import { e2eTest, expectAccessible, signIn, withBrowser } from "./helpers.ts";

e2eTest(
  "dashboard and balance sweep charts: a named chart image and its figures as a table",
  () =>
    withBrowser(async ({ page, server }) => {
      await signIn(page, server.baseUrl);
      const registrations = page.getByRole("img", {
        name: /^Registrations per month over the last 12 months/,
      });
      await registrations.waitFor();
      const charts = await page.request.get(`${server.baseUrl}/api/dashboard/charts`);
      const { registrationsPerMonth } = await charts.json();
      const total = registrationsPerMonth.reduce(
        (sum: number, bucket: { count: number }) => sum + bucket.count,
        0,
      );
      assert.match((await registrations.getAttribute("aria-label"))!, new RegExp(`: ${total} in all`));
      await page.getByRole("img", { name: /^API requests per hour \(UTC\)/ }).waitFor();

      // The text alternative: the same figures in a table.
      await page.getByText("Show the figures as a table").first().click();
      const table = page.getByRole("table", { name: /^Registrations per month/ });
      assert.equal(await table.locator("tbody tr").count(), 12);
      const lastRow = await table.locator("tbody tr").last().innerText();
      assert.match(lastRow, new RegExp(`\\s${registrationsPerMonth.at(-1).count}$`));
      await expectAccessible(page, "dashboard charts");

      await page.goto(`${server.baseUrl}/balance-sweep`);
      await page.getByRole("img", { name: /ledger and liquid totals at each day's close/ }).waitFor();
      await page.getByRole("img", { name: /^Sweeps per day over the last 30 days/ }).waitFor();
      await expectAccessible(page, "balance sweep charts");

      await page.goto(`${server.baseUrl}/api-management`);
      await page.getByRole("img", { name: /^API requests per hour by key over the last 24 hours/ }).waitFor();
      await page.getByRole("img", { name: /^Share of requests answered 4xx or 5xx per hour by key/ })
        .waitFor();
      await expectAccessible(page, "API management charts");
    }, { SEED_DEMO: "1" }),
);
