/**
 * A clean browser console: each role with screens of its own visits every route of the SPA at a
 * desktop and a phone size, opens the dialogs behind each screen's primary buttons (and the shell's
 * menus), and the test fails on any console error, uncaught page error or Content-Security-Policy
 * violation, listing each with the page and the step that caused it. docs/console.md says which
 * console messages are allowed and why (one: the signed-out session check's 401).
 *
 * Buttons are found by role and accessible name, and a button that has moved into a menu (a "New"
 * menu, a user menu, the phone's navigation slide-over) is still found: the test opens the menus it
 * sees and looks again. CLEAN_CONSOLE_TRACE=1 prints each step with the time it settled.
 */
import assert from "node:assert/strict";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { NAV_ITEMS } from "../../src/web/components/layout/nav_items.ts";
import {
  apiSession,
  E2E_OPERATOR_PASSWORD,
  e2eOperator,
  e2eTest,
  firstSignInInBrowser,
  launchBrowser,
  signIn,
  signInAsOperator,
  startServer,
  type TestServer,
} from "./helpers.ts";

const SIZES = [{ width: 1440, height: 900 }, { width: 390, height: 844 }] as const;
/** How long the page must have no request in flight before a step counts as done. */
const QUIET_MS = 150;
const SETTLE_TIMEOUT_MS = 20_000;
const DIALOG_TIMEOUT_MS = 10_000;
/** The session check a signed-out page makes: its 401 is the answer that says "signed out". */
const SIGNED_OUT_CHECK = "/api/auth/user";
const APPROVER_PASSWORD = "e2e-lamp-orchard-quietly";

interface Problem {
  kind: "console error" | "page error" | "CSP violation";
  url: string;
  step: string;
  text: string;
}

/** What a page is doing now, so that each problem names the step that caused it. */
interface Watched {
  page: Page;
  role: string;
  step: string;
  signedOut: boolean;
  inFlight: number;
  lastActivity: number;
}

const problems: Problem[] = [];
const started = Date.now();

function record(watched: Watched, kind: Problem["kind"], text: string) {
  problems.push({ kind, url: watched.page.url(), step: `${watched.role}: ${watched.step}`, text });
}

/**
 * The one console error allowed: the browser's own "Failed to load resource" line for the 401 a
 * signed-out page gets from the session check. It is how the SPA learns nobody is signed in, and
 * the browser logs every 4xx answer to a fetch whatever the page does with it.
 */
function allowed(watched: Watched, text: string, url: string | undefined): boolean {
  if (!watched.signedOut || !url) return false;
  return new URL(url).pathname === SIGNED_OUT_CHECK && text.includes("status of 401");
}

/** Reports CSP violations from inside the page: Chromium also logs them, but this names the directive and source. */
async function watchViolations(context: BrowserContext, onViolation: (page: Page, text: string) => void) {
  await context.exposeBinding("__reportCspViolation", ({ page }, text: string) => onViolation(page, text));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const where = event.sourceFile ? ` at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}` : "";
      const sample = event.sample ? ` sample "${event.sample}"` : "";
      const report = (window as unknown as { __reportCspViolation(text: string): void }).__reportCspViolation;
      report(`${event.effectiveDirective} blocked ${event.blockedURI}${where}${sample}`);
    });
  });
}

async function watchedPage(context: BrowserContext, role: string, signedOut = false): Promise<Watched> {
  const page = await context.newPage();
  const watched: Watched = { page, role, step: "opening", signedOut, inFlight: 0, lastActivity: Date.now() };
  await watchViolations(context, (from, text) => from === page && record(watched, "CSP violation", text));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    if (allowed(watched, message.text(), message.location().url)) return;
    record(watched, "console error", message.text());
  });
  page.on("pageerror", (error) => record(watched, "page error", error.stack ?? error.message));
  // Server-sent events stay open for as long as the page does: they never count as in flight.
  const counts = (request: { resourceType(): string }) => request.resourceType() !== "eventsource";
  page.on("request", (request) => {
    if (!counts(request)) return;
    watched.inFlight++;
    watched.lastActivity = Date.now();
  });
  const done = (request: { resourceType(): string }) => {
    if (!counts(request)) return;
    watched.inFlight = Math.max(0, watched.inFlight - 1);
    watched.lastActivity = Date.now();
  };
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return watched;
}

/** Waits until no request has been in flight for QUIET_MS: the step's answers (and their errors) are in. */
async function settle(watched: Watched) {
  if (Deno.env.get("CLEAN_CONSOLE_TRACE")) console.log(`${Date.now() - started} ms ${watched.role}: ${watched.step}`);
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (watched.inFlight > 0 || Date.now() - watched.lastActivity < QUIET_MS) {
    if (Date.now() > deadline) throw new Error(`${watched.role}: ${watched.step}: requests still in flight`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Moves to `path` inside the SPA (as a link does), and waits for its screen and its data: the
 * heading the last screen drew is marked first, so only a new heading (or new title) counts.
 */
async function visit(watched: Watched, path: string) {
  const { page } = watched;
  watched.step = `visit ${path} at ${page.viewportSize()?.width} px`;
  if (new URL(page.url()).pathname !== path) {
    const before = await page.evaluate((to) => {
      const heading = document.querySelector("main h1");
      heading?.setAttribute("data-left-behind", "");
      history.pushState(null, "", to);
      dispatchEvent(new PopStateEvent("popstate"));
      return heading?.textContent ?? null;
    }, path);
    // A screen drawn by the same components as the last (two not-available screens) keeps its element.
    await page.waitForFunction((text) => {
      const heading = document.querySelector("main h1");
      return heading !== null && (!heading.hasAttribute("data-left-behind") || heading.textContent !== text);
    }, before);
  }
  await page.locator("main h1").first().waitFor();
  await settle(watched);
}

/** What opens over a screen: dialogs, menus and the notification panel. */
const OVERLAYS = "[role=dialog], [role=alertdialog], [role=menu], [data-testid=notification-panel]";

/** Buttons that open a menu (Headless UI's MenuButton says aria-haspopup="menu"). */
const MENU_BUTTONS = "button[aria-haspopup=menu], button[aria-haspopup=true]";

/** How long a control may take to show on a screen that has just drawn its heading (access, data). */
const CONTROL_TIMEOUT_MS = 10_000;

/** How long a menu's items may take to show once it is open (the phone's slide-over loads on first use). */
const MENU_TIMEOUT_MS = 3_000;

/** The control named `name` inside `scope` (a button, tab, menu item or link), once visible within `timeoutMs`. */
async function findControl(scope: Page | Locator, name: string | RegExp, timeoutMs: number): Promise<Locator | null> {
  const exact = typeof name === "string";
  const control = scope.getByRole("button", { name, exact })
    .or(scope.getByRole("menuitem", { name, exact }))
    .or(scope.getByRole("tab", { name, exact }))
    .or(scope.getByRole("link", { name, exact }))
    .filter({ visible: true }).first();
  if (timeoutMs === 0) return await control.count() > 0 ? control : null;
  return await control.waitFor({ timeout: timeoutMs }).then(() => control, () => null);
}

/**
 * The control named `name`, wherever it is: on screen, inside a menu on screen (a button that opens
 * a menu, or the phone's "Open menu" slide-over), or on screen once the screen has drawn it (it
 * waits for its data or the user's roles). A menu opened in vain is closed again.
 */
async function reach(watched: Watched, name: string | RegExp): Promise<Locator> {
  const { page } = watched;
  const shown = await findControl(page, name, 0);
  if (shown) return shown;
  const triggers = page.locator(MENU_BUTTONS).filter({ visible: true });
  const candidates = [...await triggers.all()];
  const phoneMenu = page.getByRole("button", { name: "Open menu", exact: true }).filter({ visible: true });
  if (await phoneMenu.count() > 0) candidates.push(phoneMenu.first());
  for (const trigger of candidates) {
    await trigger.click();
    await settle(watched);
    const inMenu = await findControl(page.locator(OVERLAYS), name, MENU_TIMEOUT_MS);
    if (inMenu) return inMenu;
    await closeAll(watched);
  }
  const late = await findControl(page, name, CONTROL_TIMEOUT_MS);
  if (late) return late;
  throw new Error(`${watched.role}: no control named ${name} on ${page.url()}, nor in a menu there`);
}

/**
 * Clicks the control named `name` and, when `dialog` says so, waits for a dialog to show its heading;
 * then closes whatever opened with Escape.
 */
async function open(watched: Watched, name: string | RegExp, dialog = true) {
  const { page } = watched;
  const control = await reach(watched, name);
  watched.step = `open "${name}" at ${page.viewportSize()?.width} px (from ${new URL(page.url()).pathname})`;
  await control.click();
  if (dialog) {
    // A Headless UI dialog's own element has no box (its backdrop and panel are fixed): wait for its title.
    const title = page.locator("[role=dialog], [role=alertdialog]").getByRole("heading").filter({ visible: true });
    await title.first().waitFor({ timeout: DIALOG_TIMEOUT_MS }).catch(() => {
      throw new Error(`${watched.role}: ${watched.step}: no dialog opened`);
    });
  }
  await settle(watched);
  await closeAll(watched);
}

/** Escape until no dialog, menu or popover is open (a dialog opened from a menu closes in two steps). */
async function closeAll(watched: Watched) {
  const { page } = watched;
  // Closed dialogs and menus leave the document (Headless UI unmounts them).
  const open = page.locator(OVERLAYS);
  for (let count = await open.count(), attempt = 0; count > 0 && attempt < 3; attempt++) {
    await page.keyboard.press("Escape");
    // Escape closes the overlay opened last, which Headless UI portals to the end of the document.
    await open.nth(count - 1).waitFor({ state: "detached", timeout: DIALOG_TIMEOUT_MS }).catch(() => {});
    count = await open.count();
  }
  assert.equal(await open.count(), 0, `${watched.step}: Escape left a dialog or menu open`);
  await settle(watched);
}

/**
 * What each screen's primary buttons open, by screen: a name whose control must open a dialog (a
 * RegExp takes the first row's), or `{ tab }`, a control that shows its part of the screen in place
 * (a tab today; if it opens a dialog instead, that is closed too).
 */
type Opener = string | RegExp | { tab: string | RegExp };
type Openers = Record<string, Opener[]>;

const OPERATOR_OPENERS: Openers = {
  "/institutions": ["New Institution"],
  "/institutions/:id": [/^Suspend /],
  "/routing-codes": ["Assign New Code", /^History of /, /^Change the status of /],
  "/swift-bic": ["Register BIC Code", /^History of /, /^Change the status of /],
  "/national-routing": ["Register Institution", /^View details of /, /^History of /, /^Change the status of /],
  "/balance-sweep": ["Auto Sweep", "Manual Sweep", "Add Account"],
  "/card-management": [{ tab: /^Issue (New )?Card$/ }, { tab: "Distribute Card" }, { tab: "Load Funds" }],
  "/partnership-expediter": [{ tab: "Visa" }, { tab: "Executive Escalation" }],
};

const ADMINISTRATOR_OPENERS: Openers = {
  "/central-bank-connections": ["New Connection", /^Establish .* Connection$/],
  "/balance-sweep": [/^Edit the daily outflow limit of /],
  "/api-management": ["Keys", "Logs", "Webhooks", "Docs"].map((tab) => ({ tab })),
  "/settings": ["Security", "Notifications", "API", "Backup", "System"].map((tab) => ({ tab })),
  "/users": ["New User", "Roles", "Identities", "Reset password"],
};

const APPROVER_OPENERS: Openers = {
  "/approvals": ["Approve", "Reject"],
};

/**
 * Opens the shell's own menus and dialogs: every menu button on screen (a user menu, a "New" menu),
 * the notification panel and the change-password dialog.
 */
async function openShell(watched: Watched) {
  const { page } = watched;
  const menus = await page.locator(MENU_BUTTONS).filter({ visible: true }).all();
  for (const menu of menus) {
    const name = await menu.getAttribute("aria-label") ?? await menu.innerText();
    watched.step = `open the menu "${name}" at ${page.viewportSize()?.width} px`;
    await menu.click();
    await page.getByRole("menu").filter({ visible: true }).first().waitFor({ timeout: DIALOG_TIMEOUT_MS });
    await settle(watched);
    await closeAll(watched);
  }
  await open(watched, /^Notifications, /, false);
  await open(watched, "Change password");
}

const ROUTES_SOURCE = new URL("../../src/web/routes.tsx", import.meta.url);

/**
 * Every route the SPA declares (read from src/web/routes.tsx, so that a new screen is walked without
 * anyone listing it here), each parameter filled with a real record's id from `samples`.
 */
async function screenPaths(samples: Record<string, string>): Promise<{ route: string; path: string }[]> {
  const source = await Deno.readTextFile(ROUTES_SOURCE);
  const routes = [...source.matchAll(/\bpath: "([^"]+)"/g)].map(([, route]) => route);
  assert.ok(routes.length >= NAV_ITEMS.length, "src/web/routes.tsx lists fewer routes than the sidebar");
  return routes.map((route) => {
    const path = route.replace(/:(\w+)/g, (_, name: string) => {
      assert.ok(samples[`${route} ${name}`], `no sample for ${name} in ${route}: add one to the test's samples`);
      return samples[`${route} ${name}`];
    });
    return { route, path };
  });
}

/**
 * What the operator sees on the screens the sidebar hides from them, reached by address: whom the
 * screen is for, with no request made for the data (which would answer 403 and log an error).
 */
const OPERATOR_NOT_ALLOWED: Record<string, string> = {
  "/users": "Only administrators can manage users",
  "/audit-trail": "Only administrators or auditors can read the audit trail",
};

/** Every route at every size, with each screen's dialogs, for one signed-in role. */
async function walk(
  watched: Watched,
  screens: { route: string; path: string }[],
  openers: Openers,
  notAllowed: Record<string, string> = {},
) {
  for (const size of SIZES) {
    await watched.page.setViewportSize(size);
    for (const { route, path } of screens) {
      await visit(watched, path);
      if (notAllowed[route]) await watched.page.getByRole("main").getByText(notAllowed[route]).waitFor();
      for (const opener of openers[route] ?? []) {
        if (typeof opener === "object" && "tab" in opener) await open(watched, opener.tab, false);
        else await open(watched, opener);
      }
    }
    await visit(watched, "/no-such-screen");
    await visit(watched, "/");
    await openShell(watched);
  }
}

function report(): string {
  return problems.map((p) => `- ${p.kind} on ${p.url}\n  during ${p.step}\n  ${p.text.split("\n").join("\n  ")}`)
    .join("\n");
}

/** The demo database's approver (SEED_DEMO=1 prints the seed's staff with their one-time passwords). */
function demoApprover(server: TestServer) {
  const [, email, initialPassword] = server.output().match(/^Demo approver (\S+), one-time password: (\S+)$/m) ?? [];
  assert.ok(email, "the demo seed printed no approver");
  return { email, initialPassword, newPassword: APPROVER_PASSWORD };
}

/**
 * Records the screens show and act on: an active institution (its page offers Suspend), and an
 * operator's request that waits for an approver (the Approvals screen offers Approve and Reject).
 */
async function samples(server: TestServer): Promise<Record<string, string>> {
  const operator = await apiSession(server.baseUrl, await e2eOperator(server.baseUrl), E2E_OPERATOR_PASSWORD);
  const institutions = await operator("GET", "/api/institutions?status=active&limit=1");
  assert.equal(institutions.status, 200);
  const filed = await operator("POST", "/api/ledger-accounts", {
    accountNumber: "E2E-CONSOLE-LDG",
    accountType: "ledger",
    accountName: "Clean Console Ledger",
    currency: "USD",
    currentBalance: "250000.00",
    requestReason: "Opening balance",
  });
  assert.equal(filed.status, 202, JSON.stringify(filed.json));
  return { "/institutions/:id id": institutions.json[0].id };
}

/** The CSP still refuses a style attribute in markup, and the test hears of it: else a clean run would prove nothing. */
async function expectInlineStyleRefused(watched: Watched) {
  watched.step = "self-check: a style attribute in markup";
  const step = `${watched.role}: ${watched.step}`;
  const ours = (p: Problem) => p.step === step;
  await watched.page.evaluate(() => document.body.insertAdjacentHTML("beforeend", '<b style="color: red"></b>'));
  const deadline = Date.now() + DIALOG_TIMEOUT_MS;
  while (!problems.some((p) => ours(p) && p.kind === "CSP violation") && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const caught = problems.filter(ours);
  // What the self-check provoked is not a finding; whatever else was recorded stays.
  problems.splice(0, problems.length, ...problems.filter((p) => !ours(p)));
  assert.ok(
    caught.some((p) => p.kind === "CSP violation" && p.text.startsWith("style-src-attr")),
    "the CSP let a style attribute through, or the test did not hear of it",
  );
}

e2eTest("clean console: no error, page error or CSP violation on any screen or dialog, for each role", async () => {
  const server = await startServer({ SEED_DEMO: "1" });
  const browser = await launchBrowser();
  try {
    const context = (viewport = SIZES[0]) => browser.newContext({ viewport });

    const visitor = await watchedPage(await context(), "signed out", true);
    visitor.step = "landing page";
    await visitor.page.goto(`${server.baseUrl}/`);
    await visitor.page.getByRole("heading", { level: 1 }).first().waitFor();
    await settle(visitor);
    await expectInlineStyleRefused(visitor);
    visitor.step = "sign-in page";
    await visitor.page.goto(`${server.baseUrl}/api/login`);
    await visitor.page.getByRole("button", { name: "Sign In" }).waitFor();
    await visitor.page.context().close();

    const screens = await screenPaths(await samples(server));
    // The roles walk side by side, each in its own context: most of a step is waiting on the server.
    const roles: {
      role: string;
      openers: Openers;
      notAllowed?: Record<string, string>;
      signIn: (watched: Watched) => Promise<void>;
    }[] = [
      {
        role: "operator",
        openers: OPERATOR_OPENERS,
        notAllowed: OPERATOR_NOT_ALLOWED,
        signIn: (w) => signInAsOperator(w.page, server.baseUrl),
      },
      { role: "administrator", openers: ADMINISTRATOR_OPENERS, signIn: (w) => signIn(w.page, server.baseUrl) },
      {
        role: "approver",
        openers: APPROVER_OPENERS,
        signIn: (w) => firstSignInInBrowser(w.page, server.baseUrl, demoApprover(server)),
      },
    ];
    await Promise.all(roles.map(async ({ role, openers, notAllowed, signIn }) => {
      const watched = await watchedPage(await context(), role);
      watched.step = "sign in";
      await signIn(watched);
      await walk(watched, screens, openers, notAllowed);
      await watched.page.context().close();
    }));

    assert.equal(problems.length, 0, `the browser console was not clean:\n${report()}`);
  } catch (error) {
    if (problems.length > 0) console.error(`console problems so far:\n${report()}`);
    console.error(`server output:\n${server.output().slice(-3000)}`);
    throw error;
  } finally {
    await browser.close();
    await server.stop();
  }
});
