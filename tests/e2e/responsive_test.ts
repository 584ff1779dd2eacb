/**
 * Issue 23: every signed-in screen at a phone size (390×844) and a desktop size (1440×900): no
 * horizontal scrolling of the page or of the content area, the screen's main action visible and
 * clickable, no serious or critical axe violation, and a screenshot of each kept under
 * .test-artifacts/screens/ for review.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { NAV_ITEMS } from "../../src/web/components/layout/nav_items.ts";
import {
  e2eTest,
  expectAccessible,
  newMenuButton,
  signIn,
  signInAsOperator,
  type TestServer,
  withBrowser,
} from "./helpers.ts";

const ARTIFACTS = new URL("../../.test-artifacts/screens/", import.meta.url).pathname;
const SIZES = [{ name: "phone", width: 390, height: 844 }, {
  name: "desktop",
  width: 1440,
  height: 900,
}] as const;

const button = (name: string) => (page: Page) =>
  page.getByRole("main").getByRole("button", { name, exact: true });
const tab = (name: string) => (page: Page) => page.getByRole("main").getByRole("tab", { name, exact: true });

/** Each screen's main action: what a user came to the screen to do. */
const MAIN_ACTIONS: Record<string, (page: Page) => Locator> = {
  "/": newMenuButton,
  "/institutions": newMenuButton,
  "/routing-codes": button("Assign New Code"),
  "/swift-bic": button("Register BIC Code"),
  "/iban-validation": (page) => page.getByRole("main").getByRole("textbox").first(),
  "/national-routing": button("Register Institution"),
  "/central-bank-connections": button("New Connection"),
  "/balance-sweep": button("Manual Sweep"),
  "/fintech-operations": button("Verify Account"),
  "/card-management": tab("Issue New Card"),
  "/partnership-expediter": button("Expedite SWIFT Membership"),
  "/api-management": tab("Keys"),
  "/reports": button("Generate Report"),
  "/settings": button("Save Settings"),
  "/no-such-screen": (page) => page.getByRole("main").getByRole("link", { name: "Back to Dashboard" }),
};

/**
 * The screens whose main action is the administrator's; the others' are the operator's (or
 * anyone's), and the first administrator holds administrator alone: each is walked by its own.
 */
const ADMINISTRATOR_SCREENS = new Set(["/central-bank-connections", "/api-management", "/settings"]);

async function horizontalOverflow(page: Page) {
  return await page.evaluate(() => {
    const main = document.querySelector("main");
    return {
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      main: main ? main.scrollWidth - main.clientWidth : 0,
    };
  });
}

async function expectMainActionUsable(page: Page, path: string, width: number) {
  const action = MAIN_ACTIONS[path](page);
  await action.scrollIntoViewIfNeeded();
  const box = await action.boundingBox();
  assert.ok(box, `${path} at ${width} px: the main action is not rendered`);
  assert.ok(
    box.x >= 0 && box.x + box.width <= width,
    `${path} at ${width} px: the main action is off-screen (${JSON.stringify(box)})`,
  );
  await action.click({ trial: true, timeout: 5_000 });
}

async function navigate(page: Page, baseUrl: string, path: string, phone: boolean) {
  const item = NAV_ITEMS.find((entry) => entry.path === path);
  if (!item) {
    await page.goto(`${baseUrl}${path}`);
    return;
  }
  if (phone) await page.getByRole("button", { name: "Open menu" }).click();
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: item.label, exact: true }).click();
  await page.waitForURL(`${baseUrl}${path}`);
  if (phone) await nav.waitFor({ state: "hidden" });
}

/** Opens each screen in turn at `size` and checks it; a screenshot of each is kept. */
async function walkScreens(page: Page, server: TestServer, size: typeof SIZES[number], paths: string[]) {
  await page.setViewportSize({ width: size.width, height: size.height });
  const phone = size.width < 1024;
  assert.equal(await page.getByRole("button", { name: "Open menu" }).isVisible(), phone);
  for (const path of paths) {
    await navigate(page, server.baseUrl, path, phone);
    // The header names the screen (it changes once the screen's code has loaded).
    const expected = NAV_ITEMS.find((entry) => entry.path === path)?.label ?? "Page Not Found";
    await page.getByTestId("screen-title").getByText(expected, { exact: true }).waitFor();
    await page.locator("main h1").first().waitFor();
    await page.waitForLoadState("networkidle");
    const overflow = await horizontalOverflow(page);
    assert.deepEqual(overflow, { page: 0, main: 0 }, `${path} at ${size.width} px scrolls sideways`);
    await expectMainActionUsable(page, path, size.width);
    // One inline error style: no form leaves validation to the browser's own bubbles.
    assert.equal(await page.locator("form:not([novalidate])").count(), 0, `${path}: a form without noValidate`);
    await expectAccessible(page, `${path} at ${size.width} px`);
    const name = path === "/" ? "dashboard" : path.slice(1);
    await page.screenshot({ path: `${ARTIFACTS}${name}-${size.name}.png`, fullPage: true });
  }
}

for (const size of SIZES) {
  e2eTest(
    `every screen at ${size.width}×${size.height}: no horizontal scroll, main action usable, accessible`,
    () =>
      withBrowser(async ({ page, server, browser }) => {
        await Deno.mkdir(ARTIFACTS, { recursive: true });
        const paths = Object.keys(MAIN_ACTIONS);
        await signInAsOperator(page, server.baseUrl);
        await walkScreens(page, server, size, paths.filter((path) => !ADMINISTRATOR_SCREENS.has(path)));
        const administrator = await (await browser.newContext()).newPage();
        await signIn(administrator, server.baseUrl);
        await walkScreens(administrator, server, size, paths.filter((path) => ADMINISTRATOR_SCREENS.has(path)));
      }, { SEED_DEMO: "1" }),
  );
}

e2eTest(
  "the skip link moves focus to the content, and the phone menu opens and closes",
  () =>
    withBrowser(async ({ page, server }) => {
      await signIn(page, server.baseUrl);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Skip to content" });
      assert.ok(await skip.isVisible(), "the skip link shows when focused");
      await page.keyboard.press("Enter");
      assert.equal(await page.evaluate(() => document.activeElement?.id), "main-content");

      await page.getByRole("button", { name: "Open menu" }).click();
      const nav = page.getByRole("navigation", { name: "Main" });
      for (const group of ["Registry", "Payments", "Integrations", "Administration"]) {
        await nav.getByRole("heading", { name: group }).waitFor();
      }
      await page.getByRole("button", { name: "Close menu" }).click();
      await nav.waitFor({ state: "hidden" });
    }),
);
