/**
 * End-to-end harness: a real server process (the real deno binary, with the same narrow
 * permissions as `deno task start`, on a free port with a temporary database) driven by
 * Playwright in Debian's chromium.
 */
import { AxeBuilder } from "@axe-core/playwright";
import { type Browser, chromium, type Page } from "playwright-core";
import { SERVER_V8_FLAGS, serverPermissions } from "../../scripts/start.ts";
import { defaultCheckpointFile } from "../../src/server/config.ts";
import { createUser, firstSignIn, signInSession, type StaffCrew, staffCrew, useCrew } from "../helpers/http_staff.ts";

export const CHROMIUM_PATH = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
export const E2E_ADMIN_EMAIL = "operator@centralbank.test";
export const E2E_ADMIN_PASSWORD = "e2e-correct-horse-battery";
const ROOT = new URL("../..", import.meta.url).pathname;
const SERVER_START_TIMEOUT_MS = 30_000;

function chromiumAvailable(): boolean {
  try {
    return Deno.statSync(CHROMIUM_PATH).isFile;
  } catch {
    return false;
  }
}

/**
 * Registers a browser test. Without chromium a local run reports the test as ignored and says why;
 * under CI=true a missing browser is a failure.
 */
export function e2eTest(name: string, fn: () => Promise<void>) {
  const available = chromiumAvailable();
  if (!available && Deno.env.get("CI") !== "true") {
    Deno.test({ name, ignore: true, fn });
    return;
  }
  Deno.test({
    name,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      if (!available) throw new Error(`chromium not found at ${CHROMIUM_PATH} (install: apt-get install -y chromium)`);
      await fn();
    },
  });
}

if (!chromiumAvailable() && Deno.env.get("CI") !== "true") {
  console.warn(`e2e skipped: chromium not found at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
}

export function freePort(): Promise<number> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return Promise.resolve(port);
}

export interface TestServer {
  baseUrl: string;
  dataDir: string;
  databaseUrl: string;
  env: Record<string, string>;
  /** The server process's id (the deno binary itself), e.g. to read /proc/<pid>/status. */
  pid: number;
  stop(): Promise<void>;
  /** SIGKILL: for crash tests. */
  kill(): Promise<void>;
  output(): string;
}

/** Each started server's output so far, by address: where a demo database's seed prints its staff. */
const serverOutputs = new Map<string, () => string>();

export async function startServer(extraEnv: Record<string, string> = {}, reuseDataDir?: string): Promise<TestServer> {
  const dataDir = reuseDataDir ?? await Deno.makeTempDir({ prefix: "cbr-e2e-" });
  // A caller that must know the address before the start (a redirect URI) passes PORT itself.
  const port = extraEnv.PORT ? Number(extraEnv.PORT) : await freePort();
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? "/tmp",
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    ADMIN_EMAIL: E2E_ADMIN_EMAIL,
    ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
    SEED_DEMO: "0",
    // Browser tests sign in with a password alone unless they test the second factor.
    REQUIRE_MFA: "0",
    ...extraEnv,
  };
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...serverPermissions(env), SERVER_V8_FLAGS, `${ROOT}src/server/main.ts`],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const decoder = new TextDecoder();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) output += decoder.decode(chunk);
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  const baseUrl = `http://127.0.0.1:${port}`;
  serverOutputs.set(baseUrl, () => output);
  let exited: Deno.CommandStatus | null = null;
  child.status.then((status) => exited = status);
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
  for (;;) {
    try {
      const res = await fetch(`${baseUrl}/api/auth/user`);
      await res.body?.cancel();
      if (res.status === 401) break;
    } catch {
      // Not listening yet.
    }
    // A server that exits at start says why in its output.
    if (exited) {
      await drained;
      throw new Error(`server exited (code ${(exited as Deno.CommandStatus).code}) before it listened:\n${output}`);
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      await child.status;
      throw new Error(`server did not start within ${SERVER_START_TIMEOUT_MS} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let stopped = false;
  const halt = async (signal: Deno.Signal) => {
    if (stopped) return;
    stopped = true;
    try {
      child.kill(signal);
    } catch {
      // Already exited.
    }
    await child.status;
    await drained;
  };
  return {
    baseUrl,
    dataDir,
    databaseUrl: `file:${dataDir}/console.db`,
    env,
    pid: child.pid,
    output: () => output,
    kill: () => halt("SIGKILL"),
    async stop() {
      await halt("SIGTERM");
      if (!reuseDataDir) {
        await Deno.remove(dataDir, { recursive: true }).catch(() => {});
        await Deno.remove(defaultCheckpointFile(dataDir)).catch(() => {});
      }
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

export async function signIn(page: Page, baseUrl: string, email = E2E_ADMIN_EMAIL, password = E2E_ADMIN_PASSWORD) {
  await page.goto(`${baseUrl}/api/login`);
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${baseUrl}/`);
  await page.getByTestId("account-menu-button").waitFor();
}

/** Opens the header's account menu (name, role label, password change, sign out) and returns it. */
export async function openAccountMenu(page: Page) {
  await page.getByTestId("account-menu-button").click();
  const menu = page.getByTestId("account-menu");
  await menu.waitFor();
  return menu;
}

/** The signed-in user's name and role label, as the account menu shows them; the menu is closed again. */
export async function accountLabels(page: Page): Promise<{ user: string; role: string }> {
  const menu = await openAccountMenu(page);
  const labels = { user: await menu.getByTestId("user-label").innerText(), role: await menu.getByTestId("role-label").innerText() };
  await page.keyboard.press("Escape");
  await menu.waitFor({ state: "detached" });
  return labels;
}

/** Free of "operator" and "demo": a demo database's operator is Demo Operator, operator@centralbank.local. */
export const E2E_OPERATOR_PASSWORD = "e2e-quiet-harbour-lantern";
const operators = new Map<string, Promise<string>>();
const adminCookies = new Map<string, Promise<string>>();
const crews = new Map<string, Promise<StaffCrew>>();

/** The first administrator's API session cookie, one per server (the key of its staff crew). */
export function e2eAdminCookie(baseUrl: string): Promise<string> {
  let cookie = adminCookies.get(baseUrl);
  if (!cookie) {
    cookie = signInSession(baseUrl, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD);
    adminCookies.set(baseUrl, cookie);
  }
  return cookie;
}

interface DemoPerson {
  email: string;
  initialPassword: string;
}

/** The staff a demo database's seed made (SEED_DEMO=1), by role, from the start log; empty otherwise. */
function demoStaff(baseUrl: string): Map<string, DemoPerson> {
  const output = serverOutputs.get(baseUrl)?.() ?? "";
  const staff = new Map<string, DemoPerson>();
  for (const [, role, email, initialPassword] of output.matchAll(/^Demo (\w+) (\S+), one-time password: (\S+)$/gm)) {
    staff.set(role, { email, initialPassword });
  }
  return staff;
}

/**
 * The server's crew (tests/helpers/http_staff.ts): an operator, an approver a second administrator
 * confirmed, and that second administrator. Made once per server, while the first administrator is
 * alone; from then on dual control is in force. A demo database has its crew already: its seed's
 * staff, made as if under dual control.
 */
export function e2eCrew(baseUrl: string): Promise<StaffCrew> {
  let crew = crews.get(baseUrl);
  if (!crew) {
    crew = (async () => {
      const adminCookie = await e2eAdminCookie(baseUrl);
      const demo = demoStaff(baseUrl);
      const approver = demo.get("approver");
      const administrator = demo.get("administrator");
      if (!approver || !administrator) return await staffCrew(baseUrl, adminCookie);
      const seeded = (async () => ({
        operator: await signInSession(baseUrl, await e2eOperator(baseUrl), E2E_OPERATOR_PASSWORD),
        approver: await firstSignIn(baseUrl, approver.email, approver.initialPassword),
        secondAdministrator: await firstSignIn(baseUrl, administrator.email, administrator.initialPassword),
      }))();
      useCrew(baseUrl, adminCookie, seeded);
      return await seeded;
    })();
    crews.set(baseUrl, crew);
  }
  return crew;
}

/** An approver whose role decides (confirmed by a second administrator), as an API session. */
export async function e2eApprover(baseUrl: string): Promise<ApiSession> {
  return cookieSession(baseUrl, (await e2eCrew(baseUrl)).approver);
}

/**
 * The server's operator (the first administrator holds administrator alone and moves no money):
 * a demo database's, or one made once per server by the administrator through the API; its
 * one-time password replaced with E2E_OPERATOR_PASSWORD.
 */
export function e2eOperator(baseUrl: string): Promise<string> {
  let made = operators.get(baseUrl);
  if (!made) {
    made = (async () => {
      const demo = demoStaff(baseUrl).get("operator");
      const email = demo?.email ?? "desk.operator@centralbank.test";
      const initialPassword = demo?.initialPassword ??
        (await createUser(baseUrl, await e2eAdminCookie(baseUrl), email, ["operator"])).initialPassword;
      await firstSignIn(baseUrl, email, initialPassword, E2E_OPERATOR_PASSWORD);
      return email;
    })();
    operators.set(baseUrl, made);
  }
  return made;
}

/** Signs in as the server's operator, for screens where staff register things and move money. */
export async function signInAsOperator(page: Page, baseUrl: string) {
  await signIn(page, baseUrl, await e2eOperator(baseUrl), E2E_OPERATOR_PASSWORD);
}

/** Fails on any critical or serious axe-core violation on the current page. */
export async function expectAccessible(page: Page, context: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "critical" || v.impact === "serious");
  if (bad.length > 0) {
    const details = bad.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("\n  ")}`);
    throw new Error(`accessibility violations on ${context}:\n${details.join("\n")}`);
  }
}

/** Runs `fn` with a fresh server, browser and page, and always cleans up. */
export async function withBrowser(
  fn: (ctx: { page: Page; server: TestServer; browser: Browser }) => Promise<void>,
  env: Record<string, string> = {},
) {
  const server = await startServer(env);
  const browser = await launchBrowser();
  try {
    // axe-core needs a page from an explicit context.
    const page = await (await browser.newContext()).newPage();
    await fn({ page, server, browser });
  } catch (error) {
    const output = server.output();
    if (output) console.error(`server output:\n${output.slice(-4000)}`);
    throw error;
  } finally {
    await browser.close();
    await server.stop();
  }
}

export type ApiSession = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: any }>;

/** A small API client with its own session, for the setup a test is not about. */
export async function apiSession(baseUrl: string, email: string, password: string): Promise<ApiSession> {
  return cookieSession(baseUrl, await signInSession(baseUrl, email, password));
}

/** A small API client on a session cookie already signed in. */
export function cookieSession(baseUrl: string, cookie: string): ApiSession {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  };
}

/**
 * Signs in with a one-time password and replaces it with `newPassword` on the screen that allows
 * nothing else; `checkAccessible` also runs axe-core on that screen.
 */
export async function firstSignInInBrowser(
  page: Page,
  baseUrl: string,
  account: { email: string; initialPassword: string; newPassword: string },
  checkAccessible = false,
) {
  const { email, initialPassword, newPassword } = account;
  await page.goto(`${baseUrl}/api/login`);
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill(initialPassword);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.getByRole("heading", { name: "Choose your password" }).waitFor();
  if (checkAccessible) await expectAccessible(page, "first sign-in password change");
  await page.getByLabel("Current password").fill(initialPassword);
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Repeat the new password").fill(newPassword);
  await page.getByRole("button", { name: "Change password" }).click();
  await page.getByTestId("account-menu-button").waitFor();
}

/** The header's New menu button: every creation the user's roles allow. */
export const newMenuButton = (page: Page) => page.getByRole("banner").getByRole("button", { name: "New", exact: true });

/** Chooses `label` ("New Institution", "Manual Sweep", …) in the header's New menu. */
export async function chooseNew(page: Page, label: string) {
  await newMenuButton(page).click();
  await page.getByRole("menuitem", { name: label, exact: true }).click();
}

/** Signs out through the account menu, without waiting for what follows. */
export async function chooseSignOut(page: Page) {
  await openAccountMenu(page);
  await page.getByRole("menuitem", { name: "Sign Out" }).click();
}

export async function signOut(page: Page) {
  await chooseSignOut(page);
  await page.getByRole("button", { name: "Sign In" }).first().waitFor();
}

/** Reads the toast shown, then dismisses it and waits until it is gone, so the next one is its own. */
export async function readAndDismissToast(page: Page): Promise<string> {
  const toast = page.getByTestId("toast");
  await toast.waitFor();
  const text = await toast.innerText();
  await toast.getByRole("button", { name: "Dismiss notification" }).click();
  await toast.waitFor({ state: "detached" });
  return text;
}
