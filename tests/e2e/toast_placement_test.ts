/**
 * Issue 23: "toasts never cover a table's last column". From 1024 px up a toast sits over the
 * sidebar's foot, left of the content; the test raises one on the dashboard (Code Lookup with no
 * match) beside the Recent Institution Registrations table and measures the boxes.
 */
import assert from "node:assert/strict";
import { e2eTest, signInAsOperator, withBrowser } from "./helpers.ts";

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

e2eTest(
  "a toast stays clear of the content: never over a table's last column (1024 and 1440 px wide)",
  () =>
    withBrowser(async ({ page, server }) => {
      await signInAsOperator(page, server.baseUrl);
      const created = await page.request.post(`${server.baseUrl}/api/institutions`, {
        data: {
          name: "Toast Clearance Bank",
          type: "commercial",
          registrationNumber: "TOAST-001",
          address: "1 Corner Street",
          phoneNumber: "+1 202 555 0100",
          emailAddress: "ops@toast.example",
        },
      });
      assert.equal(created.status(), 201);
      for (const viewport of [{ width: 1440, height: 900 }, { width: 1024, height: 768 }]) {
        await page.setViewportSize(viewport);
        await page.goto(`${server.baseUrl}/`);
        const table = page.getByRole("table", { name: "Recent institution registrations" });
        await table.waitFor();
        await page.getByLabel("Lookup type").selectOption("institution");
        await page.getByLabel("Search value").fill("no institution is called this");
        await page.getByRole("search", { name: "Code lookup" }).getByRole("button", { name: "Search" })
          .click();
        const toast = page.getByTestId("toast").filter({ hasText: "No results found" });
        await toast.waitFor();
        const toastBox = await toast.boundingBox();
        const mainBox = await page.locator("main").boundingBox();
        assert.ok(toastBox && mainBox);
        assert.ok(
          toastBox.x + toastBox.width <= mainBox.x + 1,
          `${viewport.width} px: the toast (${
            JSON.stringify(toastBox)
          }) stays left of the content (x ${mainBox.x})`,
        );
        // Whatever the layout does, the table's last column (header and cells) stays uncovered.
        await table.getByText("Toast Clearance Bank").waitFor();
        const lastColumn = table.locator("tr > :last-child");
        for (let i = 0; i < await lastColumn.count(); i++) {
          const box = await lastColumn.nth(i).boundingBox();
          if (box) {
            assert.ok(!overlaps(toastBox, box), `${viewport.width} px: the toast covers the last column`);
          }
        }
      }
    }),
);
