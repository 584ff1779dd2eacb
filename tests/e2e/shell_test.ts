/**
 * The shell at a desktop (1440×900), a short desktop (1280×720) and a phone (390×844): every sidebar
 * entry reachable, the account menu with the role label, one New menu instead of repeated buttons,
 * and the node's badge on a standalone console. (The paused state is drilled against a real cluster
 * in tests/replication/screens_test.ts.)
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import {
  chooseNew,
  e2eTest,
  expectAccessible,
  newMenuButton,
  openAccountMenu,
  signIn,
  signInAsOperator,
  withBrowser,
} from "./helpers.ts";

/** Where an element sits in the window, and whether a click at its centre lands on it (nothing covers it). */
function placement(locator: Locator) {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return {
      insideWindow: box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth,
      uncovered: hit !== null && element.contains(hit),
    };
  });
}

function navScroll(page: Page) {
  return page.getByRole("navigation", { name: "Main" }).evaluate((nav) => ({
    top: nav.scrollTop,
    overflows: nav.scrollHeight > nav.clientHeight,
  }));
}

e2eTest(
  "sidebar: every entry in view at 1440×900, and reachable by scrolling the sidebar alone at 1280×720",
  () =>
    withBrowser(async ({ page, server }) => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await signIn(page, server.baseUrl);
      const links = page.getByRole("navigation", { name: "Main" }).getByRole("link");
      // The administrator sees every entry, Users and Audit Trail included.
      assert.equal(await links.last().innerText(), "Audit Trail");
      assert.deepEqual(await navScroll(page), { top: 0, overflows: false });
      for (const link of await links.all()) {
        assert.deepEqual(
          await placement(link),
          { insideWindow: true, uncovered: true },
          await link.innerText(),
        );
      }

      await page.setViewportSize({ width: 1280, height: 720 });
      const last = links.last();
      assert.equal(
        (await navScroll(page)).overflows,
        true,
        "at 720 px the entries need more room than the window",
      );
      assert.equal((await placement(last)).insideWindow, false);
      await last.scrollIntoViewIfNeeded();
      assert.ok((await navScroll(page)).top > 0, "the sidebar scrolled");
      assert.equal(
        await page.evaluate(() => document.scrollingElement?.scrollTop ?? 0),
        0,
        "the page itself did not",
      );
      assert.deepEqual(await placement(last), { insideWindow: true, uncovered: true });
      await last.click();
      await page.waitForURL(`${server.baseUrl}/audit-trail`);
    }),
);

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  e2eTest(
    `header at ${size.width}×${size.height}: account menu with the role label, node badge, New menu`,
    () =>
      withBrowser(async ({ page, server }) => {
        await page.setViewportSize(size);
        await signIn(page, server.baseUrl);
        const banner = page.getByRole("banner");
        assert.equal(await banner.getByTestId("node-badge").innerText(), "Standalone");

        const menu = await openAccountMenu(page);
        assert.equal(await menu.getByTestId("user-label").innerText(), "operator@centralbank.test");
        assert.equal(await menu.getByTestId("role-label").innerText(), "Central Bank Admin");
        assert.deepEqual(await menu.getByRole("menuitem").allInnerTexts(), ["Change password", "Sign Out"]);
        await expectAccessible(page, `account menu at ${size.width} px`);
        await menu.getByRole("menuitem", { name: "Change password" }).click();
        const dialog = page.getByRole("dialog", { name: "Change password" });
        await dialog.getByLabel("Current password").waitFor();
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "detached" });

        // The administrator creates connections and API keys; institutions are the operator's.
        await newMenuButton(page).click();
        const entries = page.getByRole("menu").getByRole("menuitem");
        assert.deepEqual(await entries.allInnerTexts(), ["New Connection", "New API Key"]);
        await expectAccessible(page, `New menu at ${size.width} px`);
        await entries.filter({ hasText: "New Connection" }).click();
        await page.waitForURL(`${server.baseUrl}/central-bank-connections`);
        // The dialog element itself has no box (its panel is fixed-positioned): wait for its content.
        await page.getByRole("dialog", { name: "New Connection" }).getByRole("button", { name: "Cancel" })
          .waitFor();
      }),
  );
}

e2eTest(
  "one New Institution control on every screen: the header's New menu",
  () =>
    withBrowser(async ({ page, server }) => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await signInAsOperator(page, server.baseUrl);
      const named = (name: string) =>
        page.getByRole("button", { name, exact: true }).or(page.getByRole("menuitem", { name, exact: true }));
      for (const path of ["/", "/institutions", "/balance-sweep"]) {
        await page.goto(`${server.baseUrl}${path}`);
        await page.locator("main h1").first().waitFor();
        await page.waitForLoadState("networkidle");
        assert.equal(
          await named("New Institution").count(),
          0,
          `${path}: no New Institution button beside the menu`,
        );
        await newMenuButton(page).click();
        assert.deepEqual(
          await page.getByRole("menu").getByRole("menuitem").allInnerTexts(),
          ["New Institution", "Manual Sweep", "Add Account", "Issue Card"],
        );
        assert.equal(await named("New Institution").count(), 1, path);
        await page.keyboard.press("Escape");
      }

      await chooseNew(page, "New Institution");
      const institution = page.getByRole("dialog", { name: "Register New Institution" });
      await institution.getByLabel("Institution Name", { exact: true }).waitFor();
      await institution.getByRole("button", { name: "Cancel" }).click();
      await institution.waitFor({ state: "detached" });

      await chooseNew(page, "Manual Sweep");
      await page.waitForURL(`${server.baseUrl}/balance-sweep`);
      const sweep = page.getByRole("dialog", { name: "Manual Sweep" });
      await sweep.getByRole("button", { name: "Cancel" }).waitFor();
      await sweep.getByRole("button", { name: "Cancel" }).click();
      await sweep.waitFor({ state: "detached" });
      // The request is spent: going back and forth does not open the dialog again.
      await page.goBack();
      await page.goForward();
      await page.getByRole("heading", { name: "Balance Sweep Management", level: 1 }).waitFor();
      assert.equal(await page.getByRole("dialog").count(), 0);

      await chooseNew(page, "Issue Card");
      await page.waitForURL(`${server.baseUrl}/card-management#issue`);
      assert.equal(
        await page.getByRole("tab", { name: "Issue New Card" }).getAttribute("aria-selected"),
        "true",
      );
    }),
);
