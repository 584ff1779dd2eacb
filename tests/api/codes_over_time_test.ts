import assert from "node:assert/strict";
import { and, eq, sql } from "drizzle-orm";
import { auditTrail, routingCodes, swiftCodes } from "../../db/schema.ts";
import { CONSOLE_CENTRAL_BANK_CODE } from "../../src/domain/national_routing.ts";
import { EFFECTIVE_TOO_FAR, MAX_EFFECTIVE_AHEAD_DAYS } from "../../src/domain/effective_dating.ts";
import { applyDueVersions, SCHEDULED_CHANGE_ACTION } from "../../src/server/registry_history/scheduler.ts";
import { INSTANT_FORMAT_MESSAGE } from "../../src/server/registry_history/instants.ts";
import { approvedBySecondPerson, secondPerson } from "../helpers/staff.ts";
import { createTestApp, type Desk, expectJson, type TestApp } from "../helpers/test_app.ts";
import { handClock } from "../helpers/hand_clock.ts";
import { insertInstitution } from "./codes_helpers.ts";

const DAY_MS = 86_400_000;

const iso = (ms: number) => new Date(ms).toISOString();

async function assignCode(
  req: Desk,
  institutionId: string,
  prefix = "CBR",
  extra: Record<string, unknown> = {},
) {
  return await expectJson(
    await req("POST", "/api/routing-codes", { body: { institutionId, prefix, branchCode: "001", ...extra } }),
    201,
  );
}

async function registerBic(
  req: Desk,
  institutionId: string,
  bicCode: string,
  extra: Record<string, unknown> = {},
) {
  return await expectJson(
    await req("POST", "/api/swift-codes", { body: { institutionId, bicCode, ...extra } }),
    201,
  );
}

/** Files a status change as the desk's operator and has a second person approve it. */
async function changeApproved(req: Desk, path: string, body: Record<string, unknown>) {
  const decided = await approvedBySecondPerson(req, await req("PATCH", path, { body }));
  assert.equal(decided.status, "approved");
  return decided as typeof decided & { requestedBy: string; decidedBy: string };
}

async function apiKeyOf(t: TestApp, req: Desk): Promise<string> {
  const created = await expectJson(
    await t.request("POST", "/api/api-keys", { cookie: req.adminCookie, body: { name: "Clearing house" } }),
    201,
  );
  return created.key;
}

Deno.test("a routing code suspended from tomorrow: invisible today, visible asOf tomorrow, in force at its time without anyone acting, once", async () => {
  const { clock, advance } = handClock();
  const t = await createTestApp({}, { clock });
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    const { code } = await assignCode(req, institutionId);
    // Read once before the change is scheduled: the lookup's cached answer must not outlive it.
    assert.equal((await expectJson(await req("GET", `/api/routing-codes/${code}`), 200)).status, "active");
    const tomorrow = iso(clock.now() + DAY_MS);
    await changeApproved(req, `/api/routing-codes/${code}/status`, {
      status: "suspended",
      effectiveFrom: tomorrow,
      reason: "Clearing membership paused",
    });

    const today = await expectJson(await req("GET", `/api/routing-codes/${code}`), 200);
    assert.equal(today.status, "active");
    const justBefore = await expectJson(
      await req("GET", `/api/routing-codes/${code}?asOf=${iso(Date.parse(tomorrow) - 1)}`),
      200,
    );
    assert.equal(justBefore.status, "active");
    const asOfTomorrow = await expectJson(
      await req("GET", `/api/routing-codes/${code}?asOf=${tomorrow}`),
      200,
    );
    assert.equal(asOfTomorrow.status, "suspended");
    const [listed] = await expectJson(await req("GET", "/api/routing-codes"), 200);
    assert.equal(listed.status, "active");
    assert.deepEqual(listed.pendingChanges, [{ validFrom: tomorrow, summary: "Status active → suspended" }]);
    const [listedTomorrow] = await expectJson(await req("GET", `/api/routing-codes?asOf=${tomorrow}`), 200);
    assert.equal(listedTomorrow.status, "suspended");
    const [found] = await expectJson(
      await req("GET", `/api/search?type=routing&query=${code}&asOf=${tomorrow}`),
      200,
    );
    assert.equal(found.status, "suspended");
    const [foundToday] = await expectJson(await req("GET", `/api/search?type=routing&query=${code}`), 200);
    assert.equal(foundToday.status, "active");

    advance(DAY_MS + 1);
    // A day later the desk's sessions have lapsed: reading needs only a fresh one.
    const reader = t.as(await t.login());
    // Read from the versions: in force at its instant although headquarters' scheduler has not written it yet.
    assert.equal(
      (await expectJson(await reader("GET", `/api/routing-codes/${code}`), 200)).status,
      "suspended",
    );
    const stored = () => t.deps.db.read.select().from(routingCodes).where(eq(routingCodes.code, code)).get();
    assert.equal((await stored())!.status, "active");
    assert.equal(await applyDueVersions(t.deps.db, clock.now()), 1);
    assert.equal(await applyDueVersions(t.deps.db, clock.now()), 0, "applied once");
    assert.equal((await stored())!.status, "suspended");
    const applied = await t.deps.db.read.select().from(auditTrail)
      .where(and(eq(auditTrail.entityType, "routing_code"), eq(auditTrail.action, SCHEDULED_CHANGE_ACTION)))
      .all();
    assert.equal(applied.length, 1);
    assert.deepEqual(
      (await expectJson(await reader("GET", "/api/routing-codes"), 200))[0].pendingChanges,
      [],
    );
  } finally {
    await t.close();
  }
});

Deno.test("a suspension with an end returns to the status before it at its end", async () => {
  const { clock } = handClock();
  const t = await createTestApp({}, { clock });
  try {
    const req = await t.desk();
    const { code } = await assignCode(req, await insertInstitution(t));
    const from = iso(clock.now() + DAY_MS);
    const until = iso(clock.now() + 3 * DAY_MS);
    await changeApproved(req, `/api/routing-codes/${code}/status`, {
      status: "suspended",
      effectiveFrom: from,
      until,
      reason: "Technical outage",
    });
    const at = async (instant: string) =>
      (await expectJson(await req("GET", `/api/routing-codes/${code}?asOf=${instant}`), 200)).status;
    assert.deepEqual([await at(iso(clock.now())), await at(from), await at(until)], [
      "active",
      "suspended",
      "active",
    ]);
    const refused = await expectJson(
      await req("PATCH", `/api/routing-codes/${code}/status`, {
        body: { status: "inactive", until, reason: "An end without a suspension" },
      }),
      400,
    );
    assert.ok(refused.fields.until);
    const tooLong = await expectJson(
      await req("PATCH", `/api/routing-codes/${code}/status`, {
        body: {
          status: "suspended",
          until: iso(clock.now() + (MAX_EFFECTIVE_AHEAD_DAYS + 1) * DAY_MS),
          reason: "An end beyond the bound",
        },
      }),
      400,
    );
    assert.equal(tooLong.fields.until, EFFECTIVE_TOO_FAR);
  } finally {
    await t.close();
  }
});

Deno.test("a terminated routing code answers its successor to a session and to an API key; its history names requester and approver", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    const old = await assignCode(req, institutionId, "OLD");
    const next = await assignCode(req, institutionId, "NEW");
    const path = `/api/routing-codes/${old.code}/status`;
    const itself = await expectJson(
      await req("PATCH", path, { body: { status: "terminated", successorCode: old.code, reason: "Merger" } }),
      400,
    );
    assert.equal(itself.fields.successorCode, "A code cannot succeed itself");
    const unknownCode = next.code.replace("NEW", "XYZ");
    const unknown = await expectJson(
      await req("PATCH", path, {
        body: { status: "terminated", successorCode: unknownCode, reason: "Merger" },
      }),
      400,
    );
    assert.ok(unknown.fields.successorCode);
    const notTerminating = await expectJson(
      await req("PATCH", path, { body: { status: "suspended", successorCode: next.code, reason: "Merger" } }),
      400,
    );
    assert.equal(notTerminating.fields.successorCode, "Only a terminated code has a successor");

    const decided = await changeApproved(req, path, {
      status: "terminated",
      successorCode: next.code,
      reason: "Merger",
    });
    const answer = await expectJson(await req("GET", `/api/routing-codes/${old.code}`), 200);
    assert.equal(answer.status, "terminated");
    assert.equal(answer.successorCode, next.code);
    assert.deepEqual(answer.successor, { code: next.code, institutionId, status: "active" });
    assert.equal(answer.deletionAnnounced, true);
    assert.ok(answer.terminatedAt);

    const key = await apiKeyOf(t, req);
    const viaKey = await expectJson(
      await t.request("GET", `/api/routing-codes/${old.code}`, {
        headers: { authorization: `Bearer ${key}` },
      }),
      200,
    );
    assert.equal(viaKey.success, true);
    assert.equal(viaKey.data.status, "terminated");
    assert.deepEqual(viaKey.data.successor, answer.successor);

    const again = await expectJson(
      await req("PATCH", path, { body: { status: "active", reason: "Undo" } }),
      409,
    );
    assert.equal(again.reason, "invalid_transition");

    const history = await expectJson(await req("GET", `/api/routing-codes/${old.code}/history`), 200);
    assert.equal(history.length, 2);
    assert.equal(history[0].summary, `Terminated, succeeded by ${next.code}`);
    assert.equal(history[0].requestedBy.id, decided.requestedBy);
    assert.equal(history[0].approvedBy.id, decided.decidedBy);
    assert.notEqual(decided.requestedBy, decided.decidedBy);
    assert.equal(history[1].summary, "Registered");
    assert.equal(history[1].approvedBy, null);
  } finally {
    await t.close();
  }
});

Deno.test("a BIC terminated from tomorrow is announced today and answers its successor asOf tomorrow, also to an API key", async () => {
  const { clock, advance } = handClock();
  const t = await createTestApp({}, { clock });
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    await registerBic(req, institutionId, "NWBKGB2L");
    await registerBic(req, institutionId, "DEUTDEFF");
    const tomorrow = iso(clock.now() + DAY_MS);
    const twin = await expectJson(
      await req("PATCH", "/api/swift-codes/NWBKGB2L/status", {
        body: { status: "terminated", successorBic: "NWBKGB2LXXX", reason: "Merger" },
      }),
      400,
    );
    assert.equal(twin.fields.successorBic, "A code cannot succeed itself");
    await changeApproved(req, "/api/swift-codes/NWBKGB2L/status", {
      status: "terminated",
      effectiveFrom: tomorrow,
      successorBic: "DEUTDEFF",
      reason: "Merged into Deutsche Bank",
    });
    const today = await expectJson(await req("GET", "/api/swift-codes/NWBKGB2L"), 200);
    assert.equal(today.status, "active");
    assert.equal(today.deletionAnnounced, true, "the deletion is announced at once");
    assert.equal(today.successor, null);
    const then = await expectJson(await req("GET", `/api/swift-codes/NWBKGB2L?asOf=${tomorrow}`), 200);
    assert.equal(then.status, "terminated");
    assert.equal(then.successorBic, "DEUTDEFF");
    assert.deepEqual(then.successor, { bic: "DEUTDEFF", institutionId, status: "active" });
    const [found] = await expectJson(
      await req("GET", `/api/search?type=swift&query=NWBKGB2L&asOf=${tomorrow}`),
      200,
    );
    assert.equal(found.status, "terminated");

    const key = await apiKeyOf(t, req);
    advance(DAY_MS);
    const viaKey = await expectJson(
      await t.request("GET", "/api/swift-codes/NWBKGB2L", { headers: { authorization: `Bearer ${key}` } }),
      200,
    );
    assert.equal(viaKey.data.status, "terminated");
    assert.equal(viaKey.data.successor.bic, "DEUTDEFF");
    assert.equal(await applyDueVersions(t.deps.db, clock.now()), 1);
    const row = await t.deps.db.read.select().from(swiftCodes).where(eq(swiftCodes.bicCode, "NWBKGB2L"))
      .get();
    assert.equal(row!.terminatedAt, tomorrow);
    const reader = t.as(await t.login());
    const history = await expectJson(await reader("GET", "/api/swift-codes/NWBKGB2L/history"), 200);
    assert.deepEqual(history.map((entry: { summary: string }) => entry.summary), [
      "Terminated, succeeded by DEUTDEFF",
      `Deletion announced for ${tomorrow}`,
      "Registered",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("a code registered effective later is inactive until then and active from then", async () => {
  const { clock } = handClock();
  const t = await createTestApp({}, { clock });
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    const later = iso(clock.now() + 2 * DAY_MS);
    const bic = await registerBic(req, institutionId, "BNPAFRPP", { effectiveFrom: later });
    assert.equal(bic.status, "inactive");
    assert.equal(bic.validFrom, later);
    assert.equal(
      (await expectJson(await req("GET", `/api/swift-codes/BNPAFRPP?asOf=${later}`), 200)).status,
      "active",
    );
    const before = iso(clock.now() - DAY_MS);
    await expectJson(await req("GET", `/api/swift-codes/BNPAFRPP?asOf=${before}`), 404);
    const code = await assignCode(req, institutionId, "LAT", { effectiveFrom: later.slice(0, 10) });
    assert.equal(code.status, "inactive");
    const history = await expectJson(await req("GET", `/api/routing-codes/${code.code}/history`), 200);
    assert.deepEqual(history.map((entry: { inForce: boolean }) => entry.inForce), [false, true]);
    const tooFar = iso(clock.now() + (MAX_EFFECTIVE_AHEAD_DAYS + 1) * DAY_MS);
    const refused = await expectJson(
      await req("POST", "/api/routing-codes", {
        body: { institutionId, prefix: "FAR", effectiveFrom: tooFar },
      }),
      400,
    );
    assert.equal(refused.fields.effectiveFrom, EFFECTIVE_TOO_FAR);
  } finally {
    await t.close();
  }
});

Deno.test("a bad asOf or effectiveFrom is a 400 on its field", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    const { code } = await assignCode(req, institutionId);
    for (
      const path of [
        `/api/routing-codes/${code}?asOf=yesterday`,
        "/api/routing-codes?asOf=2027-13-45",
        "/api/swift-codes?asOf=2027-02-30T10:00:00",
        "/api/national-routing?asOf=tomorrow",
        `/api/search?type=routing&query=CBR&asOf=soon`,
      ]
    ) {
      const answer = await expectJson(await req("GET", path), 400);
      assert.equal(answer.fields.asOf, INSTANT_FORMAT_MESSAGE, path);
    }
    const badDate = await expectJson(
      await req("PATCH", `/api/routing-codes/${code}/status`, {
        body: { status: "suspended", effectiveFrom: "next week", reason: "x" },
      }),
      400,
    );
    assert.equal(badDate.fields.effectiveFrom, INSTANT_FORMAT_MESSAGE);
  } finally {
    await t.close();
  }
});

Deno.test("a national routing participant suspended from a date: four-eyes, listed as to come, in force asOf then", async () => {
  const { clock, advance } = handClock();
  const t = await createTestApp({}, { clock });
  try {
    const req = await t.desk();
    const entry = await expectJson(
      await req("POST", "/api/national-routing", {
        body: {
          centralBankCode: CONSOLE_CENTRAL_BANK_CODE,
          institutionType: "commercial_bank",
          registryNumber: "REG-TIME-1",
          institutionName: "Harbour Commercial Bank",
          nationalBankCode: "NBTIME1",
          accountNumberFormat: "10-digit",
        },
      }),
      201,
    );
    const from = iso(clock.now() + DAY_MS);
    const path = `/api/national-routing/${entry.id}/status`;
    const same = await expectJson(
      await req("PATCH", path, { body: { participantStatus: "active", reason: "No change" } }),
      409,
    );
    assert.equal(same.reason, "invalid_transition");
    const approver = await secondPerson(t);
    await expectJson(
      await t.request("PATCH", path, {
        cookie: approver.cookie,
        body: { participantStatus: "suspended", reason: "An approver does not request" },
      }),
      403,
    );
    const decided = await changeApproved(req, path, {
      participantStatus: "suspended",
      effectiveFrom: from,
      reason: "Settlement account frozen",
    });
    const [today] = await expectJson(await req("GET", "/api/national-routing"), 200);
    assert.equal(today.participantStatus, "active");
    assert.equal(today.pendingChanges.length, 1);
    const [then] = await expectJson(await req("GET", `/api/national-routing?asOf=${from}`), 200);
    assert.equal(then.participantStatus, "suspended");
    const history = await expectJson(await req("GET", `${path.replace("/status", "/history")}`), 200);
    assert.equal(history[0].inForce, false);
    assert.equal(history[0].approvedBy.id, decided.decidedBy);
    advance(DAY_MS);
    assert.equal(await applyDueVersions(t.deps.db, clock.now()), 1);
    const reader = t.as(await t.login());
    const [applied] = await expectJson(await reader("GET", "/api/national-routing"), 200);
    assert.equal(applied.participantStatus, "suspended");
    assert.deepEqual(applied.pendingChanges, []);
    const audits = await t.deps.db.read.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM audit_trail WHERE entity_type = 'national_routing_entry' AND action = 'status_change'`,
    );
    assert.equal(audits[0].n, 1);
  } finally {
    await t.close();
  }
});

Deno.test("the OpenAPI document gives the code lookups asOf and the successor in their answers", async () => {
  const t = await createTestApp();
  try {
    const doc = await expectJson(
      await t.request("GET", "/api/openapi.json", { cookie: await t.login() }),
      200,
    );
    for (
      const [path, successorKey] of [["/api/routing-codes/{code}", "code"], ["/api/swift-codes/{bic}", "bic"]]
    ) {
      const operation = doc.paths[path].get;
      assert.ok(
        operation.parameters.some((parameter: { name: string; in: string }) =>
          parameter.name === "asOf" && parameter.in === "query"
        ),
        path,
      );
      const data = operation.responses["200"].content["application/json"].schema.properties.data;
      assert.ok(data.properties.successor.properties[successorKey], path);
      assert.ok(data.properties.deletionAnnounced, path);
      assert.ok(data.properties.status.enum.includes("terminated"), path);
    }
  } finally {
    await t.close();
  }
});
