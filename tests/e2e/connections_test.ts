import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { e2eTest, expectAccessible, signIn, signInAsOperator, withBrowser } from "./helpers.ts";

async function expectToast(page: Page, text: string | RegExp): Promise<string> {
  const toast = page.getByTestId("toast").filter({ hasText: text });
  await toast.waitFor();
  return await toast.innerText();
}

async function statValue(page: Page, label: string): Promise<string> {
  const card = page.locator("p", { hasText: new RegExp(`^${label}$`) }).locator("xpath=..");
  return (await card.locator("p").nth(1).innerText()).trim();
}

e2eTest(
  "national routing: invalid JSON blocks submission; blank connection details register the spec default, shown readably",
  () =>
    withBrowser(async ({ page, server }) => {
      await signInAsOperator(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/national-routing`);
      await page.getByRole("heading", { name: "National Routing Registry", level: 1 }).waitFor();
      await page.getByText("No registry entries yet").waitFor();
      assert.equal(await statValue(page, "SWIFT Integration"), "Active");
      await expectAccessible(page, "national routing, empty");

      await page.getByRole("button", { name: "Register Institution" }).first().click();
      // Headless UI's dialog root has no box of its own: wait for its content.
      const dialog = page.getByRole("dialog", { name: "Register Institution" });
      await dialog.getByLabel("Institution Name").waitFor();
      await dialog.getByLabel("Institution Name").fill("Harbour Community Bank");
      await dialog.getByLabel("Registry Number").fill("REG-2024-001");
      await dialog.getByLabel("National Bank Code").fill("HCB001");
      await dialog.getByLabel("SWIFT/BIC Code").fill("deutdeff");
      assert.equal(await dialog.getByLabel("SWIFT/BIC Code").inputValue(), "DEUTDEFF");
      await dialog.getByLabel("Connection Details (JSON)").fill("{not json");
      await dialog.getByRole("button", { name: "Register Institution" }).click();
      await dialog.getByText("Connection details must be valid JSON").waitFor();
      await expectAccessible(page, "register institution dialog with an error");
      assert.equal(await page.getByTestId("toast").count(), 0, "nothing was sent");

      await dialog.getByLabel("Connection Details (JSON)").fill("");
      await dialog.getByRole("button", { name: "Register Institution" }).click();
      assert.match(
        await expectToast(page, "National routing entry created successfully"),
        /central bank code CBR001/,
      );
      await dialog.waitFor({ state: "detached" });

      const table = page.getByRole("table", { name: "National routing registry" });
      await table.getByRole("cell", { name: "CBR001" }).waitFor();
      assert.equal(await statValue(page, "BIC Registry"), "1");
      assert.equal(await statValue(page, "IBAN Participants"), "0");
      await expectAccessible(page, "national routing with an entry");

      await table.getByRole("button", { name: "View details of Harbour Community Bank" }).click();
      const details = page.getByRole("dialog", { name: "Harbour Community Bank" });
      const connection = details.getByRole("region", { name: "Connection Details" });
      await connection.waitFor();
      const text = await connection.innerText();
      assert.match(text, /Message Formats\s+iso20022, swift_mt103/);
      assert.match(text, /Currencies\s+USD, EUR/);
      assert.match(text, /Settlement Frequency\s+real-time/);
      assert.match(text, /Swift Integration\s+Yes/);
      assert.match(text, /Iban Compliant\s+No/);
      assert(!text.includes("{"), "connection details are not shown as raw JSON");
      await expectAccessible(page, "registry entry details dialog");
    }),
);

e2eTest(
  "connections: create and test against a local server, then establish the partner connection and see its offer disappear",
  async () => {
    const hits: string[] = [];
    const partnerSide = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
      hits.push(new URL(req.url).pathname);
      return new Response("pong");
    });
    const port = partnerSide.addr.port;
    try {
      await withBrowser(async ({ page, server }) => {
        await signIn(page, server.baseUrl);
        await page.goto(`${server.baseUrl}/central-bank-connections`);
        await page.getByRole("heading", { name: "Central Bank Connections", level: 1 }).waitFor();
        const offer = page.getByRole("region", { name: "Connect to Loc Community Association" });
        await offer.waitFor();
        await page.getByText("No connections yet").waitFor();
        await expectAccessible(page, "connections, empty, with the partner offer");

        await page.getByRole("button", { name: "New Connection" }).click();
        const dialog = page.getByRole("dialog", { name: "New Connection" });
        await dialog.getByLabel("Partner Central Bank").waitFor();
        await dialog.getByLabel("Partner Central Bank").fill("Bank of Testland");
        await dialog.getByLabel("Daily Settlement Limit").fill("1250.5");
        await dialog.getByLabel("API Endpoint").fill(`http://127.0.0.1:${port}/ping`);
        await dialog.getByLabel("Credentials (JSON)").fill("[1, 2]");
        await dialog.getByRole("button", { name: "Create Connection" }).click();
        await dialog.getByText("Credentials must be a JSON object").waitFor();
        await expectAccessible(page, "new connection dialog with an error");
        await dialog.getByLabel("Credentials (JSON)").fill('{"apiKey": "sk_live_e2e_9f8e7d6c5b4a"}');
        await dialog.getByRole("button", { name: "Create Connection" }).click();
        await expectToast(page, "Central bank connection created successfully");
        await dialog.waitFor({ state: "detached" });

        const table = page.getByRole("table", { name: "Central bank connections" });
        await table.getByText("Bank of Testland").waitFor();
        await table.getByText("$1,250.50").waitFor();
        assert.equal(await statValue(page, "Total Connections"), "1");
        assert.equal(await statValue(page, "Pending"), "1");
        assert(
          !(await page.content()).includes("sk_live_e2e_9f8e7d6c5b4a"),
          "the secret never reaches the page",
        );

        await table.getByRole("button", { name: "Test connection to Bank of Testland" }).click();
        const success = await expectToast(page, "Connection Successful");
        assert.match(success, /HTTP 200 OK \(latency \d+ ms\)/);
        await table.locator("tr", { hasText: "Bank of Testland" }).getByText("active").waitFor();
        assert.equal(await statValue(page, "Active"), "1");
        assert.deepEqual(hits, ["/ping"]);
        await expectAccessible(page, "connections after a test");

        // Issue 23: establishing asks to confirm first.
        await offer.getByRole("button", { name: "Establish Loc Community Association Connection" }).click();
        const confirm = page.getByRole("dialog", { name: /^Establish a connection to / });
        await confirm.getByRole("button", { name: "Establish Connection" }).click();
        await expectToast(page, "Loc Community Association connection established");
        await offer.waitFor({ state: "detached" });
        await table.getByText("Loc Community Association").waitFor();
        assert.equal(await statValue(page, "Total Connections"), "2");

        await table.getByRole("button", { name: "Test connection to Loc Community Association" }).click();
        const failure = await expectToast(page, "Connection Failed");
        assert.match(
          failure,
          /no network permission for api\.loc-community\.example: set CONNECTION_TEST_ANY_HOST=1/,
        );
        await expectAccessible(page, "connections with the partner connected");

        await page.reload();
        await table.getByText("Loc Community Association").waitFor();
        assert.equal(
          await page.getByRole("region", { name: "Connect to Loc Community Association" }).count(),
          0,
        );
      }, { CONNECTION_TEST_ALLOWED_HOSTS: `127.0.0.1:${port}` });
    } finally {
      await partnerSide.shutdown();
    }
  },
);
