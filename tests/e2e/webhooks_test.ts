/**
 * The Webhooks tab against the real server (its own delivery worker) and a real receiver on
 * 127.0.0.1: add a webhook, see the secret once, make a status change, see the delivery in the log,
 * redeliver it.
 */
import assert from "node:assert/strict";
import { cookieSession, e2eCrew, e2eTest, expectAccessible, signIn, withBrowser } from "./helpers.ts";

async function hmacValid(secret: string, headers: Headers, body: string): Promise<boolean> {
  const bytes = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  const key = await crypto.subtle.importKey(
    "raw",
    bytes(secret.slice("whsec_".length)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  const [version, mac] = (headers.get("webhook-signature") ?? "").split(",");
  const signed = `${headers.get("webhook-id")}.${headers.get("webhook-timestamp")}.${body}`;
  return version === "v1" &&
    await crypto.subtle.verify("HMAC", key, bytes(mac), new TextEncoder().encode(signed));
}

e2eTest(
  "Webhooks tab: add a webhook, see its secret once, see a signed delivery in the log, redeliver it",
  async () => {
    const received: { headers: Headers; body: string }[] = [];
    const receiver = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
      received.push({ headers: request.headers, body: await request.text() });
      return new Response("thanks", { status: 200 });
    });
    try {
      await withBrowser(async ({ page, server }) => {
        await signIn(page, server.baseUrl);
        await page.goto(`${server.baseUrl}/api-management`);
        await page.getByRole("tab", { name: "Webhooks" }).click();
        await page.getByText("No webhooks yet").waitFor();
        const url = `http://127.0.0.1:${receiver.addr.port}/registry-events`;
        await page.getByLabel("Endpoint URL").fill(url);
        await page.getByLabel("Description (optional)").fill("Clearing house feed");
        await page.getByRole("button", { name: "Add Webhook" }).click();

        const dialog = page.getByRole("dialog", { name: "Webhook added" });
        await dialog.getByText("You will not see it again").waitFor();
        const secret = await dialog.getByRole("textbox", { name: "Signing secret" }).inputValue();
        assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
        await expectAccessible(page, "API Management, new webhook dialog");
        await dialog.getByRole("button", { name: "Done" }).click();
        const table = page.getByRole("table", { name: "Webhooks" });
        await table.getByText("Clearing house feed").waitFor();
        assert(!(await page.content()).includes(secret), "the secret is gone once the dialog is closed");

        // A status change, requested and approved by two other people through the API.
        const crew = await e2eCrew(server.baseUrl);
        const operator = cookieSession(server.baseUrl, crew.operator);
        const approver = cookieSession(server.baseUrl, crew.approver);
        const institution = await operator("POST", "/api/institutions", {
          name: "Webhook Savings Bank",
          type: "savings",
          registrationNumber: "E2E-HOOK-1",
          address: "9 Delivery Street",
          phoneNumber: "+1 202 555 0190",
          emailAddress: "ops@webhook-savings.example",
        });
        assert.equal(institution.status, 201);
        const requested = await operator("PATCH", `/api/institutions/${institution.json.id}/status`, {
          status: "active",
          reason: "Licence verified",
        });
        assert.equal(requested.status, 202);
        const approved = await approver(
          "POST",
          `/api/approvals/${requested.json.approvalRequest.id}/approve`,
          {
            reason: "Licence verified",
          },
        );
        assert.equal(approved.status, 200);

        await table.getByRole("button", { name: `Deliveries of ${url}` }).click();
        const log = page.getByRole("table", { name: `Deliveries to ${url}` });
        await log.getByText("delivered").waitFor({ timeout: 15_000 });
        await log.getByText("Webhook Savings Bank changed from pending to active").waitFor();
        await log.getByText(/1 attempt: HTTP 200 in \d+ ms: thanks/).waitFor();
        assert.equal(received.length, 1);
        assert.equal(await hmacValid(secret, received[0].headers, received[0].body), true);
        assert.equal(JSON.parse(received[0].body).data.status, "active");
        await expectAccessible(page, "API Management, Webhooks tab with its delivery log");

        await log.getByRole("button", {
          name: "Redeliver Webhook Savings Bank changed from pending to active",
        }).click();
        await log.getByText(/2 attempts: HTTP 200/).waitFor({ timeout: 15_000 });
        assert.equal(received.length, 2);
        assert.equal(received[1].headers.get("webhook-id"), received[0].headers.get("webhook-id"));
        assert.equal(await hmacValid(secret, received[1].headers, received[1].body), true);
      }, { WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" });
    } finally {
      await receiver.shutdown();
    }
  },
);
