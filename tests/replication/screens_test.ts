/**
 * The replication state on the screens of a regional node, in Chromium: the freshness badge in the
 * header, and the banner while changes are paused (the primary killed), with every control that
 * would change something disabled and saying why; all gone once it is back.
 */
import assert from "node:assert/strict";
import { e2eTest, launchBrowser, newMenuButton, signIn, signInAsOperator } from "../e2e/helpers.ts";
import { startCluster } from "./support/cluster.ts";

/** The screens ask every 5 s; one more round for the primary's failure to show. */
const BANNER_TIMEOUT_MS = 20_000;

e2eTest(
  "a regional node shows its freshness badge, and the paused banner and disabled changes while the primary is down",
  async () => {
    const cluster = await startCluster({ regions: ["north"] });
    const browser = await launchBrowser();
    try {
      const north = cluster.regions[0].server.baseUrl;
      const page = await (await browser.newContext()).newPage();
      await signInAsOperator(page, north);
      await page.getByText(/^North · synced \d+ s ago$/).waitFor();
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", {
        name: "Balance Sweep Management",
      }).click();
      const manualSweep = page.getByRole("main").getByRole("button", { name: "Manual Sweep", exact: true });
      const main = page.getByRole("main");
      const changes = [
        manualSweep,
        newMenuButton(page),
        main.getByRole("button", { name: "Auto Sweep" }),
        main.getByRole("button", { name: "Add Account" }),
      ];
      for (const control of changes) assert.equal(await control.isEnabled(), true);
      await cluster.killPrimary();
      const banner = page.getByRole("alert").filter({
        hasText: "Changes are paused: headquarters cannot be reached.",
      });
      await banner.waitFor({ timeout: BANNER_TIMEOUT_MS });
      await page.getByText(/Figures shown are as of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\./).waitFor();
      // Every control that would change something is disabled, and says why.
      for (const control of changes) {
        assert.equal(await control.isDisabled(), true);
        assert.match(
          await control.getAttribute("title") ?? "",
          /^Changes are paused: headquarters cannot be reached\./,
        );
      }
      await cluster.restartPrimary();
      await banner.waitFor({ state: "detached", timeout: BANNER_TIMEOUT_MS });
      for (const control of changes) assert.equal(await control.isEnabled(), true);

      // Headquarters names itself, without a freshness: it is next to the primary.
      const hqPage = await (await browser.newContext()).newPage();
      await signIn(hqPage, cluster.headquarters.baseUrl);
      await hqPage.getByText("Dashboard").first().waitFor();
      assert.equal(await hqPage.getByRole("banner").getByTestId("node-badge").innerText(), "Headquarters");
      if (await hqPage.getByText(/· synced/).count() !== 0) {
        throw new Error("headquarters shows a freshness badge");
      }
    } finally {
      await browser.close();
      await cluster.stop();
    }
  },
);
