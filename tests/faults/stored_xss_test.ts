/**
 * Stored XSS: free text holding markup (institution names, account names, cardholder names,
 * registry entries, connection partners, code descriptions, API key names, and the paths and user
 * agents the request log records) is registered through the API, then
 * every screen that shows it is opened in chromium: the markup must appear as literal text, no
 * dialog may fire and no element of the payload may exist in the page.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { chooseSignOut, E2E_OPERATOR_PASSWORD, e2eOperator, e2eTest, signIn, signInAsOperator, withBrowser } from "../e2e/helpers.ts";
import { client, routeExists, signIn as apiSignIn } from "./support/storm.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const SCREEN_TIMEOUT_MS = 20_000;

/** Markup that would run or render if any screen injected it as HTML. */
const payload = (label: string) =>
  `${label} <img src=x data-xss onerror="alert('${label}')"><script data-xss>alert(1)</script><b data-xss>bold</b>`;

interface Planted {
  text: string;
  screens: string[];
}

async function buildSpa() {
  const status = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}build.ts`, "--if-stale"],
    cwd: ROOT,
    stdout: "null",
    stderr: "inherit",
  }).output();
  if (!status.success) throw new Error("building the SPA failed");
}

async function plant(baseUrl: string): Promise<{ planted: Planted[]; skipped: string[] }> {
  // The operator registers and opens accounts; the administrator (who holds administrator alone)
  // manages connections and API keys.
  const call = client(baseUrl, await apiSignIn(baseUrl));
  const operator = client(baseUrl, await apiSignIn(baseUrl, await e2eOperator(baseUrl), E2E_OPERATOR_PASSWORD));
  const planted: Planted[] = [];
  const skipped: string[] = [];
  /** Registers one record whose `shown` field holds markup; null when its feature is not mounted. */
  const create = async (
    as: ReturnType<typeof client>,
    label: string,
    path: string,
    listPath: string,
    shown: string,
    body: Record<string, unknown>,
    screens: string[],
  ) => {
    if (!(await routeExists(call, "GET", listPath))) {
      skipped.push(`${label} (${listPath} not mounted)`);
      return null;
    }
    const res = await as("POST", path, body);
    assert(
      res.status === 201 || res.status === 200,
      `${label}: POST ${path} answered ${res.status} ${res.text}`,
    );
    planted.push({ text: shown, screens });
    return res.json;
  };

  const institutionName = payload("XSS-institution");
  const institution = await create(operator, "institution", "/api/institutions", "/api/institutions", institutionName, {
    name: institutionName,
    type: "commercial",
    registrationNumber: "XSS-REG-1",
    address: payload("XSS-address"),
    phoneNumber: "+1-555-0199",
    emailAddress: "xss@bank.example",
    numberOfBranches: 2,
    swiftParticipant: false,
  }, ["/", "/institutions"]);

  if (institution) {
    const description = payload("XSS-routing-description");
    await create(operator, "routing code", "/api/routing-codes", "/api/routing-codes", description, {
      institutionId: institution.id,
      prefix: "XSS",
      branchCode: "001",
      description,
    }, ["/routing-codes"]);
  }

  const registryName = payload("XSS-registry");
  await create(operator, "national routing entry", "/api/national-routing", "/api/national-routing", registryName, {
    institutionType: "commercial_bank",
    registryNumber: "XSS-1",
    institutionName: registryName,
    nationalBankCode: "XSS00001",
  }, ["/national-routing"]);

  const partner = payload("XSS-partner");
  await create(
    call,
    "central bank connection",
    "/api/central-bank-connections",
    "/api/central-bank-connections",
    partner,
    {
      partnerCentralBank: partner,
      connectionType: "correspondent",
      messageStandard: "iso20022",
      settlementCurrency: "USD",
      dailySettlementLimit: null,
      authenticationMethod: "api_key",
      credentialsConfig: {},
    },
    ["/central-bank-connections"],
  );

  const accountName = payload("XSS-account");
  await create(operator, "ledger account", "/api/ledger-accounts", "/api/ledger-accounts", accountName, {
    accountNumber: "XSS-ACC-1",
    accountType: "liquid",
    accountName,
    currency: "USD",
  }, ["/balance-sweep"]);

  const holder = payload("XSS-cardholder");
  await create(operator, "card", "/api/cards/issue", "/api/cards", holder, {
    cardholderName: holder,
    cardType: "prepaid",
    cardBrand: "visa",
    initialBalance: "0",
  }, ["/card-management"]);

  if (await routeExists(call, "GET", "/api/api-keys")) {
    const created = await call("POST", "/api/api-keys", { name: KEY_NAME });
    assert.equal(created.status, 201, created.text);
    planted.push({ text: KEY_NAME, screens: ["/api-management#Keys"] });
    // The request log shows what callers send: a path and a user agent carrying markup.
    const res = await fetch(`${baseUrl}${LOGGED_PATH}`, {
      headers: { authorization: `Bearer ${created.json.key}`, "user-agent": LOGGED_USER_AGENT },
    });
    await res.body?.cancel();
  } else {
    skipped.push("API key and request log (/api/api-keys not mounted)");
  }
  return { planted, skipped };
}

/** No double quotes: the request log's details show payloads as JSON, which would escape them. */
const LOGGED_MARKUP = "<img src=x data-xss onerror=alert(1)>";
const LOGGED_PATH = `/api/institutions/XSS-path${encodeURIComponent(LOGGED_MARKUP)}`;
const LOGGED_USER_AGENT = `XSS-agent ${LOGGED_MARKUP}<script data-xss>alert(2)</script>`;
const LOG_FLUSH_TIMEOUT_MS = 10_000;
/** Key names are at most 100 characters. */
const KEY_NAME = `XSS-key ${LOGGED_MARKUP}<b data-xss>b</b>`;

/** The endpoint as the request log recorded it (the router leaves reserved characters encoded). */
async function waitForLoggedPath(baseUrl: string): Promise<string> {
  const call = client(baseUrl, await apiSignIn(baseUrl));
  const deadline = Date.now() + LOG_FLUSH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const res = await call("GET", "/api/api-logs");
    const entries: { endpoint: string }[] = Array.isArray(res.json)
      ? res.json
      : res.json?.entries ?? res.json?.data ?? [];
    const logged = entries.find((e) => e.endpoint?.includes("XSS-path"));
    if (logged) return logged.endpoint;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the request with markup never reached the request log");
}

async function expectLiteral(
  page: Page,
  screen: string,
  texts: string[],
  dialogs: string[],
  scope: Locator | Page = page,
) {
  for (const text of texts) {
    // getByText matches a substring with white space normalised: the whole payload, as text. The
    // first visible match: a chart's collapsed text alternative may name the same record first.
    await scope.getByText(text).filter({ visible: true }).first().waitFor({ state: "visible", timeout: SCREEN_TIMEOUT_MS }).catch(
      () => {
        throw new Error(`${screen}: the text ${JSON.stringify(text)} is not shown literally`);
      },
    );
  }
  const injected = await page.locator("[data-xss]").count();
  assert.equal(injected, 0, `${screen}: ${injected} element(s) of a payload were injected into the page`);
  assert.deepEqual(dialogs, [], `${screen}: a dialog fired`);
}

e2eTest("markup stored in free-text fields renders as text on every screen that shows it", async () => {
  await buildSpa();
  await withBrowser(async ({ page, server }) => {
    const { planted, skipped } = await plant(server.baseUrl);
    if (skipped.length > 0) console.log(`not planted (feature not mounted): ${skipped.join(", ")}`);
    assert(planted.length > 0, "no free-text record could be planted");
    const dialogs: string[] = [];
    page.on("dialog", async (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      await dialog.dismiss();
    });
    await signIn(page, server.baseUrl);
    const plantedLabels = new Set(planted.map((p) => p.text));
    const checked: string[] = [];
    // First, before the screens' own requests push the entry off the log's first page.
    if (plantedLabels.has(KEY_NAME)) {
      const endpoint = await waitForLoggedPath(server.baseUrl);
      assert(endpoint.includes("<img"), `the logged endpoint ${endpoint} lost its markup`);
      await page.goto(`${server.baseUrl}/api-management`);
      await page.getByRole("tab", { name: "Logs" }).click();
      await expectLiteral(page, "/api-management#Logs", [endpoint, `Key: ${KEY_NAME}`], dialogs);
      await page.getByRole("button", { name: new RegExp(`^Details of GET /api/institutions/XSS-path`) })
        .first().click();
      await expectLiteral(
        page,
        "/api-management#Logs details",
        [`User agent: ${LOGGED_USER_AGENT}`],
        dialogs,
        page.getByRole("dialog"),
      );
      checked.push("/api-management Logs (path, key name, user agent)");
    }
    const screens = [...new Set(planted.flatMap((p) => p.screens))];
    for (const screen of screens) {
      // "path#Tab": the screen, then the tab that shows the record.
      const [path, tab] = screen.split("#");
      await page.goto(`${server.baseUrl}${path}`);
      if (tab) await page.getByRole("tab", { name: tab }).click();
      const texts = planted.filter((p) => p.screens.includes(screen)).map((p) => p.text);
      await expectLiteral(page, screen, texts, dialogs);
    }
    checked.push(...screens);
    if (plantedLabels.has(payload("XSS-institution"))) {
      await page.goto(`${server.baseUrl}/`);
      const lookup = page.getByRole("search", { name: "Code lookup" });
      await lookup.getByLabel("Lookup type").selectOption("institution");
      await lookup.getByLabel("Search value").fill("XSS-institution");
      await lookup.getByRole("button", { name: "Search" }).click();
      await expectLiteral(
        page,
        "dashboard code lookup",
        [payload("XSS-institution")],
        dialogs,
        page.getByTestId("lookup-results"),
      );
      checked.push("code lookup results");
    }
    // Names inside form choices: the manual sweep's target accounts, the load form's cards, on the
    // operator's screens (the administrator is offered neither form).
    await chooseSignOut(page);
    await page.getByRole("button", { name: "Sign In" }).first().waitFor();
    await signInAsOperator(page, server.baseUrl);
    const choices: [string, string, RegExp, string][] = [
      ["/balance-sweep", "XSS-account", /manual sweep/i, "button"],
      ["/card-management", "XSS-cardholder", /load funds/i, "tab"],
    ];
    for (const [screen, label, control, role] of choices) {
      if (!plantedLabels.has(payload(label))) continue;
      await page.goto(`${server.baseUrl}${screen}`);
      await page.getByRole(role as "button" | "tab", { name: control }).first().click();
      const options = page.locator("option", { hasText: label });
      await options.first().waitFor({ state: "attached", timeout: SCREEN_TIMEOUT_MS });
      const choice = await options.first().textContent() ?? "";
      assert(
        choice.includes(payload(label)),
        `${screen}: the choice ${JSON.stringify(choice)} does not hold the literal text`,
      );
      await expectLiteral(page, `${screen} ${control}`, [], dialogs);
      checked.push(`${screen} ${control.source}`);
    }
    console.log(`checked ${checked.join(", ")}`);
  });
});
