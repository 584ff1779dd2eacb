import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { generateCardNumber, isValidLuhn, maskCardNumber } from "../../src/domain/card.ts";
import {
  MAX_PROVIDER_TIMEOUT_MS,
  plaidSettings,
  providerNetHosts,
  providerReadFiles,
  visaSettings,
} from "../../src/server/features/fintech/provider_env.ts";
import { FINTECH_AUDIT_ENTITY } from "../../src/server/features/fintech/service.ts";
import { serverPermissions } from "../../scripts/start.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const VISA_CARD = "4532015112830366";
const MASTERCARD = "5555555555554444";
const ROUTING = "021000021";
const ACCOUNT = "123456789012";
const PLAID_ENV = { PLAID_CLIENT_ID: "client-123", PLAID_SECRET: "plaid-secret-xyz" };
const VISA_ENV = { VISA_USER_ID: "visa-user", VISA_PASSWORD: "visa-password" };
/** Short enough to keep the suite fast, long enough for a loopback answer on a busy machine. */
const TEST_TIMEOUT_MS = 400;
const HANG_MS = 5_000;

type Req = ReturnType<TestApp["as"]>;

async function withApp(fn: (t: TestApp, req: Req) => Promise<void>, env: Record<string, string> = {}) {
  const t = await createTestApp(env);
  try {
    await fn(t, await t.desk());
  } finally {
    await t.close();
  }
}

const post = async (req: Req, path: string, body: unknown, status: number) =>
  expectJson(await req("POST", path, { body }), status);

async function fintechAudit(t: TestApp) {
  return await t.deps.db.read.all<{ entityId: string; action: string; changes: string }>(
    sql`SELECT entity_id AS entityId, action, changes FROM audit_trail WHERE entity_type = ${FINTECH_AUDIT_ENTITY} ORDER BY seq`,
  );
}

interface Recorded {
  path: string;
  headers: Headers;
  body: any;
}

/** A local stand-in for a provider over real HTTP; `respond` decides each answer. */
function fakeProvider(respond: (request: Recorded, hang: () => Promise<Response>) => Response | Promise<Response>) {
  const recorded: Recorded[] = [];
  const hanging: Array<() => void> = [];
  const controller = new AbortController();
  const hang = () =>
    new Promise<Response>((resolve) => {
      const timer = setTimeout(() => resolve(Response.json({})), HANG_MS);
      hanging.push(() => {
        clearTimeout(timer);
        resolve(Response.json({}));
      });
    });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen: () => {} }, async (request) => {
    const entry = { path: new URL(request.url).pathname, headers: request.headers, body: await request.json().catch(() => null) };
    recorded.push(entry);
    return await respond(entry, hang);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    recorded,
    async close() {
      for (const release of hanging) release();
      controller.abort();
      await server.finished;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Sandbox

Deno.test("GET /api/fintech/status reports plaid and visa with status, authority, capabilities and sandbox mode", async () => {
  await withApp(async (_t, req) => {
    // A sandboxed provider is "sandbox", never "operational": even after a call the sandbox answered.
    await post(req, "/api/plaid/verify-account", { accountNumber: ACCOUNT, routingNumber: ROUTING }, 200);
    const status = await expectJson(await req("GET", "/api/fintech/status"), 200);
    for (const provider of ["plaid", "visa"]) {
      assert.equal(status[provider].status, "sandbox");
      assert.equal(status[provider].lastCallAt, null);
      assert.equal(typeof status[provider].authority, "string");
      assert.ok(status[provider].capabilities.length > 0);
      assert.equal(status[provider].mode, "sandbox");
    }
    assert.deepEqual(status.plaid.capabilities, ["account_verification", "balance_check"]);
    assert.deepEqual(status.visa.capabilities, ["direct_transfer", "push_payment"]);
  });
});

Deno.test("fintech endpoints answer 401 without a session", async () => {
  const t = await createTestApp();
  try {
    for (const path of ["/api/plaid/verify-account", "/api/plaid/check-balance", "/api/visa/direct-transfer", "/api/visa/push-payment"]) {
      assert.deepEqual(await expectJson(await t.request("POST", path, { body: {} }), 401), { message: "Unauthorized" });
    }
    assert.equal((await t.request("GET", "/api/fintech/status")).status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("sandbox verify-account answers a verification method and a stable account id for valid numbers", async () => {
  await withApp(async (_t, req) => {
    const first = await post(req, "/api/plaid/verify-account", { accountNumber: ACCOUNT, routingNumber: ROUTING }, 200);
    assert.equal(first.verificationMethod, "instant_auth");
    assert.equal(first.verified, true);
    assert.equal(first.accountMask, "****9012");
    assert.equal(first.mode, "sandbox");
    const again = await post(req, "/api/plaid/verify-account", { accountNumber: "1234-5678-9012", routingNumber: ROUTING }, 200);
    assert.equal(again.accountId, first.accountId);
    const other = await post(req, "/api/plaid/verify-account", { accountNumber: "987654321", routingNumber: ROUTING }, 200);
    assert.notEqual(other.accountId, first.accountId);
  });
});

Deno.test("verify-account refuses missing fields, a failed ABA checksum and malformed account numbers with 400", async () => {
  await withApp(async (t, req) => {
    const cases: Array<[Record<string, unknown>, string, string | undefined]> = [
      [{ routingNumber: ROUTING }, "accountNumber", undefined],
      [{ accountNumber: ACCOUNT }, "routingNumber", undefined],
      [{ accountNumber: ACCOUNT, routingNumber: "021000022" }, "routingNumber", "invalid_routing_number"],
      [{ accountNumber: ACCOUNT, routingNumber: "12345678" }, "routingNumber", "invalid_routing_number"],
      [{ accountNumber: "12a456", routingNumber: ROUTING }, "accountNumber", "invalid_account_number"],
      [{ accountNumber: "123", routingNumber: ROUTING }, "accountNumber", "invalid_account_number"],
      [{ accountNumber: "0".repeat(10), routingNumber: ROUTING }, "accountNumber", "invalid_account_number"],
    ];
    for (const [body, field, reason] of cases) {
      const error = await post(req, "/api/plaid/verify-account", body, 400);
      assert.ok(error.fields[field], JSON.stringify(body));
      assert.equal(error.reason, reason, JSON.stringify(body));
    }
    // Rejected input is not an operation: nothing reached a provider, so nothing is audited.
    assert.equal((await fintechAudit(t)).length, 0);
  });
});

Deno.test("sandbox check-balance knows the accounts it verified and refuses any other id with 422", async () => {
  await withApp(async (_t, req) => {
    const { accountId } = await post(req, "/api/plaid/verify-account", { accountNumber: ACCOUNT, routingNumber: ROUTING }, 200);
    const balance = await post(req, "/api/plaid/check-balance", { accountId }, 200);
    assert.match(balance.available, /^\d+\.\d{2}$/);
    assert.match(balance.current, /^\d+\.\d{2}$/);
    assert.ok(Number(balance.available) <= Number(balance.current));
    assert.equal(balance.currency, "USD");
    assert.deepEqual(await post(req, "/api/plaid/check-balance", { accountId }, 200).then((b) => [b.available, b.current]), [
      balance.available,
      balance.current,
    ]);
    const forged = accountId.slice(0, -1) + (accountId.endsWith("0") ? "1" : "0");
    const unknown = await post(req, "/api/plaid/check-balance", { accountId: forged }, 422);
    assert.equal(unknown.reason, "invalid_account_id");
    assert.equal((await post(req, "/api/plaid/check-balance", { accountId: "acct_unknown" }, 422)).reason, "invalid_account_id");
    assert.ok((await post(req, "/api/plaid/check-balance", {}, 400)).fields.accountId);
    assert.ok((await post(req, "/api/plaid/check-balance", { accountId: "has spaces" }, 400)).fields.accountId);
  });
});

Deno.test("sandbox direct-transfer approves a valid Visa card and answers transferId and amount", async () => {
  await withApp(async (_t, req) => {
    const result = await post(req, "/api/visa/direct-transfer", { recipientCard: VISA_CARD, amount: "125.50" }, 200);
    assert.match(result.transferId, /^[1-9]\d{14}$/);
    assert.equal(result.amount, "125.50");
    assert.equal(result.currency, "USD");
    assert.equal(result.recipientCard, maskCardNumber(VISA_CARD));
    assert.match(result.approvalCode, /^[0-9A-Z]{6}$/);
    const yen = await post(req, "/api/visa/direct-transfer", { recipientCard: VISA_CARD, amount: 1000, currency: "JPY" }, 200);
    assert.deepEqual([yen.amount, yen.currency], ["1000.00", "JPY"]);
  });
});

Deno.test("sandbox direct-transfer never approves what Visa would refuse: Luhn, amount, currency, non-Visa card, limit", async () => {
  await withApp(async (t, req) => {
    const invalid: Array<[Record<string, unknown>, string, string | undefined]> = [
      [{ amount: "10" }, "recipientCard", undefined],
      [{ recipientCard: VISA_CARD }, "amount", undefined],
      [{ recipientCard: "4532015112830367", amount: "10" }, "recipientCard", "invalid_card_number"],
      [{ recipientCard: "4111", amount: "10" }, "recipientCard", "invalid_card_number"],
      [{ recipientCard: VISA_CARD, amount: "0" }, "amount", "money_not_positive"],
      [{ recipientCard: VISA_CARD, amount: "-10" }, "amount", "money_negative"],
      [{ recipientCard: VISA_CARD, amount: "10.001" }, "amount", "money_precision"],
      [{ recipientCard: VISA_CARD, amount: "1e3" }, "amount", "money_format"],
      [{ recipientCard: VISA_CARD, amount: "10.50", currency: "JPY" }, "amount", "money_precision"],
      [{ recipientCard: VISA_CARD, amount: "10", currency: "XYZ" }, "currency", "invalid_currency"],
    ];
    for (const [body, field, reason] of invalid) {
      const error = await post(req, "/api/visa/direct-transfer", body, 400);
      assert.ok(error.fields[field], `${JSON.stringify(body)} → ${JSON.stringify(error.fields)}`);
      assert.equal(error.reason, reason, JSON.stringify(body));
    }
    assert.equal((await post(req, "/api/visa/direct-transfer", { recipientCard: MASTERCARD, amount: "10" }, 422)).reason, "card_not_eligible");
    assert.equal(
      (await post(req, "/api/visa/direct-transfer", { recipientCard: VISA_CARD, amount: "100000.01" }, 422)).reason,
      "amount_limit_exceeded",
    );
    assert.equal((await post(req, "/api/visa/direct-transfer", { recipientCard: VISA_CARD, amount: "100000.00" }, 200)).amount, "100000.00");
    const outcomes = (await fintechAudit(t)).map((row) => JSON.parse(row.changes).outcome);
    assert.deepEqual(outcomes, ["requested", "rejected", "requested", "rejected", "requested", "succeeded"]);
  });
});

Deno.test("sandbox push-payment answers paymentId and authCode, with the default merchant label", async () => {
  await withApp(async (_t, req) => {
    const result = await post(req, "/api/visa/push-payment", { accountId: "CB-OPERATING-001", cardNumber: VISA_CARD, amount: 42 }, 200);
    assert.match(result.paymentId, /^\d{15}$/);
    assert.match(result.authCode, /^[0-9A-Z]{6}$/);
    assert.equal(result.amount, "42.00");
    assert.equal(result.cardNumber, maskCardNumber(VISA_CARD));
    assert.deepEqual(result.merchantInfo, { name: "Central Bank Payments" });
    const named = await post(req, "/api/visa/push-payment", {
      accountId: ACCOUNT,
      cardNumber: VISA_CARD,
      amount: "1.00",
      merchantInfo: { name: "Treasury Shop" },
    }, 200);
    assert.deepEqual(named.merchantInfo, { name: "Treasury Shop" });
    assert.equal(named.accountId, "****9012");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ cardNumber: VISA_CARD, amount: "1" }, "accountId"],
      [{ accountId: "A1", amount: "1" }, "cardNumber"],
      [{ accountId: "A1", cardNumber: VISA_CARD }, "amount"],
      [{ accountId: "A1", cardNumber: VISA_CARD, amount: "1", merchantInfo: "x".repeat(26) }, "merchantInfo"],
      [{ accountId: "x".repeat(35), cardNumber: VISA_CARD, amount: "1" }, "accountId"],
      [{ accountId: "A1", cardNumber: "4532015112830360", amount: "1" }, "cardNumber"],
    ];
    for (const [body, field] of cases) {
      const error = await post(req, "/api/visa/push-payment", body, 400);
      assert.ok(error.fields[field], `${JSON.stringify(body)} → ${JSON.stringify(error.fields)}`);
    }
    assert.equal((await post(req, "/api/visa/push-payment", { accountId: "A1", cardNumber: MASTERCARD, amount: "1" }, 422)).reason, "card_not_eligible");
  });
});

Deno.test("each fintech operation is audited before and after the call; full card numbers never appear in responses, audit or api_logs", async () => {
  await withApp(async (t, req) => {
    const cardNumbers = [VISA_CARD, generateCardNumber("411111", () => "123456789"), MASTERCARD];
    const bodies: string[] = [];
    const send = async (path: string, body: unknown) => {
      const res = await req("POST", path, { body });
      bodies.push(await res.text());
    };
    await send("/api/plaid/verify-account", { accountNumber: ACCOUNT, routingNumber: ROUTING });
    await send("/api/visa/direct-transfer", { recipientCard: cardNumbers[0], amount: "5" });
    await send("/api/visa/direct-transfer", { recipientCard: cardNumbers[2], amount: "5" });
    await send("/api/visa/push-payment", { accountId: ACCOUNT, cardNumber: cardNumbers[1], amount: "5" });
    await send("/api/visa/direct-transfer", { recipientCard: "4532015112830367", amount: "5" });
    const audit = await fintechAudit(t);
    assert.deepEqual(audit.map((row) => [row.action, JSON.parse(row.changes).outcome]), [
      ["plaid_verify_account", "requested"],
      ["plaid_verify_account", "succeeded"],
      ["visa_direct_transfer", "requested"],
      ["visa_direct_transfer", "succeeded"],
      ["visa_direct_transfer", "requested"],
      ["visa_direct_transfer", "rejected"],
      ["visa_push_payment", "requested"],
      ["visa_push_payment", "succeeded"],
    ]);
    assert.equal(audit[0].entityId, audit[1].entityId);
    assert.equal(JSON.parse(audit[3].changes).request.recipientCard, maskCardNumber(cardNumbers[0]));
    await t.app.requestLog.flush();
    const logs = await t.deps.db.read.all<Record<string, unknown>>(sql`SELECT * FROM api_logs`);
    assert.ok(logs.length >= bodies.length, "the requests were logged");
    const ours = [...bodies, ...audit.map((row) => row.changes)];
    const logged = logs.map((row) => JSON.stringify(row));
    for (const cardNumber of [...cardNumbers, "4532015112830367"]) {
      for (const text of [...ours, ...logged]) assert.ok(!text.includes(cardNumber), `a card number leaked: ${text.slice(0, 200)}`);
    }
    // The request log's own redaction (src/domain/redaction.ts) masks card numbers only; the bank
    // account number is kept out of everything this feature writes.
    for (const text of ours) assert.ok(!text.includes(ACCOUNT), `the account number leaked: ${text.slice(0, 200)}`);
    assert.ok(cardNumbers.every(isValidLuhn));
  });
});

// ---------------------------------------------------------------------------------------------
// Idempotency-Key: the provider is called once per key.

const keyed = (name: string) => ({ "Idempotency-Key": `${name}-${crypto.randomUUID()}` });

async function sendKeyed(req: Req, path: string, body: unknown, headers: Record<string, string>) {
  const res = await req("POST", path, { body, headers });
  return { status: res.status, text: await res.text(), replayed: res.headers.get("Idempotent-Replayed") === "true" };
}

async function outcomesOf(t: TestApp, action: string): Promise<string[]> {
  return (await fintechAudit(t)).filter((row) => row.action === action).map((row) => JSON.parse(row.changes).outcome);
}

Deno.test("a keyed direct-transfer pushes once and replays its answer; another body or a bad key is refused", async () => {
  await withApp(async (t, req) => {
    const headers = keyed("transfer");
    const first = await sendKeyed(req, "/api/visa/direct-transfer", { recipientCard: VISA_CARD, amount: "125.50" }, headers);
    assert.equal(first.status, 200);
    assert.equal(first.replayed, false);
    // "125.5" is the same amount: the same request, replayed.
    const again = await sendKeyed(req, "/api/visa/direct-transfer", { recipientCard: VISA_CARD, amount: "125.5" }, headers);
    assert.deepEqual(again, { ...first, replayed: true });
    assert.deepEqual(await outcomesOf(t, "visa_direct_transfer"), ["requested", "succeeded"]);
    const requested = JSON.parse((await fintechAudit(t))[0].changes);
    assert.equal(requested.idempotencyKey, headers["Idempotency-Key"]);

    const other = await sendKeyed(req, "/api/visa/direct-transfer", { recipientCard: VISA_CARD, amount: "125.51" }, headers);
    assert.equal(other.status, 422);
    assert.equal(JSON.parse(other.text).reason, "idempotency_mismatch");
    const payment = { accountId: "A1", cardNumber: VISA_CARD, amount: "125.50" };
    const elsewhere = await sendKeyed(req, "/api/visa/push-payment", payment, headers);
    assert.match(JSON.parse(elsewhere.text).message, /different operation/);
    const bad = await req("POST", "/api/visa/push-payment", { body: payment, headers: { "Idempotency-Key": "tab\there" } });
    assert.ok((await expectJson(bad, 400)).fields["Idempotency-Key"]);
    assert.deepEqual(await outcomesOf(t, "visa_direct_transfer"), ["requested", "succeeded"]);
    assert.deepEqual(await outcomesOf(t, "visa_push_payment"), []);
    const kept = await t.deps.db.read.all<Record<string, unknown>>(sql`SELECT * FROM idempotency_keys`);
    assert.ok(!JSON.stringify(kept).includes(VISA_CARD), "no card number is kept with its key");
  });
});

Deno.test("a keyed refusal by the network is kept: the retry replays the 422 without asking again", async () => {
  await withApp(async (t, req) => {
    const headers = keyed("payment");
    const body = { accountId: ACCOUNT, cardNumber: MASTERCARD, amount: "5" };
    const first = await sendKeyed(req, "/api/visa/push-payment", body, headers);
    assert.equal(first.status, 422);
    assert.equal(JSON.parse(first.text).reason, "card_not_eligible");
    assert.deepEqual(await sendKeyed(req, "/api/visa/push-payment", body, headers), { ...first, replayed: true });
    assert.deepEqual(await outcomesOf(t, "visa_push_payment"), ["requested", "rejected"]);
    const kept = await t.deps.db.read.all<Record<string, unknown>>(sql`SELECT * FROM idempotency_keys`);
    assert.ok(!JSON.stringify(kept).includes(ACCOUNT), "no account number is kept with its key");
  });
});

Deno.test("keyed account verification and balance check ask the provider once each and replay", async () => {
  await withApp(async (t, req) => {
    const verifyKey = keyed("verify");
    const numbers = { accountNumber: ACCOUNT, routingNumber: ROUTING };
    const verified = await sendKeyed(req, "/api/plaid/verify-account", numbers, verifyKey);
    assert.equal(verified.status, 200);
    assert.deepEqual(await sendKeyed(req, "/api/plaid/verify-account", numbers, verifyKey), { ...verified, replayed: true });
    const other = await sendKeyed(req, "/api/plaid/verify-account", { ...numbers, accountNumber: "987654321" }, verifyKey);
    assert.equal(JSON.parse(other.text).reason, "idempotency_mismatch");

    const balanceKey = keyed("balance");
    const { accountId } = JSON.parse(verified.text);
    const balance = await sendKeyed(req, "/api/plaid/check-balance", { accountId }, balanceKey);
    assert.equal(balance.status, 200);
    assert.deepEqual(await sendKeyed(req, "/api/plaid/check-balance", { accountId }, balanceKey), { ...balance, replayed: true });
    assert.deepEqual(await outcomesOf(t, "plaid_verify_account"), ["requested", "succeeded"]);
    assert.deepEqual(await outcomesOf(t, "plaid_check_balance"), ["requested", "succeeded"]);
  });
});

Deno.test("while a keyed push is with the network, every retry answers 409; afterwards the first answer; Visa is asked once", async () => {
  let release = () => {};
  const answered = new Promise<void>((resolve) => (release = resolve));
  const visa = await fakeProvider(async () => {
    await answered;
    return Response.json({ transactionIdentifier: 381228649430015, actionCode: "00", approvalCode: "ONCE01" });
  });
  try {
    await withApp(async (t, req) => {
      const headers = keyed("in-flight");
      const body = { recipientCard: VISA_CARD, amount: "10.00" };
      const first = sendKeyed(req, "/api/visa/direct-transfer", body, headers);
      while (visa.recorded.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const retries = await Promise.all(
        Array.from({ length: 4 }, () => sendKeyed(req, "/api/visa/direct-transfer", body, headers)),
      );
      for (const retry of retries) {
        assert.equal(retry.status, 409);
        assert.equal(JSON.parse(retry.text).reason, "idempotency_in_progress");
      }
      release();
      const done = await first;
      assert.equal(done.status, 200);
      assert.equal(JSON.parse(done.text).approvalCode, "ONCE01");
      assert.deepEqual(await sendKeyed(req, "/api/visa/direct-transfer", body, headers), { ...done, replayed: true });
      assert.equal(visa.recorded.length, 1);
      assert.deepEqual(await outcomesOf(t, "visa_direct_transfer"), ["requested", "succeeded"]);
    }, { ...VISA_ENV, VISA_BASE_URL: visa.url });
  } finally {
    release();
    await visa.close();
  }
});

Deno.test("a claim whose answer was never recorded answers 409, then, after the longest provider timeout, 502 outcome_unknown", async () => {
  await withApp(async (t, req) => {
    const headers = keyed("lost");
    const body = { recipientCard: VISA_CARD, amount: "20.00" };
    assert.equal((await sendKeyed(req, "/api/visa/direct-transfer", body, headers)).status, 200);
    // As if the process had stopped between the network's answer and its record.
    const claimedAgo = async (ms: number) =>
      await t.deps.db.transaction((tx) =>
        tx.run(sql`UPDATE idempotency_keys SET response_status = NULL, response_body = NULL, answered_at = NULL,
          created_at = ${new Date(Date.now() - ms).toISOString()}`)
      );
    await claimedAgo(60_000);
    assert.equal(JSON.parse((await sendKeyed(req, "/api/visa/direct-transfer", body, headers)).text).reason, "idempotency_in_progress");
    await claimedAgo(MAX_PROVIDER_TIMEOUT_MS + 61_000);
    const unknown = await sendKeyed(req, "/api/visa/direct-transfer", body, headers);
    assert.equal(unknown.status, 502);
    assert.equal(unknown.replayed, true);
    const error = JSON.parse(unknown.text);
    assert.equal(error.reason, "outcome_unknown");
    assert.match(error.message, /unknown/);
    assert.deepEqual(await sendKeyed(req, "/api/visa/direct-transfer", body, headers), unknown);
    assert.deepEqual(await outcomesOf(t, "visa_direct_transfer"), ["requested", "succeeded"]);
  });
});

// ---------------------------------------------------------------------------------------------
// Configuration

Deno.test("a partly configured provider, plain http to a remote host or Visa without a certificate stop the start", () => {
  assert.equal(plaidSettings({}), null);
  assert.equal(visaSettings({}), null);
  assert.throws(() => plaidSettings({ PLAID_BASE_URL: "https://plaid.example" }), /partly configured: also set PLAID_CLIENT_ID, PLAID_SECRET/);
  assert.throws(() => visaSettings({ VISA_USER_ID: "u", VISA_PASSWORD: "p" }), /VISA_BASE_URL/);
  assert.throws(() => plaidSettings({ ...PLAID_ENV, PLAID_BASE_URL: "http://plaid.example" }), /https/);
  assert.throws(() => plaidSettings({ ...PLAID_ENV, PLAID_BASE_URL: "not a url" }), /absolute URL/);
  assert.throws(() => plaidSettings({ ...PLAID_ENV, PLAID_BASE_URL: "https://p.example", PLAID_TIMEOUT_MS: "0" }), /PLAID_TIMEOUT_MS/);
  assert.throws(() => visaSettings({ ...VISA_ENV, VISA_BASE_URL: "https://sandbox.api.visa.com" }), /mutual TLS/);
  assert.throws(
    () => visaSettings({ ...VISA_ENV, VISA_BASE_URL: "https://sandbox.api.visa.com", VISA_CERT_FILE: "c.pem" }),
    /together/,
  );
});

Deno.test("serverPermissions() opens the live providers' host:port and certificate files, nothing when sandboxed", () => {
  const env = {
    ...PLAID_ENV,
    ...VISA_ENV,
    DATA_DIR: "/tmp/cbr-perm-test",
    PLAID_BASE_URL: "https://production.plaid.com",
    VISA_BASE_URL: "https://api.visa.com:8443/",
    VISA_CERT_FILE: "/etc/visa/client.pem",
    VISA_KEY_FILE: "/etc/visa/client.key",
  };
  assert.deepEqual(providerNetHosts(env), ["production.plaid.com:443", "api.visa.com:8443"]);
  assert.deepEqual(providerReadFiles(env), ["/etc/visa/client.pem", "/etc/visa/client.key"]);
  const permissions = serverPermissions(env);
  const net = permissions.find((flag) => flag.startsWith("--allow-net="))!;
  assert.ok(net.includes("production.plaid.com:443") && net.includes("api.visa.com:8443"), net);
  const read = permissions.find((flag) => flag.startsWith("--allow-read="))!;
  assert.ok(read.includes("/etc/visa/client.pem") && read.includes("/etc/visa/client.key"), read);
  const sandboxNet = serverPermissions({ DATA_DIR: "/tmp/cbr-perm-test" }).find((flag) => flag.startsWith("--allow-net="))!;
  assert.ok(!sandboxNet.includes("plaid") && !sandboxNet.includes("visa"), sandboxNet);
});

// ---------------------------------------------------------------------------------------------
// Real adapters against a local fake provider over HTTP

Deno.test("live Plaid adapter: sends the documented requests and maps verification and balances", async () => {
  const plaid = await fakeProvider((request) => {
    if (request.path === "/auth/get") {
      return Response.json({
        accounts: [{ account_id: "plaid-acc-1", mask: "9012", verification_status: "database_matched" }],
        numbers: { ach: [{ account_id: "plaid-acc-1", account: ACCOUNT, routing: ROUTING }] },
        request_id: "req-auth-1",
      });
    }
    return Response.json({
      accounts: [{ account_id: "plaid-acc-1", balances: { available: 1203.5, current: 1250.07, iso_currency_code: "USD" } }],
      request_id: "req-bal-1",
    });
  });
  try {
    await withApp(async (_t, req) => {
      assert.equal((await expectJson(await req("GET", "/api/fintech/status"), 200)).plaid.mode, "live");
      const verified = await post(req, "/api/plaid/verify-account", { accountNumber: ACCOUNT, routingNumber: ROUTING }, 200);
      assert.deepEqual(
        [verified.verificationMethod, verified.accountId, verified.accountMask, verified.requestId, verified.mode],
        ["database_match", "plaid-acc-1", "****9012", "req-auth-1", "live"],
      );
      const balance = await post(req, "/api/plaid/check-balance", { accountId: "plaid-acc-1" }, 200);
      assert.deepEqual([balance.available, balance.current, balance.currency], ["1203.50", "1250.07", "USD"]);
      assert.deepEqual(plaid.recorded.map((r) => r.path), ["/auth/get", "/accounts/balance/get"]);
      assert.deepEqual(plaid.recorded[0].body, {
        client_id: "client-123",
        secret: "plaid-secret-xyz",
        account_number: ACCOUNT,
        routing_number: ROUTING,
      });
      assert.deepEqual(plaid.recorded[1].body, {
        client_id: "client-123",
        secret: "plaid-secret-xyz",
        options: { account_ids: ["plaid-acc-1"] },
      });
      assert.equal(plaid.recorded[0].headers.get("content-type"), "application/json");
    }, { ...PLAID_ENV, PLAID_BASE_URL: plaid.url });
  } finally {
    await plaid.close();
  }
});

Deno.test("GET /api/fintech/status: a live provider is unverified before any call, operational once it answers, unavailable when it fails", async () => {
  let outage = false;
  const plaid = await fakeProvider(() =>
    outage
      ? Response.json({ error_type: "API_ERROR", error_code: "INTERNAL_SERVER_ERROR", error_message: "oops" }, { status: 500 })
      : Response.json({ error_type: "INVALID_INPUT", error_code: "INVALID_ACCOUNT_NUMBER", error_message: "no" }, { status: 400 })
  );
  try {
    await withApp(async (_t, req) => {
      const plaidStatus = async () => (await expectJson(await req("GET", "/api/fintech/status"), 200)).plaid;
      assert.deepEqual([(await plaidStatus()).status, (await plaidStatus()).lastCallAt], ["unverified", null]);
      const verify = (status: number) =>
        post(req, "/api/plaid/verify-account", { accountNumber: ACCOUNT, routingNumber: ROUTING }, status);
      // A refusal of the request is an answer: the provider is working.
      await verify(422);
      const answered = await plaidStatus();
      assert.equal(answered.status, "operational");
      assert.ok(Math.abs(Date.parse(answered.lastCallAt) - Date.now()) < 60_000);
      outage = true;
      await verify(502);
      assert.equal((await plaidStatus()).status, "unavailable");
      outage = false;
      await verify(422);
      assert.equal((await plaidStatus()).status, "operational", "only the latest call counts");
    }, { ...PLAID_ENV, PLAID_BASE_URL: plaid.url });
  } finally {
    await plaid.close();
  }
});

Deno.test("live Plaid adapter: provider errors become 422 or 502 with a reason, and a timeout 502 in bounded time", async () => {
  let mode = "";
  const plaid = await fakeProvider((_request, hang) => {
    switch (mode) {
      case "invalid_input":
        return Response.json({
          error_type: "INVALID_INPUT",
          error_code: "INVALID_ACCOUNT_NUMBER",
          error_message: `account ${ACCOUNT} is not valid`,
          display_message: null,
        }, { status: 400 });
      case "pending":
        return Response.json({ accounts: [{ account_id: "a1", mask: "9012", verification_status: "pending_manual_verification" }], request_id: "r" });
      case "no_accounts":
        return Response.json({ accounts: [], request_id: "r" });
      case "bad_keys":
        return Response.json({ error_type: "INVALID_INPUT", error_code: "INVALID_API_KEYS", error_message: "bad keys" }, { status: 400 });
      case "outage":
        return Response.json({ error_type: "API_ERROR", error_code: "INTERNAL_SERVER_ERROR", error_message: "oops" }, { status: 500 });
      case "html":
        return new Response("<html>bad gateway</html>", { status: 502 });
      case "garbled":
        return Response.json({ unexpected: true });
      case "three_decimals":
        return Response.json({ accounts: [{ account_id: "a1", balances: { available: 1.005, current: 2 } }], request_id: "r" });
      default:
        return hang();
    }
  });
  try {
    await withApp(async (t, req) => {
      const verify = (status: number) => post(req, "/api/plaid/verify-account", { accountNumber: ACCOUNT, routingNumber: ROUTING }, status);
      const expectations: Array<[string, number, string]> = [
        ["invalid_input", 422, "invalid_account_number"],
        ["pending", 422, "not_verified"],
        ["no_accounts", 422, "account_not_found"],
        ["bad_keys", 502, "provider_auth_failed"],
        ["outage", 502, "provider_error"],
        ["html", 502, "provider_error"],
        ["garbled", 502, "provider_bad_response"],
      ];
      for (const [scenario, status, reason] of expectations) {
        mode = scenario;
        const error = await verify(status);
        assert.equal(error.reason, reason, scenario);
        assert.equal(error.provider, "plaid");
        assert.ok(!JSON.stringify(error).includes(ACCOUNT), `${scenario} echoed the account number`);
      }
      mode = "three_decimals";
      assert.equal((await post(req, "/api/plaid/check-balance", { accountId: "a1" }, 502)).reason, "provider_bad_response");
      mode = "timeout";
      const started = performance.now();
      const error = await verify(502);
      const elapsedMs = performance.now() - started;
      assert.equal(error.reason, "provider_timeout");
      assert.ok(elapsedMs >= TEST_TIMEOUT_MS && elapsedMs < HANG_MS, `took ${elapsedMs} ms`);
      const outcomes = (await fintechAudit(t)).map((row) => JSON.parse(row.changes).outcome).filter((o) => o !== "requested");
      assert.deepEqual(outcomes, ["rejected", "rejected", "rejected", "unavailable", "unavailable", "unavailable", "unavailable", "unavailable", "unavailable"]);
      for (const row of await fintechAudit(t)) assert.ok(!row.changes.includes(ACCOUNT));
    }, { ...PLAID_ENV, PLAID_BASE_URL: plaid.url, PLAID_TIMEOUT_MS: String(TEST_TIMEOUT_MS) });
  } finally {
    await plaid.close();
  }
});

Deno.test("live Visa adapter: pushes funds with Basic auth and the documented body, and maps approvals", async () => {
  const visa = await fakeProvider(() =>
    Response.json({ transactionIdentifier: 381228649430015, actionCode: "00", approvalCode: "98765A", responseCode: "5" })
  );
  try {
    await withApp(async (_t, req) => {
      assert.equal((await expectJson(await req("GET", "/api/fintech/status"), 200)).visa.mode, "live");
      const transfer = await post(req, "/api/visa/direct-transfer", { recipientCard: VISA_CARD, amount: "124.05" }, 200);
      assert.deepEqual([transfer.transferId, transfer.amount, transfer.approvalCode, transfer.mode], ["381228649430015", "124.05", "98765A", "live"]);
      const payment = await post(req, "/api/visa/push-payment", {
        accountId: "SENDER-001",
        cardNumber: MASTERCARD,
        amount: "10",
        merchantInfo: "Treasury Shop",
      }, 200);
      assert.deepEqual([payment.paymentId, payment.authCode], ["381228649430015", "98765A"]);
      const [first, second] = visa.recorded;
      assert.equal(first.path, "/visadirect/fundstransfer/v1/pushfundstransactions");
      assert.equal(first.headers.get("authorization"), `Basic ${btoa("visa-user:visa-password")}`);
      assert.equal(first.body.recipientPrimaryAccountNumber, VISA_CARD);
      assert.equal(first.body.amount, 124.05);
      assert.equal(first.body.transactionCurrencyCode, "USD");
      assert.equal(first.body.businessApplicationId, "FD");
      assert.equal(first.body.acquiringBin, "408999");
      assert.equal(first.body.acquirerCountryCode, "840");
      assert.match(String(first.body.systemsTraceAuditNumber), /^\d{1,6}$/);
      assert.match(first.body.retrievalReferenceNumber, /^\d{12}$/);
      assert.match(first.body.localTransactionDateTime, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      assert.equal(first.body.senderAccountNumber, undefined);
      assert.equal(second.body.businessApplicationId, "MP");
      assert.equal(second.body.senderAccountNumber, "SENDER-001");
      assert.equal(second.body.cardAcceptor.name, "Treasury Shop");
      // The live network decides card eligibility itself: the sandbox's Visa-only rule is not applied.
      assert.equal(second.body.recipientPrimaryAccountNumber, MASTERCARD);
    }, { ...VISA_ENV, VISA_BASE_URL: visa.url });
  } finally {
    await visa.close();
  }
});

Deno.test("live Visa adapter: declines and errors become 422 or 502 with a reason, and a timeout 502 in bounded time", async () => {
  let mode = "";
  const visa = await fakeProvider((_request, hang) => {
    switch (mode) {
      case "declined":
        return Response.json({ transactionIdentifier: 1, actionCode: "05", approvalCode: null });
      case "invalid":
        return Response.json({
          responseStatus: { status: 400, code: "9125", severity: "ERROR", message: `Invalid PAN ${VISA_CARD}` },
        }, { status: 400 });
      case "unauthorized":
        return Response.json({ responseStatus: { status: 401, code: "9124", message: "no" } }, { status: 401 });
      case "outage":
        return new Response("Service Unavailable", { status: 503 });
      case "no_approval_code":
        return Response.json({ transactionIdentifier: 1, actionCode: "00" });
      default:
        return hang();
    }
  });
  try {
    await withApp(async (t, req) => {
      const expectations: Array<[string, number, string]> = [
        ["declined", 422, "declined_05"],
        ["invalid", 422, "visa_9125"],
        ["unauthorized", 502, "provider_auth_failed"],
        ["outage", 502, "provider_error"],
        ["no_approval_code", 502, "provider_bad_response"],
      ];
      for (const [scenario, status, reason] of expectations) {
        mode = scenario;
        const error = await post(req, "/api/visa/direct-transfer", { recipientCard: VISA_CARD, amount: "10" }, status);
        assert.equal(error.reason, reason, scenario);
        assert.equal(error.provider, "visa");
      }
      mode = "invalid";
      const invalid = await post(req, "/api/visa/direct-transfer", { recipientCard: VISA_CARD, amount: "10" }, 422);
      assert.equal(invalid.message, `Invalid PAN ${maskCardNumber(VISA_CARD)}`);
      mode = "timeout";
      const started = performance.now();
      const error = await post(req, "/api/visa/push-payment", { accountId: "A1", cardNumber: VISA_CARD, amount: "10" }, 502);
      const elapsedMs = performance.now() - started;
      assert.equal(error.reason, "provider_timeout");
      assert.ok(elapsedMs >= TEST_TIMEOUT_MS && elapsedMs < HANG_MS, `took ${elapsedMs} ms`);
      for (const row of await fintechAudit(t)) assert.ok(!row.changes.includes(VISA_CARD));
    }, { ...VISA_ENV, VISA_BASE_URL: visa.url, VISA_TIMEOUT_MS: String(TEST_TIMEOUT_MS) });
  } finally {
    await visa.close();
  }
});

// ---------------------------------------------------------------------------------------------
// Mutual TLS: Deno cannot demand a client certificate, so a Python ssl server plays Visa.

function commandAvailable(name: string, versionArg: string): boolean {
  try {
    return new Deno.Command(name, { args: [versionArg], stdout: "null", stderr: "null" }).outputSync().success;
  } catch {
    return false;
  }
}

async function openssl(dir: string, ...args: string[]) {
  const result = await new Deno.Command("openssl", { args, cwd: dir, stdout: "null", stderr: "piped" }).output();
  if (!result.success) throw new Error(`openssl ${args[0]}: ${new TextDecoder().decode(result.stderr)}`);
}

/** A CA, a server certificate for 127.0.0.1 and a client certificate, all signed by the CA. */
async function makeCertificates(dir: string) {
  await openssl(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=Test CA", "-keyout", "ca.key", "-out", "ca.pem");
  for (const [name, subject, extension] of [
    ["server", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1"],
    ["client", "/CN=central-bank-console", "extendedKeyUsage=clientAuth"],
  ]) {
    await Deno.writeTextFile(`${dir}/${name}.ext`, `${extension}\n`);
    await openssl(dir, "req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", `${name}.key`, "-out", `${name}.csr`);
    await openssl(dir, "x509", "-req", "-in", `${name}.csr`, "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "1", "-extfile", `${name}.ext`, "-out", `${name}.pem`);
  }
}

const MTLS_TOOLS = commandAvailable("openssl", "version") && commandAvailable("python3", "--version");

Deno.test({
  name: "live Visa adapter presents the client certificate: a server demanding mutual TLS approves, and refuses a client without one",
  ignore: !MTLS_TOOLS,
  // Deno.createHttpClient keeps a connection pool that outlives the test app.
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "cbr-mtls-" });
    const server = new Deno.Command("python3", {
      args: [new URL("./fixtures/fintech/mtls_visa_server.py", import.meta.url).pathname, `${dir}/server.pem`, `${dir}/server.key`, `${dir}/ca.pem`],
      stdout: "piped",
      stderr: "null",
    });
    let child: Deno.ChildProcess | null = null;
    try {
      await makeCertificates(dir);
      child = server.spawn();
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      const { value: portLine } = await reader.read();
      reader.releaseLock();
      const baseUrl = `https://127.0.0.1:${Number(portLine)}`;
      const env = { ...VISA_ENV, VISA_BASE_URL: baseUrl, VISA_CA_FILE: `${dir}/ca.pem` };
      await withApp(async (_t, req) => {
        const transfer = await post(req, "/api/visa/direct-transfer", { recipientCard: VISA_CARD, amount: "1.00" }, 200);
        assert.equal(transfer.approvalCode, "MTLS01");
      }, { ...env, VISA_CERT_FILE: `${dir}/client.pem`, VISA_KEY_FILE: `${dir}/client.key` });
      await withApp(async (_t, req) => {
        const error = await post(req, "/api/visa/direct-transfer", { recipientCard: VISA_CARD, amount: "1.00" }, 502);
        assert.equal(error.reason, "provider_unreachable");
      }, env);
    } finally {
      if (child) {
        child.kill("SIGTERM");
        await child.status;
        await child.stdout.cancel().catch(() => {});
      }
      await Deno.remove(dir, { recursive: true });
    }
  },
});
