import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { MASK } from "../../src/domain/connection_credentials.ts";
import {
  loadPartnerConfig,
  partnerConfigPath,
} from "../../src/server/features/central_bank_connections/partner_config.ts";
import { PROBE_TIMEOUT_MS } from "../../src/server/features/central_bank_connections/probe.ts";
import { serverPermissions } from "../../scripts/start.ts";
import { centralBankConnectionsDemoSeeder } from "../../src/server/features/central_bank_connections/seed.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const FIXTURES = new URL("./fixtures/connections/", import.meta.url);
/** Time the test machinery itself may add around a probe (busy CI runners). */
const TIMING_MARGIN_MS = 1_500;

interface LocalServer {
  port: number;
  origin: string;
  hits: string[];
  close(): Promise<void>;
}

function startLocalServer(
  handler: (req: Request) => Response,
  tls?: { cert: string; key: string },
): LocalServer {
  const hits: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {}, ...tls }, (req) => {
    hits.push(new URL(req.url).pathname);
    return handler(req);
  });
  const port = server.addr.port;
  return {
    port,
    origin: `${tls ? "https" : "http"}://127.0.0.1:${port}`,
    hits,
    close: () => server.shutdown(),
  };
}

function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function withApp(
  env: Record<string, string>,
  fn: (t: TestApp, req: ReturnType<TestApp["as"]>) => Promise<void>,
) {
  const t = await createTestApp(env);
  try {
    await fn(t, t.as(await t.login()));
  } finally {
    await t.close();
  }
}

function connectionBody(overrides: Record<string, unknown> = {}) {
  return {
    partnerCentralBank: "Bank of Testland",
    connectionType: "bilateral",
    partnerBankCode: "BOT-01",
    partnerSwiftCode: "BOTLGB2L",
    messageStandard: "iso20022",
    settlementCurrency: "EUR",
    dailySettlementLimit: 1250.5,
    apiEndpoint: null,
    authenticationMethod: "oauth2",
    credentialsConfig: {
      authenticationType: "oauth2",
      connectionType: "bilateral",
      messageStandard: "iso20022",
    },
    ...overrides,
  };
}

async function createConnection(req: ReturnType<TestApp["as"]>, overrides: Record<string, unknown> = {}) {
  return await expectJson(
    await req("POST", "/api/central-bank-connections", { body: connectionBody(overrides) }),
    201,
  );
}

async function runTest(req: ReturnType<TestApp["as"]>, id: string) {
  return await expectJson(await req("POST", `/api/central-bank-connections/${id}/test`), 200);
}

async function auditRows(t: TestApp, action: string) {
  return await t.deps.db.read.all<{ entity_id: string; changes: string }>(
    sql`SELECT entity_id, changes FROM audit_trail WHERE entity_type = 'central_bank_connection' AND action = ${action} ORDER BY seq`,
  );
}

Deno.test("POST /api/central-bank-connections answers 201 with the section 3 defaults; the list carries createdByUser", async () => {
  await withApp({}, async (t, req) => {
    await t.deps.db.transaction((tx) =>
      tx.run(
        sql`UPDATE users SET first_name = 'Ada', last_name = 'Okafor' WHERE email = 'admin@centralbank.test'`,
      )
    );
    const minimal = await createConnection(req, {
      connectionType: undefined,
      partnerBankCode: undefined,
      partnerSwiftCode: undefined,
      settlementCurrency: undefined,
      dailySettlementLimit: undefined,
      authenticationMethod: undefined,
      credentialsConfig: undefined,
    });
    assert.equal(minimal.connectionType, "correspondent");
    assert.equal(minimal.connectionStatus, "pending");
    assert.equal(minimal.settlementCurrency, "USD");
    assert.equal(minimal.authenticationMethod, "api_key");
    assert.equal(minimal.dailySettlementLimit, null);
    assert.equal(minimal.credentialsConfig, null);
    assert.equal(minimal.lastConnectedAt, null);
    assert.deepEqual(minimal.createdByUser, { firstName: "Ada", lastName: "Okafor", email: "admin@centralbank.test" });
    const full = await createConnection(req);
    assert.equal(full.dailySettlementLimit, "1250.50");
    assert.equal(full.partnerSwiftCode, "BOTLGB2L");
    assert.deepEqual(full.credentialsConfig, connectionBody().credentialsConfig);
    const fromString = await createConnection(req, { dailySettlementLimit: "0.07" });
    assert.equal(fromString.dailySettlementLimit, "0.07");
    const list = await expectJson(await req("GET", "/api/central-bank-connections"), 200);
    assert.deepEqual(list.map((c: { id: string }) => c.id), [fromString.id, full.id, minimal.id]);
    assert.deepEqual(list[1], full);
    assert.equal((await auditRows(t, "create")).length, 3);
  });
});

Deno.test("invalid connections answer 400 with the field and reason, and store nothing", async () => {
  await withApp({}, async (t, req) => {
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ["missing partner", { partnerCentralBank: undefined }, "partnerCentralBank", /^Required$/],
      ["blank partner", { partnerCentralBank: "  " }, "partnerCentralBank", /^Required$/],
      ["partner over 255", { partnerCentralBank: "P".repeat(256) }, "partnerCentralBank", /255/],
      ["unknown connection type", { connectionType: "direct" }, "connectionType", /bilateral/],
      ["missing message standard", { messageStandard: undefined }, "messageStandard", /iso20022/],
      ["unknown message standard", { messageStandard: "swift_mt202" }, "messageStandard", /swift_mt103/],
      [
        "unknown authentication method",
        { authenticationMethod: "basic" },
        "authenticationMethod",
        /mutual_tls/,
      ],
      ["unknown settlement currency", { settlementCurrency: "CHF" }, "settlementCurrency", /JPY/],
      ["unknown status", { connectionStatus: "broken" }, "connectionStatus", /testing/],
      [
        "limit with 3 decimals",
        { dailySettlementLimit: 1.234 },
        "dailySettlementLimit",
        /at most 2 decimals/,
      ],
      [
        "limit text with 3 decimals",
        { dailySettlementLimit: "12.345" },
        "dailySettlementLimit",
        /at most 2 decimals/,
      ],
      ["negative limit", { dailySettlementLimit: -5 }, "dailySettlementLimit", /must not be negative/],
      ["limit not a number", { dailySettlementLimit: "abc" }, "dailySettlementLimit", /digits/],
      ["limit in exponent notation", { dailySettlementLimit: "1e3" }, "dailySettlementLimit", /exponent/],
      [
        "limit beyond decimal(15,2)",
        { dailySettlementLimit: "99999999999999" },
        "dailySettlementLimit",
        /13 digits/,
      ],
      ["credentials as text", { credentialsConfig: '{"apiKey":"x"}' }, "credentialsConfig", /object|record/i],
      ["credentials as an array", { credentialsConfig: [1] }, "credentialsConfig", /object|record/i],
      [
        "credentials over 16 KiB",
        { credentialsConfig: { notes: "x".repeat(17_000) } },
        "credentialsConfig",
        /16384 bytes/,
      ],
      [
        "endpoint with another scheme",
        { apiEndpoint: "ftp://files.partner.example/" },
        "apiEndpoint",
        /Only http and https/,
      ],
      ["endpoint not a URL", { apiEndpoint: "partner endpoint" }, "apiEndpoint", /absolute URL/],
      [
        "endpoint with a password",
        { apiEndpoint: "https://user:pw@api.partner.example/" },
        "apiEndpoint",
        /user name or password/,
      ],
      [
        "endpoint over 500",
        { apiEndpoint: `https://api.partner.example/${"p".repeat(500)}` },
        "apiEndpoint",
        /500/,
      ],
      [
        "partner BIC of 3 characters",
        { partnerSwiftCode: "ABC" },
        "partnerSwiftCode",
        /BIC must be 8 or 11 characters, got 3/,
      ],
      ["partner bank code over 20", { partnerBankCode: "B".repeat(21) }, "partnerBankCode", /20/],
    ];
    const failures: string[] = [];
    for (const [name, overrides, field, message] of cases) {
      const res = await req("POST", "/api/central-bank-connections", { body: connectionBody(overrides) });
      const text = await res.text();
      const error = JSON.parse(text);
      if (res.status !== 400 || error.code !== "validation" || !message.test(error.fields?.[field] ?? "")) {
        failures.push(`${name}: ${res.status} ${text}`);
      }
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(await expectJson(await req("GET", "/api/central-bank-connections"), 200), []);
    assert.equal((await auditRows(t, "create")).length, 0);
  });
});

Deno.test("credentials nested too deep answer 400, even thousands of levels deep", async () => {
  await withApp({}, async (_t, req) => {
    const shallow = await req("POST", "/api/central-bank-connections", {
      body: connectionBody({
        credentialsConfig: { a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } },
      }),
    });
    assert.match((await expectJson(shallow, 400)).fields.credentialsConfig, /at most 8 levels deep/);
    const depth = 20_000;
    const text = JSON.stringify(connectionBody({ credentialsConfig: "DEEP" }))
      .replace('"DEEP"', '{"a":'.repeat(depth) + "1" + "}".repeat(depth));
    const deep = await req("POST", "/api/central-bank-connections", {
      body: text,
      headers: { "content-type": "application/json" },
    });
    assert.match((await expectJson(deep, 400)).fields.credentialsConfig, /at most 8 levels deep/);
  });
});

Deno.test("credentials are encrypted at rest and no response or audit row ever contains a secret value", async () => {
  const server = startLocalServer(() => new Response("ok"));
  try {
    await withApp({ CONNECTION_TEST_ALLOWED_HOSTS: `127.0.0.1:${server.port}` }, async (t, req) => {
      const secrets = {
        apiKey: "sk_live_7Rq2ZPxW4mN9vB3kT6yH",
        clientSecret: "cs-0a9f8e7d6c5b4a39",
        password: "hunter2",
        pin: 4821,
        signing: { privateKey: "-----BEGIN PRIVATE KEY-----MIGHAgEAMBMGByqGSM49" },
        refreshTokens: ["rt-first-5be1c2d3e4f5", "rt-second-a1b2c3d4e5f6"],
      };
      const credentials = { authenticationType: "api_key", institutionIdentifier: "BOT-INST-77", ...secrets };
      const secretValues = [
        secrets.apiKey,
        secrets.clientSecret,
        secrets.password,
        String(secrets.pin),
        secrets.signing.privateKey,
        ...secrets.refreshTokens,
      ];
      const texts: string[] = [];
      const record = async (res: Response, status: number) => {
        const text = await res.text();
        assert.equal(res.status, status, text);
        texts.push(text);
        return JSON.parse(text);
      };
      const created = await record(
        await req("POST", "/api/central-bank-connections", {
          body: connectionBody({ apiEndpoint: `${server.origin}/health`, credentialsConfig: credentials }),
        }),
        201,
      );
      await record(await req("POST", `/api/central-bank-connections/${created.id}/test`), 200);
      const list = await record(await req("GET", "/api/central-bank-connections"), 200);
      await record(await req("GET", "/api/establish-loc-connection/config"), 200);

      // Generated identifiers (random UUIDs, the probe server's ephemeral port) are masked before the
      // search: a short secret such as the PIN turns up inside one by chance in a few runs out of a
      // hundred, and no secret can leak through a value the server generated itself.
      const withoutGeneratedIds = (text: string) =>
        text.replaceAll(server.origin, "<probe server>").replace(
          /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi,
          "<uuid>",
        );
      for (const text of texts.map(withoutGeneratedIds)) {
        for (const secret of secretValues) assert(!text.includes(secret), `a response contains ${secret}`);
      }
      const audit = await t.deps.db.read.all<{ changes: string }>(sql`SELECT changes FROM audit_trail`);
      for (const { changes } of audit) {
        const text = withoutGeneratedIds(changes ?? "");
        for (const secret of secretValues) assert(!text.includes(secret), `an audit row contains ${secret}`);
      }

      assert.deepEqual(list[0].credentialsConfig, {
        authenticationType: "api_key",
        institutionIdentifier: "BOT-INST-77",
        apiKey: `${MASK}yH`,
        clientSecret: `${MASK}39`,
        password: MASK,
        pin: MASK,
        signing: { privateKey: `${MASK}49` },
        refreshTokens: [`${MASK}f5`, `${MASK}f6`],
      });

      const [stored] = await t.deps.db.read.all<{ credentials_config_encrypted: string }>(
        sql`SELECT credentials_config_encrypted FROM central_bank_connections WHERE id = ${created.id}`,
      );
      for (const secret of secretValues) assert(!stored.credentials_config_encrypted.includes(secret));
      assert.match(
        stored.credentials_config_encrypted,
        /^[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+$/,
        "compact JWE, direct key",
      );
      assert.deepEqual(
        JSON.parse(await t.deps.secrets.decrypt(stored.credentials_config_encrypted)),
        credentials,
      );
    });
  } finally {
    await server.close();
  }
});

Deno.test("a test against a local HTTP server reports success with a latency, records lastConnectedAt and activates the connection", async () => {
  const server = startLocalServer(() => new Response("pong"));
  try {
    await withApp({ CONNECTION_TEST_ALLOWED_HOSTS: `127.0.0.1:${server.port}` }, async (t, req) => {
      const connection = await createConnection(req, {
        apiEndpoint: `${server.origin}/iso20022/ping?probe=1`,
      });
      const result = await runTest(req, connection.id);
      assert.deepEqual(Object.keys(result).sort(), ["latency", "message", "success"]);
      assert.equal(result.success, true);
      assert.match(result.message, /reachable \(plain HTTP, not encrypted\): HTTP 200 OK/);
      assert(Number.isInteger(result.latency) && result.latency >= 0 && result.latency < PROBE_TIMEOUT_MS);
      assert.deepEqual(server.hits, ["/iso20022/ping"]);
      const [after] = await expectJson(await req("GET", "/api/central-bank-connections"), 200);
      assert.equal(after.connectionStatus, "active");
      assert.match(after.lastConnectedAt, /^\d{4}-\d{2}-\d{2}T/);
      const audit = await auditRows(t, "test");
      assert.equal(audit.length, 1);
      const changes = JSON.parse(audit[0].changes);
      assert.equal(changes.result.success, true);
      assert.equal(changes.result.latencyMs, result.latency);
      assert.deepEqual(changes.after, { connectionStatus: "active", lastConnectedAt: after.lastConnectedAt });
    });
  } finally {
    await server.close();
  }
});

Deno.test("a successful test leaves a suspended connection suspended; a failed test changes nothing but is audited", async () => {
  const server = startLocalServer((req) =>
    new Response("down", { status: new URL(req.url).pathname === "/down" ? 503 : 200 })
  );
  try {
    await withApp({ CONNECTION_TEST_ALLOWED_HOSTS: `127.0.0.1:${server.port}` }, async (t, req) => {
      const suspended = await createConnection(req, {
        apiEndpoint: `${server.origin}/`,
        connectionStatus: "suspended",
      });
      assert.equal((await runTest(req, suspended.id)).success, true);
      const failing = await createConnection(req, { apiEndpoint: `${server.origin}/down` });
      const failed = await runTest(req, failing.id);
      assert.equal(failed.success, false);
      assert.match(failed.message, /Endpoint answered HTTP 503 Service Unavailable/);
      const list = await expectJson(await req("GET", "/api/central-bank-connections"), 200);
      const byId = new Map(list.map((c: { id: string }) => [c.id, c]));
      assert.equal((byId.get(suspended.id) as { connectionStatus: string }).connectionStatus, "suspended");
      assert.equal((byId.get(failing.id) as { connectionStatus: string }).connectionStatus, "pending");
      assert.equal((byId.get(failing.id) as { lastConnectedAt: string | null }).lastConnectedAt, null);
      assert.equal((await auditRows(t, "test")).length, 2);
    });
  } finally {
    await server.close();
  }
});

Deno.test("status answers: 401 counts as reachable, 404 is a failure naming the path", async () => {
  const server = startLocalServer((req) =>
    new URL(req.url).pathname === "/missing"
      ? new Response("", { status: 404 })
      : new Response("", { status: 401 })
  );
  try {
    await withApp({ CONNECTION_TEST_ALLOWED_HOSTS: `127.0.0.1:${server.port}` }, async (_t, req) => {
      const guarded = await createConnection(req, { apiEndpoint: `${server.origin}/api` });
      const reachable = await runTest(req, guarded.id);
      assert.equal(reachable.success, true);
      assert.match(reachable.message, /HTTP 401 Unauthorized/);
      const missing = await createConnection(req, { apiEndpoint: `${server.origin}/missing` });
      const failed = await runTest(req, missing.id);
      assert.equal(failed.success, false);
      assert.match(failed.message, /HTTP 404 Not Found: the configured path does not exist/);
    });
  } finally {
    await server.close();
  }
});

Deno.test("a connection without an endpoint tests as success false with a message saying so, audited", async () => {
  await withApp({}, async (t, req) => {
    const connection = await createConnection(req, { apiEndpoint: undefined });
    const result = await runTest(req, connection.id);
    assert.deepEqual(result, {
      success: false,
      message: "No API endpoint is configured for this connection",
      latency: 0,
    });
    assert.equal((await auditRows(t, "test")).length, 1);
  });
});

Deno.test("testing an unknown connection answers 404, a malformed id 400", async () => {
  await withApp({}, async (_t, req) => {
    const missing = await req("POST", `/api/central-bank-connections/${crypto.randomUUID()}/test`);
    assert.equal((await expectJson(missing, 404)).message, "Central bank connection not found");
    await expectJson(await req("POST", "/api/central-bank-connections/not-a-uuid/test"), 400);
  });
});

Deno.test("the SSRF guard refuses loopback, private and link-local targets without the allow-list and never connects", async () => {
  const server = startLocalServer(() => new Response("internal"));
  try {
    await withApp({}, async (_t, req) => {
      const targets: [string, RegExp][] = [
        [`${server.origin}/`, /127\.0\.0\.1 is a loopback address/],
        [`http://localhost:${server.port}/`, /localhost resolves to (127\.0\.0\.1|::1), a loopback address/],
        [`http://[::1]:${server.port}/`, /::1 is a loopback address/],
        [`http://[::ffff:127.0.0.1]:${server.port}/`, /::ffff:7f00:1 is a loopback address/],
        [`http://2130706433:${server.port}/`, /127\.0\.0\.1 is a loopback address/],
        ["http://10.20.30.40/", /10\.20\.30\.40 is a private address/],
        ["http://192.168.1.10:8443/", /192\.168\.1\.10 is a private address/],
        ["http://172.16.5.4/", /172\.16\.5\.4 is a private address/],
        ["http://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 is a link-local address/],
        ["http://[fd00::1]/", /fd00::1 is a private address/],
        ["http://[fe80::1]/", /fe80::1 is a link-local address/],
        ["http://0.0.0.0:80/", /0\.0\.0\.0 is a unspecified address/],
      ];
      for (const [endpoint, reason] of targets) {
        const connection = await createConnection(req, { apiEndpoint: endpoint });
        const result = await runTest(req, connection.id);
        assert.equal(result.success, false, endpoint);
        assert.match(result.message, /^Refused: /, endpoint);
        assert.match(result.message, reason, endpoint);
        assert.match(result.message, /CONNECTION_TEST_ALLOWED_HOSTS/, endpoint);
      }
      assert.deepEqual(server.hits, []);
    });
  } finally {
    await server.close();
  }
});

Deno.test("the allow-list admits a host:port entry only on that port, and a bare host on any port", async () => {
  const first = startLocalServer(() => new Response("a"));
  const second = startLocalServer(() => new Response("b"));
  try {
    await withApp(
      { CONNECTION_TEST_ALLOWED_HOSTS: ` localhost , 127.0.0.1:${first.port}` },
      async (_t, req) => {
        const exact = await createConnection(req, { apiEndpoint: `${first.origin}/` });
        assert.equal((await runTest(req, exact.id)).success, true);
        const otherPort = await createConnection(req, { apiEndpoint: `${second.origin}/` });
        assert.match(
          (await runTest(req, otherPort.id)).message,
          /^Refused: 127\.0\.0\.1 is a loopback address/,
        );
        const byName = await createConnection(req, { apiEndpoint: `http://localhost:${second.port}/` });
        assert.equal((await runTest(req, byName.id)).success, true);
        assert.deepEqual(first.hits, ["/"]);
        assert.deepEqual(second.hits, ["/"]);
      },
    );
  } finally {
    await first.close();
    await second.close();
  }
});

Deno.test("a redirect to another host is not followed; a same-origin redirect is", async () => {
  const other = startLocalServer(() => new Response("other host"));
  const server = startLocalServer((req) => {
    const path = new URL(req.url).pathname;
    if (path === "/away") return Response.redirect(`${other.origin}/steal`, 302);
    if (path === "/old") return new Response(null, { status: 301, headers: { location: "/new" } });
    return new Response("new home");
  });
  try {
    const allowed = `127.0.0.1:${server.port},127.0.0.1:${other.port}`;
    await withApp({ CONNECTION_TEST_ALLOWED_HOSTS: allowed }, async (_t, req) => {
      const away = await createConnection(req, { apiEndpoint: `${server.origin}/away` });
      const result = await runTest(req, away.id);
      assert.equal(result.success, false);
      assert.equal(
        result.message,
        `Endpoint redirects to ${other.origin}; redirects to another host are not followed`,
      );
      assert.deepEqual(other.hits, []);
      const moved = await createConnection(req, { apiEndpoint: `${server.origin}/old` });
      const followed = await runTest(req, moved.id);
      assert.equal(followed.success, true);
      assert.deepEqual(server.hits, ["/away", "/old", "/new"]);
    });
  } finally {
    await server.close();
    await other.close();
  }
});

Deno.test("a test against a closed port reports failure well within the timeout", async () => {
  const port = closedPort();
  await withApp({ CONNECTION_TEST_ALLOWED_HOSTS: `127.0.0.1:${port}` }, async (_t, req) => {
    const connection = await createConnection(req, { apiEndpoint: `http://127.0.0.1:${port}/` });
    const startedAt = performance.now();
    const result = await runTest(req, connection.id);
    const elapsedMs = performance.now() - startedAt;
    assert.equal(result.success, false);
    assert.equal(result.message, `Connection refused by 127.0.0.1:${port}`);
    assert(elapsedMs < PROBE_TIMEOUT_MS, `took ${elapsedMs} ms`);
  });
});

Deno.test("an endpoint that accepts but never answers fails after the 5-second timeout", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const accepted: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) accepted.push(conn);
  })().catch(() => {});
  try {
    await withApp({ CONNECTION_TEST_ALLOWED_HOSTS: `127.0.0.1:${port}` }, async (_t, req) => {
      const connection = await createConnection(req, { apiEndpoint: `http://127.0.0.1:${port}/` });
      const startedAt = performance.now();
      const result = await runTest(req, connection.id);
      const elapsedMs = performance.now() - startedAt;
      assert.equal(result.success, false);
      assert.equal(result.message, `No response from 127.0.0.1:${port} within ${PROBE_TIMEOUT_MS} ms`);
      assert(
        elapsedMs >= PROBE_TIMEOUT_MS - 50 && elapsedMs < PROBE_TIMEOUT_MS + TIMING_MARGIN_MS,
        `took ${elapsedMs} ms`,
      );
      assert(result.latency >= PROBE_TIMEOUT_MS - 50);
    });
  } finally {
    listener.close();
    for (const conn of accepted) conn.close();
    await accepting;
  }
});

Deno.test("an https endpoint with an untrusted certificate fails TLS verification", async () => {
  const server = startLocalServer(() => new Response("tls"), {
    cert: await Deno.readTextFile(new URL("untrusted_tls_cert.pem", FIXTURES)),
    key: await Deno.readTextFile(new URL("untrusted_tls_key.pem", FIXTURES)),
  });
  try {
    await withApp({ CONNECTION_TEST_ALLOWED_HOSTS: "localhost" }, async (_t, req) => {
      const connection = await createConnection(req, { apiEndpoint: `https://localhost:${server.port}/` });
      const result = await runTest(req, connection.id);
      assert.equal(result.success, false);
      assert.match(result.message, /^TLS verification failed for localhost: .*(UnknownIssuer|certificate)/);
      assert.deepEqual(server.hits, []);
    });
  } finally {
    await server.close();
  }
});

Deno.test("POST /api/establish-loc-connection creates the configured partner once; a second call answers 409", async () => {
  await withApp({}, async (t, req) => {
    const config = await expectJson(await req("GET", "/api/establish-loc-connection/config"), 200);
    assert.equal(config.associationName, "Loc Community Association");
    const connection = await expectJson(
      await req("POST", "/api/establish-loc-connection", { body: {} }),
      201,
    );
    assert(connection.partnerCentralBank.includes(config.associationName));
    assert.equal(connection.partnerBankCode, config.partnerBankCode);
    assert.equal(connection.partnerSwiftCode, config.partnerSwiftCode);
    assert.equal(connection.messageStandard, config.messageStandard);
    assert.equal(connection.settlementCurrency, config.settlementCurrency);
    assert.equal(connection.apiEndpoint, config.apiEndpoint);
    assert.equal(connection.authenticationMethod, config.authenticationMethod);
    assert.equal(connection.connectionStatus, "pending");
    const credentials = connection.credentialsConfig;
    for (
      const key of [
        "associationIdentifier",
        "documentationUrl",
        "institutionType",
        "complianceFramework",
        "operationalStatus",
      ]
    ) {
      assert.equal(typeof credentials[key], "string", key);
    }
    assert.equal(credentials.institutionType, "community_association");
    assert.match(credentials.connectionTimestamp, /^\d{4}-\d{2}-\d{2}T/);
    const again = await expectJson(await req("POST", "/api/establish-loc-connection"), 409);
    assert.equal(again.field, "partnerCentralBank");
    assert.equal(again.message, "A connection to Loc Community Association already exists");
    assert.equal((await expectJson(await req("GET", "/api/central-bank-connections"), 200)).length, 1);
    assert.equal((await auditRows(t, "establish")).length, 1);
    await expectJson(
      await req("POST", "/api/establish-loc-connection", { body: { partnerCentralBank: "Other" } }),
      400,
    );
  });
});

Deno.test("a connection whose partner name already contains the association's name blocks the establish call", async () => {
  await withApp({}, async (_t, req) => {
    await createConnection(req, { partnerCentralBank: "LOC COMMUNITY ASSOCIATION (manual link)" });
    await expectJson(await req("POST", "/api/establish-loc-connection"), 409);
  });
});

Deno.test("PARTNER_CONNECTION_FILE replaces the partner configuration; an inconsistent file is refused at start-up", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cbr-partner-" });
  try {
    const path = `${dir}/partner.json`;
    const base = JSON.parse(
      await Deno.readTextFile(new URL("../../config/partner_connection.json", import.meta.url)),
    );
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        ...base,
        associationName: "Riverside Credit Association",
        partnerCentralBank: undefined,
      }),
    );
    await withApp({ PARTNER_CONNECTION_FILE: path }, async (_t, req) => {
      const config = await expectJson(await req("GET", "/api/establish-loc-connection/config"), 200);
      assert.equal(config.associationName, "Riverside Credit Association");
      const connection = await expectJson(await req("POST", "/api/establish-loc-connection"), 201);
      assert.equal(connection.partnerCentralBank, "Riverside Credit Association");
    });
    await Deno.writeTextFile(path, JSON.stringify({ ...base, partnerCentralBank: "Somebody Else" }));
    assert.throws(
      () => loadPartnerConfig(partnerConfigPath({ PARTNER_CONNECTION_FILE: path })),
      /partnerCentralBank: Must contain associationName/,
    );
    await Deno.writeTextFile(path, JSON.stringify({ ...base, apiEndpoint: "gopher://x" }));
    assert.throws(
      () => loadPartnerConfig(partnerConfigPath({ PARTNER_CONNECTION_FILE: path })),
      /apiEndpoint: Only http and https/,
    );
    assert.throws(() => loadPartnerConfig(partnerConfigPath({ PARTNER_CONNECTION_FILE: `${dir}/missing.json` })), /cannot read/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every connection endpoint answers 401 without a session", async () => {
  const t = await createTestApp();
  try {
    const calls: [string, string][] = [
      ["GET", "/api/central-bank-connections"],
      ["POST", "/api/central-bank-connections"],
      ["POST", `/api/central-bank-connections/${crypto.randomUUID()}/test`],
      ["GET", "/api/establish-loc-connection/config"],
      ["POST", "/api/establish-loc-connection"],
    ];
    for (const [method, path] of calls) {
      const res = await t.request(method, path, method === "POST" ? { body: {} } : {});
      assert.equal(res.status, 401, `${method} ${path}`);
      await res.body?.cancel();
    }
  } finally {
    await t.close();
  }
});

Deno.test("serverPermissions() grants the allow-listed hosts, and outbound access to any host only with CONNECTION_TEST_ANY_HOST=1", () => {
  const base = { DATA_DIR: "/tmp/cbr-permissions", HOST: "127.0.0.1", PORT: "5000" };
  const narrow = serverPermissions({
    ...base,
    CONNECTION_TEST_ALLOWED_HOSTS: "partner.example:8443, 10.0.0.7",
  });
  const net = narrow.find((flag) => flag.startsWith("--allow-net"));
  assert.equal(net, "--allow-net=127.0.0.1:5000,partner.example:8443,10.0.0.7");
  const open = serverPermissions({ ...base, CONNECTION_TEST_ANY_HOST: "1" });
  assert(open.includes("--allow-net"));
  assert(!open.includes("--allow-all") && !open.includes("-A"));
});

Deno.test("the demo seed adds its connections once, credentials encrypted and masked, without the partner", async () => {
  await withApp({ SEED_DEMO: "1" }, async (t, req) => {
    await centralBankConnectionsDemoSeeder(t.deps, () => {}, () => {});
    const list = await expectJson(await req("GET", "/api/central-bank-connections"), 200);
    assert.equal(list.length, 2);
    const northland = list.find((c: { partnerCentralBank: string }) =>
      c.partnerCentralBank === "Reserve Bank of Northland"
    );
    assert.equal(northland.dailySettlementLimit, "500000000.00");
    assert.equal(northland.credentialsConfig.clientSecret, `${MASK}et`);
    assert(
      !list.some((c: { partnerCentralBank: string }) =>
        c.partnerCentralBank.includes("Loc Community Association")
      ),
    );
    assert.equal((await auditRows(t, "create")).length, 2);
  });
});

Deno.test("credentials are masked deny-by-default: secrets under any name stay hidden in the list, the audit rows and the audit-trail reports (issue 22)", async () => {
  await withApp({}, async (t, req) => {
    const secrets = {
      hmac: "hmac-0123456789abcdef",
      auth: "Basic dXNlcjpwYXNzd29yZA==",
      pass: "correct-horse-battery",
      cvv: "737",
      note: "corporate card 4111 1111 1111 1111",
    };
    const created = await createConnection(req, {
      credentialsConfig: { authenticationType: "api_key", keyId: "key-2026-01", ...secrets },
    });
    const list = await expectJson(await req("GET", "/api/central-bank-connections"), 200);
    const shown = list.find((c: { id: string }) => c.id === created.id).credentialsConfig;
    assert.equal(shown.authenticationType, "api_key");
    assert.equal(shown.keyId, "key-2026-01");
    for (const name of Object.keys(secrets)) assert.match(shown[name], /^••••/, name);

    const today = new Date().toISOString().slice(0, 10);
    const texts = [JSON.stringify(list), JSON.stringify(created)];
    for (const format of ["csv", "xml"]) {
      const res = await req("POST", "/api/reports", { body: { type: "audit-trail", format, from: today, to: today } });
      assert.equal(res.status, 200);
      texts.push(await res.text());
    }
    const audit = await t.deps.db.read.all<{ changes: string | null }>(sql`SELECT changes FROM audit_trail`);
    texts.push(...audit.map((row) => row.changes ?? ""));
    const values = [secrets.hmac, secrets.auth, secrets.pass, "4111 1111 1111 1111", "4111111111111111"];
    for (const text of texts) {
      for (const value of values) assert(!text.includes(value), `${value} leaked: ${text.slice(0, 200)}`);
    }
  });
});

Deno.test("a card number in an audited change is masked when the audit row is written", async () => {
  await withApp({}, async (t, req) => {
    const created = await createConnection(req, { partnerCentralBank: "Bank 4532015112830366" });
    const [row] = await t.deps.db.read.all<{ changes: string }>(
      sql`SELECT changes FROM audit_trail WHERE entity_id = ${created.id}`,
    );
    assert(!row.changes.includes("4532015112830366"));
    assert(row.changes.includes("Bank 453201******0366"));
  });
});
