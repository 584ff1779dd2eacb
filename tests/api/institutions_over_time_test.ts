/**
 * Institutions over time: effective-dated edits and lifecycle changes approved by a second person,
 * as-of reads, history, the LEI, and termination with successors for the institution and its codes.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { EFFECTIVE_TOO_FAR } from "../../src/domain/effective_dating.ts";
import { LEI_CHECK_DIGITS_MESSAGE, LEI_TAKEN } from "../../src/domain/lei.ts";
import { formatRoutingCode } from "../../src/domain/routing_code.ts";
import { applyDueVersions } from "../../src/server/registry_history/scheduler.ts";
import { approvePending, seededStaff, type Staff } from "../helpers/staff.ts";
import { createTestApp, type Desk, expectJson, type TestApp } from "../helpers/test_app.ts";

const DAY_MS = 86_400_000;
const DEUTSCHE_BANK_LEI = "7LTWFZYICNSX8D621K86";
const BNP_PARIBAS_LEI = "R0MUWSFPU8MPRO8K5P83";

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

let serial = 0;
async function register(req: Desk, extra: Record<string, unknown> = {}) {
  serial++;
  return await expectJson(
    await req("POST", "/api/institutions", {
      body: {
        name: `Timely Bank ${serial}`,
        type: "commercial",
        registrationNumber: `TIME-${serial}-${crypto.randomUUID().slice(0, 6)}`,
        address: "1 Calendar Street",
        phoneNumber: "+1 202 555 0199",
        emailAddress: `ops${serial}@timely.example`,
        ...extra,
      },
    }),
    201,
  );
}

interface World {
  t: TestApp;
  req: Desk;
  approver: Staff;
}

/**
 * The app runs on the real clock (sessions expire on it); the scheduler is called as it would run
 * at a later instant, and reads at that instant ask with asOf.
 */
async function withWorld(run: (world: World) => Promise<void>) {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const approver = await seededStaff(t, `approver-${crypto.randomUUID().slice(0, 6)}@centralbank.test`, ["approver"]);
    await run({ t, req, approver });
  } finally {
    await t.close();
  }
}

const requested = (body: Record<string, unknown>) => ({ body: { requestReason: "Registry update", ...body } });

async function approvedChange(world: World, id: string, body: Record<string, unknown>) {
  return await approvePending(world.t, world.approver.cookie, await world.req("PATCH", `/api/institutions/${id}`, requested(body)));
}

async function approvedStatus(world: World, id: string, body: Record<string, unknown>) {
  return await approvePending(
    world.t,
    world.approver.cookie,
    await world.req("PATCH", `/api/institutions/${id}/status`, requested(body)),
  );
}

Deno.test("a change effective tomorrow is invisible today, visible asOf tomorrow, and takes effect once without anyone acting", async () => {
  await withWorld(async (world) => {
    const { t, req } = world;
    const bank = await register(req);
    const tomorrow = day(Date.now() + DAY_MS);
    await approvedChange(world, bank.id, { name: "Renamed Timely Bank", effectiveFrom: tomorrow });

    const today = await expectJson(await req("GET", `/api/institutions/${bank.id}`), 200);
    assert.equal(today.name, bank.name);
    const asOf = await expectJson(await req("GET", `/api/institutions/${bank.id}?asOf=${tomorrow}`), 200);
    assert.equal(asOf.name, "Renamed Timely Bank");
    const listed = await expectJson(await req("GET", `/api/institutions?asOf=${tomorrow}&search=Renamed`), 200);
    assert.deepEqual(listed.map((row: { id: string }) => row.id), [bank.id]);
    assert.deepEqual(await expectJson(await req("GET", `/api/institutions?search=Renamed`), 200), []);
    const searched = await expectJson(
      await req("GET", `/api/search?type=institution&query=Renamed&asOf=${tomorrow}T12:00:00Z`),
      200,
    );
    assert.equal(searched[0].id, bank.id);

    const overview = await expectJson(await req("GET", `/api/institutions/${bank.id}/overview`), 200);
    assert.equal(overview.institution.name, bank.name);
    assert.deepEqual(overview.scheduledChanges.map((change: { validFrom: string; summary: string }) => [
      change.validFrom,
      change.summary,
    ]), [[`${tomorrow}T00:00:00.000Z`, "name → Renamed Timely Bank"]]);

    // At its time the scheduler writes it, exactly once.
    const dueMs = Date.now() + DAY_MS;
    assert.equal(await applyDueVersions(t.deps.db, dueMs), 1);
    assert.equal(await applyDueVersions(t.deps.db, dueMs), 0);
    const [stored] = await t.deps.db.read.all<{ name: string }>(sql`SELECT name FROM institutions WHERE id = ${bank.id}`);
    assert.equal(stored.name, "Renamed Timely Bank");
    const applied = await t.deps.db.read.all<{ n: number }>(sql`SELECT count(*) AS n FROM audit_trail
      WHERE entity_id = ${bank.id} AND action = 'scheduled_change_applied'`);
    assert.equal(applied[0].n, 1);
  });
});

Deno.test("a change due now is in force on reads before the scheduler has written it", async () => {
  await withWorld(async (world) => {
    const { t, req } = world;
    const bank = await register(req);
    const soon = new Date(Date.now() + 1_500).toISOString();
    await approvedChange(world, bank.id, { name: "Soon Renamed Bank", effectiveFrom: soon });
    assert.equal((await expectJson(await req("GET", `/api/institutions/${bank.id}`), 200)).name, bank.name);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(soon) - Date.now() + 50));
    // No scheduler runs in the in-process app: the current table still has the old name.
    const [stored] = await t.deps.db.read.all<{ name: string }>(sql`SELECT name FROM institutions WHERE id = ${bank.id}`);
    assert.equal(stored.name, bank.name);
    assert.equal((await expectJson(await req("GET", `/api/institutions/${bank.id}`), 200)).name, "Soon Renamed Bank");
    const overview = await expectJson(await req("GET", `/api/institutions/${bank.id}/overview`), 200);
    assert.equal(overview.institution.name, "Soon Renamed Bank");
    assert.deepEqual(overview.scheduledChanges, []);
    assert.equal(await applyDueVersions(t.deps.db, Date.now()), 1);
  });
});

Deno.test("an edit is a four-eyes request; at once by default; too far ahead or changing nothing is a 400", async () => {
  await withWorld(async (world) => {
    const { req } = world;
    const bank = await register(req);
    const pending = await expectJson(await req("PATCH", `/api/institutions/${bank.id}`, requested({ address: "2 New Street" })), 202);
    assert.equal(pending.approvalRequest.kind, "institution_change");
    assert.equal((await expectJson(await req("GET", `/api/institutions/${bank.id}`), 200)).address, bank.address);
    await approvePending(
      world.t,
      world.approver.cookie,
      new Response(JSON.stringify(pending), { status: 202 }),
    );
    assert.equal((await expectJson(await req("GET", `/api/institutions/${bank.id}`), 200)).address, "2 New Street");

    const far = await expectJson(
      await req("PATCH", `/api/institutions/${bank.id}`, requested({ name: "Later", effectiveFrom: day(Date.now() + 800 * DAY_MS) })),
      400,
    );
    assert.equal(far.fields.effectiveFrom, EFFECTIVE_TOO_FAR);
    const badDate = await expectJson(await req("PATCH", `/api/institutions/${bank.id}`, requested({ name: "X", effectiveFrom: "soon" })), 400);
    assert.ok(badDate.fields.effectiveFrom);
    const same = await expectJson(await req("PATCH", `/api/institutions/${bank.id}`, requested({ address: "2 New Street" })), 400);
    assert.ok(same.fields.address);
    const empty = await expectJson(await req("PATCH", `/api/institutions/${bank.id}`, requested({})), 400);
    assert.ok(empty.fields.name);
    await expectJson(await req("PATCH", `/api/institutions/nope`, requested({ name: "Nobody" })), 404);
    const badAsOf = await expectJson(await req("GET", `/api/institutions/${bank.id}?asOf=yesterday`), 400);
    assert.ok(badAsOf.fields.asOf);
  });
});

Deno.test("LEI: valid on registration and edit, shown and found by search; an invalid one is a 400, a taken one a 409", async () => {
  await withWorld(async (world) => {
    const { req } = world;
    const bank = await register(req, { lei: " 7ltw fzyi cnsx 8d62 1k86 " });
    assert.equal(bank.lei, DEUTSCHE_BANK_LEI);
    assert.equal((await expectJson(await req("GET", `/api/institutions/${bank.id}`), 200)).lei, DEUTSCHE_BANK_LEI);
    for (const path of [`/api/institutions?search=${DEUTSCHE_BANK_LEI}`, `/api/search?type=institution&query=${DEUTSCHE_BANK_LEI}`]) {
      const found = await expectJson(await req("GET", path), 200);
      assert.deepEqual(found.map((row: { id: string }) => row.id), [bank.id], path);
    }
    const asOfFound = await expectJson(await req("GET", `/api/institutions?search=${DEUTSCHE_BANK_LEI}&asOf=${day(Date.now() + DAY_MS)}`), 200);
    assert.deepEqual(asOfFound.map((row: { id: string }) => row.id), [bank.id]);

    const invalid = await expectJson(await req("POST", "/api/institutions", { body: { ...bank, registrationNumber: "OTHER-1", lei: "7LTWFZYICNSX8D621K87" } }), 400);
    assert.equal(invalid.fields.lei, LEI_CHECK_DIGITS_MESSAGE);
    const taken = await expectJson(await req("POST", "/api/institutions", { body: { ...bank, registrationNumber: "OTHER-2", lei: DEUTSCHE_BANK_LEI } }), 409);
    assert.equal(taken.field, "lei");
    assert.equal(taken.fields.lei, LEI_TAKEN);

    // Scheduled to take a LEI: another institution cannot take it meanwhile.
    const other = await register(req);
    await approvedChange(world, other.id, { lei: BNP_PARIBAS_LEI, effectiveFrom: day(Date.now() + 10 * DAY_MS) });
    const third = await register(req);
    const scheduledTaken = await expectJson(await req("PATCH", `/api/institutions/${third.id}`, requested({ lei: BNP_PARIBAS_LEI })), 409);
    assert.equal(scheduledTaken.field, "lei");
    const badEdit = await expectJson(await req("PATCH", `/api/institutions/${third.id}`, requested({ lei: "ABC" })), 400);
    assert.ok(badEdit.fields.lei);
    // Blank clears it.
    await approvedChange(world, bank.id, { lei: "" });
    assert.equal((await expectJson(await req("GET", `/api/institutions/${bank.id}`), 200)).lei, null);
  });
});

Deno.test("history lists every version with its dates, requester and approver", async () => {
  await withWorld(async (world) => {
    const { req, approver } = world;
    const bank = await register(req);
    await approvedChange(world, bank.id, { numberOfBranches: 7, effectiveFrom: day(Date.now() + 3 * DAY_MS) });
    const history = await expectJson(await req("GET", `/api/institutions/${bank.id}/history`), 200);
    assert.equal(history.length, 2);
    const [scheduled, registered] = history;
    assert.equal(scheduled.summary, "numberOfBranches → 7");
    assert.equal(scheduled.inForce, false);
    assert.equal(scheduled.validTo, null);
    assert.equal(registered.validTo, scheduled.validFrom);
    assert.equal(registered.summary, "Registered");
    assert.ok(scheduled.requestedBy?.name, "requester named");
    assert.equal(scheduled.approvedBy?.id, approver.id);
    assert.notEqual(scheduled.requestedBy.id, approver.id);
    assert.ok(scheduled.approvalRequestId);
    await expectJson(await req("GET", `/api/institutions/unknown/history`), 404);
  });
});

Deno.test("onboarding from a date, and a suspension with an end: each step takes effect at its time with its events", async () => {
  await withWorld(async (world) => {
    const { t, req } = world;
    const bank = await register(req);
    const onboarded = day(Date.now() + DAY_MS);
    await approvedStatus(world, bank.id, { status: "active", effectiveFrom: onboarded });
    assert.equal((await expectJson(await req("GET", `/api/institutions/${bank.id}`), 200)).status, "pending");
    assert.equal(await applyDueVersions(t.deps.db, Date.now() + DAY_MS), 1);
    const at = (date: string) => req("GET", `/api/institutions/${bank.id}?asOf=${date}T06:00:00Z`);
    assert.equal((await expectJson(await at(onboarded), 200)).status, "active");

    const from = day(Date.now() + 2 * DAY_MS);
    const until = day(Date.now() + 6 * DAY_MS);
    const backwards = await expectJson(
      await req("PATCH", `/api/institutions/${bank.id}/status`, requested({ status: "suspended", effectiveFrom: until, until: from })),
      400,
    );
    assert.ok(backwards.fields.until);
    await approvedStatus(world, bank.id, { status: "suspended", effectiveFrom: from, until, reason: "Capital shortfall" });
    assert.equal((await expectJson(await at(from), 200)).status, "suspended");
    assert.equal((await expectJson(await at(until), 200)).status, "active");

    await applyDueVersions(t.deps.db, Date.now() + 2 * DAY_MS);
    await applyDueVersions(t.deps.db, Date.now() + 6 * DAY_MS);
    const events = await t.deps.db.read.all<{ kind: string; status: string; reason: string | null }>(sql`SELECT kind,
      json_extract(data, '$.status') AS status, json_extract(data, '$.reason') AS reason FROM events
      WHERE subject_id = ${bank.id} ORDER BY seq`);
    assert.deepEqual(events.map((event) => `${event.kind}:${event.status}`), [
      "institution_status_changed:active",
      "institution_status_changed:suspended",
      "participant_suspended:suspended",
      "institution_status_changed:active",
    ]);
    assert.equal(events[1].reason, "Capital shortfall");
    const [stored] = await t.deps.db.read.all<{ status: string }>(sql`SELECT status FROM institutions WHERE id = ${bank.id}`);
    assert.equal(stored.status, "active");
  });
});

Deno.test("termination with a successor ends the institution and its codes at the date, announcing their deletion at once", async () => {
  await withWorld(async (world) => {
    const { t, req } = world;
    const [bank, heir] = [await register(req), await register(req)];
    const codes = await insertCodes(t, bank.id, heir.id);
    const date = day(Date.now() + 2 * DAY_MS);
    const path = `/api/institutions/${bank.id}/status`;
    const itself = await expectJson(await req("PATCH", path, requested({ status: "terminated", successorId: bank.id })), 400);
    assert.ok(itself.fields.successorId);
    const strange = await expectJson(
      await req("PATCH", path, requested({ status: "terminated", codeSuccessors: { routingCodes: { [codes.heirRouting]: codes.routing } } })),
      400,
    );
    assert.ok(strange.fields["codeSuccessors.routingCodes"]);
    await approvedStatus(world, bank.id, {
      status: "terminated",
      effectiveFrom: date,
      successorId: heir.id,
      codeSuccessors: { routingCodes: { [codes.routing]: codes.heirRouting }, bics: { [codes.bic]: codes.heirBic } },
    });

    const now = await expectJson(await req("GET", `/api/institutions/${bank.id}`), 200);
    assert.equal(now.status, "pending");
    assert.equal(now.deletionAnnounced, true);
    const then = await expectJson(await req("GET", `/api/institutions/${bank.id}?asOf=${date}`), 200);
    assert.equal(then.status, "terminated");
    assert.deepEqual(then.successor, { id: heir.id, name: heir.name });
    const terminatedList = await expectJson(await req("GET", `/api/institutions?asOf=${date}&status=terminated`), 200);
    assert.deepEqual(terminatedList.map((row: { id: string }) => row.id), [bank.id]);

    await applyDueVersions(t.deps.db, Date.now() + 2 * DAY_MS);
    const [stored] = await t.deps.db.read.all<Record<string, string | null>>(sql`SELECT successor_id AS successorId,
      terminated_at AS terminatedAt FROM institutions WHERE id = ${bank.id}`);
    assert.deepEqual(stored, { successorId: heir.id, terminatedAt: `${date}T00:00:00.000Z` });
    const [routing] = await t.deps.db.read.all<Record<string, string | null>>(sql`SELECT successor_code AS successor,
      terminated_at AS terminatedAt, deletion_announced_at AS announced FROM routing_codes WHERE code = ${codes.routing}`);
    assert.equal(routing.successor, codes.heirRouting);
    assert.equal(routing.terminatedAt, `${date}T00:00:00.000Z`);
    assert.ok(routing.announced! < routing.terminatedAt!);
    const [bic] = await t.deps.db.read.all<Record<string, string | null>>(sql`SELECT successor_bic AS successor,
      terminated_at AS terminatedAt FROM swift_codes WHERE bic_code = ${codes.bic}`);
    assert.deepEqual(bic, { successor: codes.heirBic, terminatedAt: `${date}T00:00:00.000Z` });

    // Final: nothing moves a terminated institution from then on, and it succeeds no other then.
    const later = day(Date.now() + 3 * DAY_MS);
    const refused = await expectJson(await req("PATCH", path, requested({ status: "active", effectiveFrom: later })), 409);
    assert.deepEqual(refused.allowed, []);
    const edit = await expectJson(
      await req("PATCH", `/api/institutions/${bank.id}`, requested({ name: "Ghost", effectiveFrom: later })),
      409,
    );
    assert.equal(edit.field, "status");
    const other = await register(req);
    const heirGone = await expectJson(
      await req(
        "PATCH",
        `/api/institutions/${other.id}/status`,
        requested({ status: "terminated", successorId: bank.id, effectiveFrom: later }),
      ),
      400,
    );
    assert.ok(heirGone.fields.successorId);
    const events = await t.deps.db.read.all<{ status: string }>(sql`SELECT json_extract(data, '$.status') AS status
      FROM events WHERE subject_id = ${bank.id} AND kind = 'institution_status_changed'`);
    assert.deepEqual(events.map((event) => event.status), ["terminated"]);
  });
});

/** A routing code and a BIC for the bank and for its heir, written as the registry stores them. */
async function insertCodes(t: TestApp, bankId: string, heirId: string) {
  const at = new Date().toISOString();
  const codes = {
    routing: formatRoutingCode("TIM", 1),
    heirRouting: formatRoutingCode("HEI", 1),
    bic: "TIMEUS33",
    heirBic: "HEIRUS33",
  };
  const rows: [string, string, string][] = [[bankId, codes.routing, codes.bic], [heirId, codes.heirRouting, codes.heirBic]];
  await t.deps.db.transaction(async (tx) => {
    for (const [institutionId, code, bic] of rows) {
      await tx.run(sql`INSERT INTO routing_codes (id, institution_id, code, prefix, status, created_at, updated_at)
      VALUES (${crypto.randomUUID()}, ${institutionId}, ${code}, ${code.slice(0, 3)}, 'active', ${at}, ${at})`);
      await tx.run(sql`INSERT INTO swift_codes (id, institution_id, bic_code, bank_code, country_code,
      location_code, status, created_at, updated_at)
      VALUES (${crypto.randomUUID()}, ${institutionId}, ${bic}, ${bic.slice(0, 4)}, 'US', '33', 'active', ${at}, ${at})`);
    }
  });
  return codes;
}
