/**
 * The lists at a phone's size (390×844) and a desktop's (1440×900): each table keeps its key column
 * in view and reaches its status and balance columns by scrolling its own region (never the page);
 * the institutions toolbar wraps with a usable search box; the card tabs stay on one scrolling row;
 * counters sit two by two. Sort, filters, search and page live in the address and survive a reload;
 * a list whose load failed offers Retry, which loads it once the server answers again.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import {
  apiSession,
  E2E_OPERATOR_PASSWORD,
  e2eOperator,
  e2eTest,
  expectAccessible,
  signIn,
  signInAsOperator,
  startServer,
  withBrowser,
} from "./helpers.ts";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  assert.ok(found, "the element is rendered");
  return found;
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const within = (inner: Box, left: number, right: number) => inner.x >= left - 0.5 && inner.x + inner.width <= right + 0.5;

async function pageScrollsSideways(page: Page): Promise<boolean> {
  return await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

/**
 * The first row's cell under `header` is on screen once its table's own region has scrolled to it,
 * the row's key (first) cell still in view beside it, and the page itself never scrolls sideways.
 */
async function expectColumnReachable(page: Page, table: Locator, header: string, width: number) {
  const headers = await table.locator("thead th").evaluateAll((cells) => cells.map((cell) => cell.textContent?.trim()));
  const index = headers.indexOf(header);
  assert.ok(index > 0, `${header} is one of ${headers.join(", ")}`);
  const row = table.locator("tbody tr").first();
  const cell = row.locator("td").nth(index);
  const key = row.locator("td").first();
  if (width < 1024) {
    await cell.evaluate((element) => element.scrollIntoView({ block: "nearest", inline: "end" }));
  } else {
    // On a desktop every column shows without scrolling.
    assert.equal(await table.evaluate((element) => element.closest("[role=region]")?.scrollLeft), 0);
  }
  const cellBox = await box(cell);
  const keyBox = await box(key);
  assert.ok(within(cellBox, 0, width), `${header} at ${width} px is off-screen: ${JSON.stringify(cellBox)}`);
  assert.ok(within(keyBox, 0, width), `the key column at ${width} px is off-screen: ${JSON.stringify(keyBox)}`);
  assert.ok(!overlaps(cellBox, keyBox), `${header} at ${width} px hides under the key column`);
  assert.equal(await pageScrollsSideways(page), false, `the page scrolls sideways at ${width} px`);
}

/** The institutions toolbar: a search box at least 200 px wide, nothing covering it or its button. */
async function expectToolbarUsable(page: Page, width: number) {
  const search = await box(page.getByLabel("Search institutions"));
  const button = page.getByRole("button", { name: "Search", exact: true });
  const buttonBox = await box(button);
  assert.ok(search.width >= 200, `the search box is ${search.width} px wide at ${width} px`);
  for (const filter of ["Filter by status", "Filter by type"]) {
    const filterBox = await box(page.getByLabel(filter));
    assert.ok(within(filterBox, 0, width), `${filter} at ${width} px is off-screen`);
    assert.ok(!overlaps(filterBox, search) && !overlaps(filterBox, buttonBox), `${filter} covers the search at ${width} px`);
  }
  assert.ok(within(search, 0, width) && within(buttonBox, 0, width), `the search is off-screen at ${width} px`);
  const onTop = await button.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return element.contains(document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2));
  });
  assert.ok(onTop, `something covers the Search button at ${width} px`);
}

/** The card tabs: one row inside the screen, scrolling sideways, each tab reachable. */
async function expectTabsOnOneRow(page: Page, width: number) {
  const list = page.getByRole("tablist", { name: "Card management" });
  const tabs = list.getByRole("tab");
  const tops = new Set<number>();
  for (const tab of await tabs.all()) tops.add(Math.round((await box(tab)).y));
  assert.equal(tops.size, 1, `the card tabs wrap at ${width} px`);
  const listBox = await box(list);
  assert.ok(within(listBox, 0, width), `the tab row at ${width} px is wider than the screen`);
  assert.equal(await list.evaluate((element) => getComputedStyle(element).overflowX), "auto");
  const last = tabs.last();
  await last.scrollIntoViewIfNeeded();
  assert.ok(within(await box(last), listBox.x, listBox.x + listBox.width), "the last tab scrolls into view");
  assert.equal(await pageScrollsSideways(page), false);
}

/** Four counters, by their labels: two by two on a phone, one row on a desktop. */
async function expectCounterGrid(page: Page, labels: string[], width: number) {
  const boxes = await Promise.all(labels.map((label) => box(page.getByText(label, { exact: true }))));
  const rows = new Set(boxes.map((b) => Math.round(b.y))).size;
  const columns = new Set(boxes.map((b) => Math.round(b.x))).size;
  assert.deepEqual({ rows, columns }, width < 1024 ? { rows: 2, columns: 2 } : { rows: 1, columns: 4 });
}

async function issueCard(page: Page, baseUrl: string) {
  const res = await page.request.post(`${baseUrl}/api/cards/issue`, {
    data: { cardholderName: "Grace Hopper", initialBalance: "42.00" },
  });
  assert.ok(res.status() === 201 || res.status() === 200, `card issue: ${res.status()}`);
}

e2eTest("lists at 390×844 and 1440×900: key column kept, status and balance reachable, toolbars, tabs, counters", () =>
  withBrowser(async ({ page, server }) => {
    await signInAsOperator(page, server.baseUrl);
    await issueCard(page, server.baseUrl);
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await page.goto(`${server.baseUrl}/institutions`);
      const institutions = page.getByRole("table", { name: "Financial institutions" });
      await institutions.locator("tbody tr td").first().waitFor();
      await expectToolbarUsable(page, size.width);
      await expectColumnReachable(page, institutions, "Status", size.width);
      await expectAccessible(page, `/institutions at ${size.width} px`);

      await page.goto(`${server.baseUrl}/balance-sweep`);
      const accounts = page.getByRole("table", { name: "Ledger and liquid accounts" });
      await accounts.locator("tbody tr td").first().waitFor();
      await expectColumnReachable(page, accounts, "Current Balance", size.width);
      await expectColumnReachable(page, accounts, "Status", size.width);
      await expectCounterGrid(
        page,
        ["Total Ledger Balance", "Total Liquid Balance", "Today's Sweeps", "Active Accounts"],
        size.width,
      );
      await expectAccessible(page, `/balance-sweep at ${size.width} px`);

      await page.goto(`${server.baseUrl}/card-management`);
      const cards = page.getByRole("table", { name: "Existing cards" });
      await cards.locator("tbody tr td").first().waitFor();
      await expectColumnReachable(page, cards, "Status", size.width);
      await expectColumnReachable(page, cards, "Balance", size.width);
      await expectTabsOnOneRow(page, size.width);
      await expectAccessible(page, `/card-management at ${size.width} px`);
    }
  }, { SEED_DEMO: "1" }));

const USERS = 52;
/** Reload Bank 000–003 are savings banks, 004–105 commercial: a filtered list of two pages. */
const BANKS = 106;
const SAVINGS = 4;

/** Makes the users and institutions the reload test pages through: the administrator alone makes users. */
async function seedLists(page: Page, baseUrl: string) {
  for (let i = 0; i < USERS; i++) {
    const email = `auditor.${String(i).padStart(2, "0")}@reload.test`;
    const res = await page.request.post(`${baseUrl}/api/users`, { data: { email, roles: ["auditor"] } });
    assert.equal(res.status(), 201);
  }
  const operator = await apiSession(baseUrl, await e2eOperator(baseUrl), E2E_OPERATOR_PASSWORD);
  for (let i = 0; i < BANKS; i++) {
    const res = await operator("POST", "/api/institutions", {
      name: `Reload Bank ${String(i).padStart(3, "0")}`,
      type: i < SAVINGS ? "savings" : "commercial",
      registrationNumber: `RLD-${i}`,
      address: "1 Reload Street",
      phoneNumber: "+1 202 555 0100",
      emailAddress: `bank${i}@reload.example`,
    });
    assert.equal(res.status, 201);
  }
}

/** A list, its filter, the column it is sorted by (Z to A) and its second page's first row. */
interface PagedList {
  path: string;
  table: string;
  filter: [label: string, value: string];
  column: string;
  secondPage: { shown: string; firstRow: string };
}

const INSTITUTIONS: PagedList = {
  path: "/institutions",
  table: "Financial institutions",
  filter: ["Filter by type", "commercial"],
  column: "Institution",
  secondPage: { shown: `Showing 101–${BANKS - SAVINGS} of ${BANKS - SAVINGS}`, firstRow: "Reload Bank 005" },
};

const USER_LIST: PagedList = {
  path: "/users",
  table: "Users",
  filter: ["Filter by role", "auditor"],
  column: "User",
  secondPage: { shown: `Showing 51–${USERS} of ${USERS}`, firstRow: "auditor.01@reload.test" },
};

/** Filters the list, sorts it Z to A by its column and turns to its second page. */
async function openSecondPage(page: Page, baseUrl: string, list: PagedList) {
  await page.goto(`${baseUrl}${list.path}`);
  const table = page.getByRole("table", { name: list.table });
  await table.locator("tbody tr td").first().waitFor();
  await page.getByLabel(list.filter[0]).selectOption(list.filter[1]);
  await table.getByRole("button", { name: list.column }).click();
  await table.getByRole("button", { name: list.column }).click();
  await table.locator("th[aria-sort=descending]").waitFor();
  await page.getByRole("navigation", { name: "Pagination" }).getByRole("button", { name: "Next" }).click();
  await expectSecondPage(page, list);
}

async function expectSecondPage(page: Page, list: PagedList) {
  const table = page.getByRole("table", { name: list.table });
  await page.getByRole("navigation", { name: "Pagination" }).getByText(list.secondPage.shown).waitFor();
  await table.locator("tbody tr").first().getByText(list.secondPage.firstRow, { exact: true }).first().waitFor();
  await table.locator("th[aria-sort=descending]", { hasText: list.column }).waitFor();
  assert.equal(await page.getByLabel(list.filter[0]).inputValue(), list.filter[1]);
}

e2eTest("sort, filter, search and page live in the address: a reload or a shared link shows the same rows", () =>
  withBrowser(async ({ page, server, browser }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, server.baseUrl);
    await seedLists(page, server.baseUrl);

    await openSecondPage(page, server.baseUrl, INSTITUTIONS);
    const url = new URL(page.url());
    assert.deepEqual(
      Object.fromEntries(url.searchParams),
      { type: "commercial", sort: "name", order: "desc", page: "2" },
    );
    await page.reload();
    await expectSecondPage(page, INSTITUTIONS);
    await expectAccessible(page, "/institutions restored from the address");

    // A search goes to the address too, and back to the first page.
    await page.getByLabel("Search institutions").fill("Reload Bank 00");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL((address) => address.searchParams.get("search") === "Reload Bank 00");
    assert.equal(new URL(page.url()).searchParams.get("page"), null);
    // Reload Bank 000–009 less the savings banks, Z to A.
    const found = async (viewer: Page) => {
      const rows = viewer.getByRole("table", { name: INSTITUTIONS.table }).locator("tbody tr");
      await rows.first().getByText("Reload Bank 009", { exact: true }).waitFor();
      assert.equal(await rows.count(), 10 - SAVINGS);
    };
    await found(page);
    // A colleague opening the same link, on a phone, sees the same rows.
    const colleague = await (await browser.newContext({ viewport: PHONE })).newPage();
    await signIn(colleague, server.baseUrl);
    await colleague.goto(page.url());
    assert.equal(await colleague.getByLabel("Search institutions").inputValue(), "Reload Bank 00");
    await found(colleague);

    await openSecondPage(page, server.baseUrl, USER_LIST);
    assert.deepEqual(
      Object.fromEntries(new URL(page.url()).searchParams),
      { roles: "auditor", sort: "user", order: "desc", page: "2" },
    );
    await page.reload();
    await expectSecondPage(page, USER_LIST);
    await expectAccessible(page, "/users restored from the address");

    // A page past the end (a link kept after rows went) shows the last page there is.
    await page.goto(`${server.baseUrl}/users?roles=auditor&sort=user&order=desc&page=9`);
    await expectSecondPage(page, USER_LIST);
    await page.waitForURL((address) => address.searchParams.get("page") === "2");
    await page.goto(`${server.baseUrl}/institutions?type=commercial&sort=name&order=desc&page=9`);
    await expectSecondPage(page, INSTITUTIONS);
    await page.waitForURL((address) => address.searchParams.get("page") === "2");
  }));

e2eTest("a list whose load failed says so and offers Retry, which loads it once the server answers", () =>
  withBrowser(async ({ page, server }) => {
    await signInAsOperator(page, server.baseUrl);
    const res = await page.request.post(`${server.baseUrl}/api/institutions`, {
      data: {
        name: "Retry Savings Bank",
        type: "savings",
        registrationNumber: "RTY-1",
        address: "1 Retry Street",
        phoneNumber: "+1 202 555 0100",
        emailAddress: "retry@bank.example",
      },
    });
    assert.equal(res.status(), 201);
    await page.setViewportSize(PHONE);
    await page.goto(`${server.baseUrl}/institutions`);
    const table = page.getByRole("table", { name: "Financial institutions" });
    await table.getByText("Retry Savings Bank").waitFor();

    // The server goes away: the next page of the list (here, sorted) cannot be loaded.
    await server.kill();
    await table.getByRole("button", { name: "Institution" }).click();
    const failure = page.getByRole("alert").filter({ hasText: "Failed to load institutions." });
    await failure.waitFor();
    assert.equal(await table.getByText("Retry Savings Bank").count(), 0, "no rows of an earlier answer beside the failure");
    const retry = failure.getByRole("button", { name: "Retry" });
    await expectAccessible(page, "/institutions after a failed load");
    // Retrying while the server is still away fails again, and says so again.
    await retry.click();
    await retry.waitFor();

    const restarted = await startServer(server.env, server.dataDir);
    try {
      await retry.click();
      await table.getByText("Retry Savings Bank").waitFor();
      await failure.waitFor({ state: "detached" });
      await table.locator("th[aria-sort=ascending]", { hasText: "Institution" }).waitFor();
    } finally {
      await restarted.stop();
    }
  }));
