import assert from "node:assert/strict";
import { dashboardAlerts, monthlyGrowthText, versusYesterdayText } from "../../src/domain/dashboard.ts";

const CALM = {
  pendingInstitutions: 0,
  failingConnections: 0,
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

Deno.test("dashboardAlerts(): nothing pending and nothing failing is one operational alert", () => {
  assert.deepEqual(dashboardAlerts(CALM).map((alert) => alert.title), ["All endpoints operational"]);
});

Deno.test("dashboardAlerts(): the awaiting-approval alert carries the pending count", () => {
  assert.equal(
    dashboardAlerts({ ...CALM, pendingInstitutions: 6 })[0].title,
    "6 institutions awaiting approval",
  );
  assert.equal(
    dashboardAlerts({ ...CALM, pendingInstitutions: 1 })[0].title,
    "1 institution awaiting approval",
  );
});

Deno.test("dashboardAlerts(): a failing connection or API server errors replace the operational alert", () => {
  const failing = dashboardAlerts({ ...CALM, failingConnections: 2 });
  assert.deepEqual(failing.map((alert) => [alert.id, alert.tone]), [["failing-connections", "error"]]);
  assert.equal(failing[0].title, "2 partner connections failing");
  const errors = dashboardAlerts({ ...CALM, apiRequestsLastHour: 40, apiServerErrorsLastHour: 3 });
  assert.deepEqual(errors.map((alert) => alert.id), ["api-errors"]);
  assert.equal(errors[0].text, "3 requests of 40 answered with a server error.");
});
