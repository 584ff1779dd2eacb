/**
 * The command palette in the browser, on a phone and on a desktop: Ctrl-K opens it, typing finds an
 * institution by name, a routing code and a BIC, arrows move through the results, Enter opens the
 * record's screen, a screen's name leads to the screen, Escape closes; no axe-core violation while open.
 */
import assert from "node:assert/strict";
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { e2eTest, signIn, withBrowser } from "./helpers.ts";

const VIEWPORTS = [{ width: 390, height: 844 }, { width: 1440, height: 900 }];

interface Record {
  text: string;
  institutionId: string;
}

/** A demo registry's first institution, routing code and BIC, read through the API. */
async function demoRecords(page: Page, baseUrl: string) {
  const get = async (path: string) => {
    const res = await page.request.get(`${baseUrl}${path}`);
    assert.equal(res.status(), 200, path);
    return await res.json();
  };
  const [institution] = await get("/api/institutions?limit=1");
  const [routing] = await get("/api/routing-codes");
  const [bic] = await get("/api/swift-codes");
  return {
    institution: { text: institution.name as string, institutionId: institution.id as string },
    routing: { text: routing.code as string, institutionId: routing.institutionId as string },
    bic: { text: bic.bicCode as string, institutionId: bic.institutionId as string },
  };
}

const palette = (page: Page) => page.getByRole("dialog", { name: "Search everywhere" });
const combobox = (page: Page) => palette(page).getByRole("combobox");

async function openWithShortcut(page: Page) {
  await page.keyboard.press("Control+k");
  await combobox(page).waitFor();
  assert.equal(
    await combobox(page).evaluate((input) => input === document.activeElement),
    true,
    "the text box has focus",
  );
}

/** Types the text and opens the first result, which must be `label`, with Enter. */
async function enterFirst(page: Page, text: string, label: string) {
  await combobox(page).fill(text);
  const option = palette(page).getByRole("option").first();
  await option.filter({ hasText: label }).waitFor();
  const active = await combobox(page).getAttribute("aria-activedescendant");
  assert.ok(active, `${text}: a result is active`);
  assert.equal(active, await option.getAttribute("id"), `${text}: the first result is active`);
  await page.keyboard.press("Enter");
  await palette(page).waitFor({ state: "hidden" });
}

async function opensRecord(page: Page, baseUrl: string, record: Record, label = record.text) {
  await openWithShortcut(page);
  await enterFirst(page, record.text, label);
  await page.waitForURL(`${baseUrl}/institutions/${record.institutionId}`);
}

async function expectNoViolations(page: Page, context: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const found = results.violations.map((v) =>
    `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`
  );
  assert.deepEqual(found, [], context);
}

e2eTest(
  "the command palette finds institutions, routing codes, BICs and screens and opens them, on a phone and a desktop",
  () =>
    withBrowser(async ({ page, server }) => {
      await signIn(page, server.baseUrl);
      const records = await demoRecords(page, server.baseUrl);
      for (const viewport of VIEWPORTS) {
        const size = `${viewport.width}×${viewport.height}`;
        await page.setViewportSize(viewport);
        await page.goto(`${server.baseUrl}/`);
        await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();

        await opensRecord(page, server.baseUrl, records.institution);
        await page.getByRole("heading", { name: records.institution.text, level: 1 }).waitFor();
        await opensRecord(page, server.baseUrl, records.routing);
        await opensRecord(page, server.baseUrl, records.bic);

        // A screen by part of its name; the button opens the palette too (touch).
        await page.getByRole("button", { name: "Search everywhere" }).click();
        await combobox(page).waitFor();
        await enterFirst(page, "audit tr", "Audit Trail");
        await page.waitForURL(`${server.baseUrl}/audit-trail`);

        // Arrows move the active result; Escape closes and leaves the screen as it was.
        await openWithShortcut(page);
        await combobox(page).fill("management");
        await palette(page).getByRole("option", { name: /API Management/ }).waitFor();
        await page.getByTestId("search-status").filter({ hasText: /results$/ }).waitFor();
        const options = palette(page).getByRole("option");
        assert.ok(await options.count() >= 2, size);
        await page.keyboard.press("ArrowDown");
        const moved = await combobox(page).getAttribute("aria-activedescendant");
        assert.equal(
          moved,
          await options.nth(1).getAttribute("id"),
          `${size}: ArrowDown moves to the next result`,
        );
        await page.keyboard.press("ArrowUp");
        const back = await combobox(page).getAttribute("aria-activedescendant");
        assert.equal(back, await options.nth(0).getAttribute("id"), `${size}: ArrowUp moves back`);
        await expectNoViolations(page, `the palette open at ${size}`);
        await page.keyboard.press("Escape");
        await palette(page).waitFor({ state: "hidden" });
        assert.equal(new URL(page.url()).pathname, "/audit-trail", size);
      }
    }, { SEED_DEMO: "1" }),
);
