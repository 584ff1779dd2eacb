import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { apiLogs, routingCodes, SYSTEM_USER_ID } from "../../db/schema.ts";
import { formatRoutingCode } from "../../src/domain/routing_code.ts";
import { recordTestResult } from "../../src/server/features/central_bank_connections/service.ts";
import { startOfUtcDay, startOfUtcMonth, systemAlerts } from "../../src/server/features/dashboard/service.ts";
import { CONNECTION_TEST_FRESHNESS_MS, utcMinute } from "../../src/domain/dashboard.ts";
import { insertInstitution } from "../../src/server/features/institutions/service.ts";
import { approvePending, seededStaff } from "../helpers/staff.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const ACTOR = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null };
const MS_PER_DAY = 86_400_000;

async function withApp(fn: (t: TestApp, req: ReturnType<TestApp["as"]>) => Promise<void>) {
  const t = await createTestApp();
  try {
    await fn(t, t.as(await t.login()));
  } finally {
    await t.close();
  }
}

let serial = 0;
async function addInstitution(t: TestApp, createdAt: string, swiftParticipant = false) {
  serial += 1;
  return await t.deps.db.transaction((tx) =>
    insertInstitution(tx, ACTOR, {
      name: `Dashboard Bank ${serial}`,
      type: serial % 2 === 0 ? "savings" : "credit_union",
      registrationNumber: `DB-${serial}`,
      licenseNumber: null,
      address: "1 Main Street",
      phoneNumber: "+1 202 555 0100",
      emailAddress: `bank${serial}@dashboard.example`,
      numberOfBranches: serial,
      swiftParticipant,
      swiftMembershipType: swiftParticipant ? "full" : null,
    }, { createdAt })
  );
}

Deno.test("startOfUtcMonth() and startOfUtcDay() cut at midnight UTC, across a year boundary too", () => {
  const newYear = new Date("2026-01-01T00:30:00.000Z");
  assert.equal(startOfUtcMonth(newYear), "2026-01-01T00:00:00.000Z");
  assert.equal(startOfUtcDay(newYear), "2026-01-01T00:00:00.000Z");
  const late = new Date("2025-12-31T23:59:59.999Z");
  assert.equal(startOfUtcMonth(late), "2025-12-01T00:00:00.000Z");
  assert.equal(startOfUtcDay(late), "2025-12-31T00:00:00.000Z");
});

Deno.test("GET /api/dashboard/stats answers zeros on an empty registry", async () => {
  await withApp(async (_t, req) => {
    assert.deepEqual(await expectJson(await req("GET", "/api/dashboard/stats"), 200), {
      totalInstitutions: 0,
      monthlyInstitutionGrowth: 0,
      activeRoutingCodes: 0,
      monthlyRoutingCodeGrowth: 0,
      swiftParticipants: 0,
      todayApiRequests: 0,
    });
  });
});

Deno.test("GET /api/dashboard/stats counts from data: this month (UTC), active codes, SWIFT participants, today's API calls", async () => {
  await withApp(async (t, req) => {
    const now = new Date();
    const monthStart = Date.parse(startOfUtcMonth(now));
    const dayStart = Date.parse(startOfUtcDay(now));
    const thisMonth = new Date(monthStart + 1000).toISOString();
    const lastMonth = new Date(monthStart - 1000).toISOString();
    const yesterday = new Date(dayStart - 1000).toISOString();

    const a = await addInstitution(t, lastMonth, true);
    await addInstitution(t, lastMonth);
    await addInstitution(t, thisMonth, true);
    await addInstitution(t, now.toISOString(), true);
    await addInstitution(t, now.toISOString());

    await t.deps.db.transaction(async (tx) => {
      const codes: [number, "active" | "inactive" | "suspended", string][] = [
        [1, "active", lastMonth],
        [2, "active", thisMonth],
        [3, "active", now.toISOString()],
        [4, "inactive", thisMonth],
        [5, "suspended", lastMonth],
      ];
      for (const [n, status, createdAt] of codes) {
        await tx.insert(routingCodes).values({
          id: crypto.randomUUID(),
          institutionId: a.id,
          code: formatRoutingCode("DSH", n),
          prefix: "DSH",
          status,
          createdAt,
        });
      }
      for (const createdAt of [yesterday, now.toISOString(), now.toISOString()]) {
        await tx.insert(apiLogs).values({
          id: crypto.randomUUID(),
          endpoint: "/api/institutions",
          method: "GET",
          responseStatus: 200,
          createdAt,
        });
      }
    });

    assert.deepEqual(await expectJson(await req("GET", "/api/dashboard/stats"), 200), {
      totalInstitutions: 5,
      monthlyInstitutionGrowth: 3,
      activeRoutingCodes: 3,
      monthlyRoutingCodeGrowth: 3,
      swiftParticipants: 3,
      todayApiRequests: 2,
    });
  });
});

Deno.test("registering through the API moves the stats and the recent registrations at once", async () => {
  await withApp(async (t) => {
    const req = await t.desk();
    const created = await expectJson(
      await req("POST", "/api/institutions", {
        body: {
          name: "Fresh Savings Bank",
          type: "savings",
          registrationNumber: "FRESH-1",
          address: "2 New Street",
          phoneNumber: "+1 202 555 0199",
          emailAddress: "hello@fresh.example",
          swiftParticipant: true,
          swiftMembershipType: "correspondent",
        },
      }),
      201,
    );
    const stats = await expectJson(await req("GET", "/api/dashboard/stats"), 200);
    assert.equal(stats.totalInstitutions, 1);
    assert.equal(stats.monthlyInstitutionGrowth, 1);
    assert.equal(stats.swiftParticipants, 1);
    const recent = await expectJson(await req("GET", "/api/dashboard/recent-registrations"), 200);
    assert.deepEqual(recent, [{
      id: created.id,
      name: "Fresh Savings Bank",
      type: "savings",
      registrationNumber: "FRESH-1",
      status: "pending",
      numberOfBranches: 1,
      createdAt: created.createdAt,
    }]);
  });
});

Deno.test("GET /api/dashboard/recent-registrations answers the 5 newest with the spec's fields, newest first", async () => {
  await withApp(async (t, req) => {
    const base = Date.now() - 30 * MS_PER_DAY;
    const created = [];
    for (let i = 0; i < 8; i++) {
      created.push(await addInstitution(t, new Date(base + i * MS_PER_DAY).toISOString()));
    }
    const recent = await expectJson(await req("GET", "/api/dashboard/recent-registrations"), 200);
    assert.deepEqual(recent.map((r: { id: string }) => r.id), created.slice(3).reverse().map((i) => i.id));
    assert.deepEqual(Object.keys(recent[0]).sort(), [
      "createdAt",
      "id",
      "name",
      "numberOfBranches",
      "registrationNumber",
      "status",
      "type",
    ]);
  });
});

async function addApiLog(t: TestApp, createdAt: string, responseStatus = 200) {
  await t.deps.db.transaction((tx) =>
    tx.insert(apiLogs).values({
      id: crypto.randomUUID(),
      endpoint: "/api/institutions",
      method: "GET",
      responseStatus,
      createdAt,
    })
  );
}

async function alertTitles(req: ReturnType<TestApp["as"]>): Promise<string[]> {
  const body = await expectJson(await req("GET", "/api/dashboard/alerts"), 200);
  return body.alerts.map((alert: { title: string }) => alert.title);
}

Deno.test("GET /api/dashboard/alerts: nothing pending is no approval alert, and no active connection is not operational", async () => {
  await withApp(async (_t, req) => {
    assert.deepEqual(await alertTitles(req), ["No active connections"]);
  });
});

async function addConnection(
  req: ReturnType<TestApp["as"]>,
  partnerCentralBank: string,
  connectionStatus = "active",
): Promise<{ id: string }> {
  return await expectJson(
    await req("POST", "/api/central-bank-connections", {
      body: {
        partnerCentralBank,
        connectionType: "bilateral",
        connectionStatus,
        messageStandard: "iso20022",
        settlementCurrency: "EUR",
        apiEndpoint: null,
        authenticationMethod: "oauth2",
        credentialsConfig: { authenticationType: "oauth2" },
      },
    }),
    201,
  );
}

const testOutcome = (success: boolean) => ({ success, message: "probe", latencyMs: 5, statusCode: null });

Deno.test("GET /api/dashboard/alerts: active connections never tested are named, not called operational", async () => {
  await withApp(async (t, req) => {
    await addConnection(req, "Bank of Xland");
    await addConnection(req, "Bank of Yland");
    await addConnection(req, "Bank of Pendingland", "pending");
    assert.deepEqual(await alertTitles(req), ["2 connections untested: Bank of Xland, Bank of Yland"]);
    const body = await expectJson(await req("GET", "/api/dashboard/alerts"), 200);
    assert.equal(body.alerts[0].id, "untested-connections");
    assert.equal(body.alerts[0].tone, "warning");
    // The stored outcomes decide: once both pass a test, every endpoint is operational.
    const [x, y] = (await expectJson(await req("GET", "/api/central-bank-connections"), 200) as {
      id: string;
      partnerCentralBank: string;
    }[]).filter((c) => c.partnerCentralBank !== "Bank of Pendingland").sort((a, b) =>
      a.partnerCentralBank.localeCompare(b.partnerCentralBank)
    );
    await recordTestResult(t.deps.db, ACTOR, x.id, testOutcome(true));
    assert.deepEqual(await alertTitles(req), ["1 connection untested: Bank of Yland"]);
    await recordTestResult(t.deps.db, ACTOR, y.id, testOutcome(true));
    assert.deepEqual(await alertTitles(req), ["All endpoints operational"]);
  });
});

Deno.test("GET /api/dashboard/alerts: a failing connection says since when; a success older than 24 h is stale", async () => {
  await withApp(async (t, req) => {
    const connection = await addConnection(req, "Bank of Xland");
    await recordTestResult(t.deps.db, ACTOR, connection.id, testOutcome(true));
    await recordTestResult(t.deps.db, ACTOR, connection.id, testOutcome(false));
    const [firstFailure] = await t.deps.db.read.all<{ performedAt: string }>(sql`SELECT performed_at AS performedAt
      FROM audit_trail WHERE entity_id = ${connection.id} AND action = 'test' ORDER BY seq DESC LIMIT 1`);
    await recordTestResult(t.deps.db, ACTOR, connection.id, testOutcome(false));
    assert.deepEqual(await alertTitles(req), [
      `Connection Bank of Xland failing since ${utcMinute(firstFailure.performedAt)}`,
    ]);
    await recordTestResult(t.deps.db, ACTOR, connection.id, testOutcome(true));
    assert.deepEqual(await alertTitles(req), ["All endpoints operational"], "only the latest test counts");
    const later = new Date(Date.now() + CONNECTION_TEST_FRESHNESS_MS + 60_000);
    const stale = await systemAlerts(t.deps.db.read, false, later);
    assert.deepEqual(stale.map((alert) => [alert.id, alert.title]), [
      ["stale-connections", "1 connection not tested in 24 h: Bank of Xland"],
    ]);
  });
});

Deno.test("GET /api/dashboard/alerts counts the pending institutions, and approving one lowers the count", async () => {
  await withApp(async (t) => {
    const req = await t.desk();
    const now = new Date().toISOString();
    const first = await addInstitution(t, now);
    for (let i = 0; i < 5; i++) await addInstitution(t, now);
    assert.deepEqual(await alertTitles(req), ["6 institutions pending activation", "No active connections"]);
    // Approving is a four-eyes request (issue 20): the count drops once a second person approves.
    const approver = await seededStaff(t, "approver@centralbank.test", ["approver"]);
    await approvePending(
      t,
      approver.cookie,
      await req("PATCH", `/api/institutions/${first.id}/status`, {
        body: { status: "active", reason: "Licensed" },
      }),
    );
    assert.equal((await alertTitles(req))[0], "5 institutions pending activation");
  });
});

Deno.test("GET /api/dashboard/alerts: the awaiting-approval count is the approvals queue's count", async () => {
  await withApp(async (t) => {
    const req = await t.desk();
    const now = new Date().toISOString();
    const institutions = [];
    for (let i = 0; i < 8; i++) institutions.push(await addInstitution(t, now));
    const queueTotal = async () =>
      Number((await req("GET", "/api/approvals?status=pending&limit=1")).headers.get("x-total-count"));
    assert.equal(await queueTotal(), 0);
    assert.ok(!(await alertTitles(req)).some((title) => title.includes("awaiting approval")));
    await expectJson(
      await req("PATCH", `/api/institutions/${institutions[0].id}/status`, {
        body: { status: "active", reason: "Licensed" },
      }),
      202,
    );
    assert.equal(await queueTotal(), 1);
    assert.deepEqual((await alertTitles(req)).slice(0, 2), [
      "1 request awaiting approval",
      "8 institutions pending activation",
    ]);
    // An expired request leaves the queue and the alert together.
    await t.deps.db.transaction((tx) => tx.run(sql`UPDATE approval_requests SET expires_at = ${now}`));
    assert.equal(await queueTotal(), 0);
    assert.equal((await alertTitles(req))[0], "8 institutions pending activation");
  });
});

Deno.test("GET /api/dashboard/alerts: a connection whose last test failed, or API 5xx in the last hour, is not operational", async () => {
  await withApp(async (t, req) => {
    const connection = await addConnection(req, "Bank of Testland");
    await recordTestResult(t.deps.db, ACTOR, connection.id, testOutcome(false));
    assert.match((await alertTitles(req))[0], /^Connection Bank of Testland failing since /);
    await recordTestResult(t.deps.db, ACTOR, connection.id, testOutcome(true));
    assert.deepEqual(await alertTitles(req), ["All endpoints operational"], "only the latest test counts");

    const now = Date.now();
    await addApiLog(t, new Date(now - 2 * 3_600_000).toISOString(), 500);
    assert.deepEqual(
      await alertTitles(req),
      ["All endpoints operational"],
      "errors older than an hour do not count",
    );
    await addApiLog(t, new Date(now - 60_000).toISOString(), 503);
    await addApiLog(t, new Date(now - 60_000).toISOString(), 200);
    const body = await expectJson(await req("GET", "/api/dashboard/alerts"), 200);
    assert.deepEqual(body.alerts, [{
      id: "api-errors",
      tone: "error",
      title: "API errors in the last hour",
      text: "1 request of 2 answered with a server error.",
    }]);
  });
});

Deno.test("GET /api/dashboard/trends: yesterday's requests up to this time of day, SWIFT participants this month", async () => {
  await withApp(async (t, req) => {
    const now = Date.now();
    const dayStart = Date.parse(startOfUtcDay(new Date(now)));
    const monthStart = Date.parse(startOfUtcMonth(new Date(now)));
    // Yesterday: one request at its first second (counted), one later than this time yesterday (not counted).
    await addApiLog(t, new Date(dayStart - MS_PER_DAY).toISOString());
    await addApiLog(t, new Date(now - MS_PER_DAY + 1000).toISOString());
    await addApiLog(t, new Date(dayStart - MS_PER_DAY - 1000).toISOString());
    await addInstitution(t, new Date(monthStart + 1000).toISOString(), true);
    await addInstitution(t, new Date(monthStart - 1000).toISOString(), true);
    await addInstitution(t, new Date(monthStart + 1000).toISOString(), false);
    assert.deepEqual(await expectJson(await req("GET", "/api/dashboard/trends"), 200), {
      yesterdayApiRequestsSameTime: 1,
      monthlySwiftParticipantGrowth: 1,
    });
  });
});

Deno.test("GET /api/dashboard/charts counts registrations per month and API requests per hour, today and yesterday", async () => {
  await withApp(async (t, req) => {
    const now = new Date();
    const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const monthsBack = (n: number) =>
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, 15)).toISOString();
    await addInstitution(t, new Date(monthStart).toISOString());
    await addInstitution(t, now.toISOString());
    await addInstitution(t, monthsBack(2));
    await addInstitution(t, monthsBack(12), true); // outside the 12-month window

    const dayStart = Date.parse(startOfUtcDay(now));
    await addApiLog(t, new Date(dayStart).toISOString()); // today, hour 0
    await addApiLog(t, new Date(dayStart + 60_000).toISOString()); // today, hour 0
    await addApiLog(t, new Date(dayStart - MS_PER_DAY + 5 * 3_600_000).toISOString()); // yesterday, hour 5
    await addApiLog(t, new Date(dayStart - MS_PER_DAY - 1000).toISOString()); // two days ago

    const charts = await expectJson(await req("GET", "/api/dashboard/charts"), 200);
    assert.equal(charts.registrationsPerMonth.length, 12);
    assert.equal(charts.registrationsPerMonth.at(-1).month, now.toISOString().slice(0, 7));
    assert.deepEqual(
      charts.registrationsPerMonth.map((bucket: { count: number }) => bucket.count),
      [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2],
    );
    assert.equal(charts.apiRequestsPerHour.today.length, 24);
    assert.equal(charts.apiRequestsPerHour.today[0], 2);
    assert.equal(charts.apiRequestsPerHour.today.reduce((a: number, b: number) => a + b, 0), 2);
    assert.equal(charts.apiRequestsPerHour.yesterday[5], 1);
    assert.equal(charts.apiRequestsPerHour.yesterday.reduce((a: number, b: number) => a + b, 0), 1);
  });
});

Deno.test("dashboard routes answer 401 without a session", async () => {
  const t = await createTestApp();
  try {
    await expectJson(await t.request("GET", "/api/dashboard/trends"), 401);
    await expectJson(await t.request("GET", "/api/dashboard/charts"), 401);
    await expectJson(await t.request("GET", "/api/dashboard/alerts"), 401);
    await expectJson(await t.request("GET", "/api/dashboard/stats"), 401);
    await expectJson(await t.request("GET", "/api/dashboard/recent-registrations"), 401);
  } finally {
    await t.close();
  }
});
