/**
 * The replication state on the screens of a regional node, in Chromium: the freshness badge in the
 * header, and the banner while changes are paused (the primary killed), gone once it is back.
 */
import { e2eTest, launchBrowser, signIn } from "../e2e/helpers.ts";
import { startCluster } from "./support/cluster.ts";

/** The screens ask every 5 s; one more round for the primary's failure to show. */
const BANNER_TIMEOUT_MS = 20_000;

e2eTest("a regional node shows its freshness badge, and the paused banner while the primary is down", async () => {
  const cluster = await startCluster({ regions: ["north"] });
  const browser = await launchBrowser();
  try {
    const north = cluster.regions[0].server.baseUrl;
    const page = await (await browser.newContext()).newPage();
    await signIn(page, north);
    await page.getByText(/^North · synced \d+ s ago$/).waitFor();
    await cluster.killPrimary();
    const banner = page.getByRole("alert").filter({ hasText: "Changes are paused: headquarters cannot be reached." });
    await banner.waitFor({ timeout: BANNER_TIMEOUT_MS });
    await page.getByText(/Figures shown are as of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\./).waitFor();
    await cluster.restartPrimary();
    await banner.waitFor({ state: "detached", timeout: BANNER_TIMEOUT_MS });

    // Headquarters shows no badge: it is next to the primary.
    const hqPage = await (await browser.newContext()).newPage();
    await signIn(hqPage, cluster.headquarters.baseUrl);
    await hqPage.getByText("Dashboard").first().waitFor();
    if (await hqPage.getByText(/· synced/).count() !== 0) throw new Error("headquarters shows a freshness badge");
  } finally {
    await browser.close();
    await cluster.stop();
  }
});
