import assert from "node:assert/strict";
import {
  type ActiveConnectionTests,
  CONNECTION_TEST_FRESHNESS_MS,
  connectionAlerts,
  dashboardAlerts,
  monthlyGrowthText,
  versusYesterdayText,
} from "../../src/domain/dashboard.ts";

const NOW_MS = Date.parse("2026-11-28T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW_MS - ms).toISOString();
const tested = (name: string, atMs = 60_000): ActiveConnectionTests => ({
  name,
  lastTestAt: ago(atMs),
  lastTestSucceeded: true,
  failingSince: null,
});
const untested = (name: string): ActiveConnectionTests => ({
  name,
  lastTestAt: null,
  lastTestSucceeded: null,
  failingSince: null,
});

const CALM = {
  pendingInstitutions: 0,
  awaitingApproval: 0,
  activeConnections: [tested("Bank of Testland")],
  nowMs: NOW_MS,
  apiRequestsLastHour: 0,
  apiServerErrorsLastHour: 0,
};

Deno.test("monthlyGrowthText() says No change for nothing added and +N this month otherwise", () => {
  assert.equal(monthlyGrowthText(0), "No change");
  assert.equal(monthlyGrowthText(1), "+1 this month");
  assert.equal(monthlyGrowthText(1234), "+1,234 this month");
});

Deno.test("versusYesterdayText() compares with yesterday's count, rounding to a whole percent", () => {
  assert.equal(versusYesterdayText(118, 100), "+18% vs yesterday");
  assert.equal(versusYesterdayText(95, 100), "-5% vs yesterday");
  assert.equal(versusYesterdayText(100, 100), "No change");
  assert.equal(versusYesterdayText(0, 0), "No change");
  assert.equal(versusYesterdayText(1001, 1000), "No change", "0.1% rounds to no change");
  assert.equal(versusYesterdayText(7, 0), "None yesterday");
  assert.equal(versusYesterdayText(0, 4), "-100% vs yesterday");
});

Deno.test("dashboardAlerts(): nothing pending and every active connection freshly tested is one operational alert", () => {
  const alerts = dashboardAlerts(CALM);
  assert.deepEqual(alerts.map((alert) => alert.title), ["All endpoints operational"]);
  assert.equal(
    alerts[0].text,
    "Every active connection (1) passed its last test within the last 24 hours, and the API answered without server errors in the last hour.",
  );
});

Deno.test("connectionAlerts(): no active connection is never operational", () => {
  assert.deepEqual(connectionAlerts([], NOW_MS).map((alert) => [alert.id, alert.tone, alert.title]), [
    ["no-active-connections", "warning", "No active connections"],
  ]);
  assert.deepEqual(dashboardAlerts({ ...CALM, activeConnections: [] }).map((alert) => alert.id), [
    "no-active-connections",
  ]);
});

Deno.test("connectionAlerts(): never-tested connections are named, the rest counted", () => {
  const two = connectionAlerts([untested("Bank X"), untested("Bank Y"), tested("Bank Z")], NOW_MS);
  assert.deepEqual(two.map((alert) => [alert.id, alert.title]), [[
    "untested-connections",
    "2 connections untested: Bank X, Bank Y",
  ]]);
  const five = connectionAlerts(["A", "B", "C", "D", "E"].map(untested), NOW_MS);
  assert.equal(five[0].title, "5 connections untested: A, B, C and 2 others");
});

Deno.test("connectionAlerts(): a failing connection says since when its failures began", () => {
  const failing = {
    name: "Bank X",
    lastTestAt: ago(60_000),
    lastTestSucceeded: false,
    failingSince: "2026-11-27T08:05:00.000Z",
  };
  const [one] = connectionAlerts([failing, tested("Bank Z")], NOW_MS);
  assert.deepEqual([one.id, one.tone], ["failing-connections", "error"]);
  assert.equal(one.title, "Connection Bank X failing since 2026-11-27 08:05 UTC");
  const [two] = connectionAlerts(
    [failing, { ...failing, name: "Bank Y", failingSince: ago(60_000) }],
    NOW_MS,
  );
  assert.equal(two.title, "2 connections failing: Bank X, Bank Y");
  assert.match(two.text, /Bank X 2026-11-27 08:05 UTC; Bank Y 2026-11-28 11:59 UTC/);
});

Deno.test("connectionAlerts(): a success older than the window is stale, one within it is not", () => {
  const within = connectionAlerts([tested("Bank X", CONNECTION_TEST_FRESHNESS_MS)], NOW_MS);
  assert.deepEqual(within, []);
  const [stale] = connectionAlerts([tested("Bank X", CONNECTION_TEST_FRESHNESS_MS + 1)], NOW_MS);
  assert.deepEqual([stale.id, stale.tone, stale.title], [
    "stale-connections",
    "warning",
    "1 connection not tested in 24 h: Bank X",
  ]);
  assert.match(stale.text, /Bank X 2026-11-27 11:59 UTC/);
  assert.match(stale.text, /operational for 24 hours after a successful test/);
});

Deno.test("connectionAlerts(): each kind of doubt is its own alert, failures first", () => {
  const alerts = connectionAlerts([
    untested("U"),
    tested("S", CONNECTION_TEST_FRESHNESS_MS * 2),
    { name: "F", lastTestAt: ago(1000), lastTestSucceeded: false, failingSince: ago(1000) },
    tested("OK"),
  ], NOW_MS);
  assert.deepEqual(alerts.map((alert) => alert.id), [
    "failing-connections",
    "untested-connections",
    "stale-connections",
  ]);
  assert.deepEqual(dashboardAlerts({ ...CALM, activeConnections: [untested("U")] }).map((a) => a.id), [
    "untested-connections",
  ], "no operational alert beside a doubt");
});

Deno.test("dashboardAlerts(): the awaiting-approval alert carries the queue's count, pending institutions apart", () => {
  assert.equal(
    dashboardAlerts({ ...CALM, pendingInstitutions: 6 })[0].title,
    "6 institutions pending activation",
  );
  assert.equal(
    dashboardAlerts({ ...CALM, pendingInstitutions: 1 })[0].title,
    "1 institution pending activation",
  );
  assert.deepEqual(
    dashboardAlerts({ ...CALM, pendingInstitutions: 8, awaitingApproval: 1 }).slice(0, 2).map((alert) => alert.title),
    ["1 request awaiting approval", "8 institutions pending activation"],
  );
});

Deno.test("dashboardAlerts(): a failing connection or API server errors replace the operational alert", () => {
  const failingConnection = {
    name: "Bank X",
    lastTestAt: ago(1000),
    lastTestSucceeded: false,
    failingSince: ago(1000),
  };
  const failing = dashboardAlerts({
    ...CALM,
    activeConnections: [failingConnection, { ...failingConnection, name: "Bank Y" }],
  });
  assert.deepEqual(failing.map((alert) => [alert.id, alert.tone]), [["failing-connections", "error"]]);
  assert.equal(failing[0].title, "2 connections failing: Bank X, Bank Y");
  const errors = dashboardAlerts({ ...CALM, apiRequestsLastHour: 40, apiServerErrorsLastHour: 3 });
  assert.deepEqual(errors.map((alert) => alert.id), ["api-errors"]);
  assert.equal(errors[0].text, "3 requests of 40 answered with a server error.");
});
