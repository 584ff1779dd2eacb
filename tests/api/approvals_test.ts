import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { createStaff, type Staff, seededStaff } from "../helpers/staff.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";
import { balances, nextAccountNumber, writeCounts } from "./ledger_helpers.ts";

interface Team {
  admin: string;
  maker: Staff;
  checker: Staff;
  secondChecker: Staff;
  /** Holds operator and approver: may request, may approve others' requests, never their own. */
  both: Staff;
}

async function withTeam(fn: (t: TestApp, team: Team) => Promise<void>) {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const team: Team = {
      admin,
      maker: await createStaff(t, admin, "maker@centralbank.test", ["operator"]),
      checker: await seededStaff(t, "checker@centralbank.test", ["approver"]),
      secondChecker: await seededStaff(t, "checker2@centralbank.test", ["approver"]),
      both: await createStaff(t, admin, "both@centralbank.test", ["operator", "approver"]),
    };
    await fn(t, team);
  } finally {
    await t.close();
  }
}

const decide = (
  t: TestApp,
  who: Staff,
  id: string,
  decision: "approve" | "reject",
  reason = "Checked the figures",
) => t.request("POST", `/api/approvals/${id}/${decision}`, { cookie: who.cookie, body: { reason } });

/** A ledger account funded with `opening` and an empty liquid account, made through four-eyes where needed. */
async function fundedPair(t: TestApp, team: Team, opening: string) {
  const liquid = await expectJson(
    await t.request("POST", "/api/ledger-accounts", {
      cookie: team.maker.cookie,
      body: {
        accountNumber: nextAccountNumber("liquid"),
        accountType: "liquid",
        accountName: "Liquid",
        currency: "USD",
      },
    }),
    201,
  );
  const res = await t.request("POST", "/api/ledger-accounts", {
    cookie: team.maker.cookie,
    body: {
      accountNumber: nextAccountNumber("ledger"),
      accountType: "ledger",
      accountName: "Reserve",
      currency: "USD",
      currentBalance: opening,
      requestReason: "Opening the reserve",
    },
  });
  if (res.status === 201) return { ledger: await res.json(), liquid };
  const pending = await expectJson(res, 202);
  const approved = await expectJson(
    await decide(t, team.checker, pending.approvalRequest.id, "approve"),
    200,
  );
  const accounts = await expectJson(
    await t.request("GET", "/api/ledger-accounts", { cookie: team.maker.cookie }),
    200,
  );
  return { ledger: accounts.find((a: { id: string }) => a.id === approved.resultEntityId), liquid };
}

const sweep = (t: TestApp, who: Staff, source: string, target: string, amount: string, reason?: string) =>
  t.request("POST", "/api/balance-sweeps", {
    cookie: who.cookie,
    body: {
      sourceAccountId: source,
      targetAccountId: target,
      sweepAmount: amount,
      ...(reason ? { requestReason: reason } : {}),
    },
  });

Deno.test("an operator's large sweep stays pending; the maker cannot approve it; another approver executes it once", async () => {
  await withTeam(async (t, team) => {
    const { ledger, liquid } = await fundedPair(t, team, "3000000.00");
    assert.equal(ledger.currentBalance, "3000000.00");
    const before = await balances(t.as(team.maker.cookie));

    const missingReason = await expectJson(
      await sweep(t, team.both, ledger.id, liquid.id, "2000000.00"),
      400,
    );
    assert.equal(
      missingReason.fields.requestReason,
      "Give a reason: this needs the approval of a second person",
    );

    const pending = await expectJson(
      await sweep(t, team.both, ledger.id, liquid.id, "2000000.00", "Quarter-end liquidity"),
      202,
    );
    assert.equal(pending.status, "pending_approval");
    const request = pending.approvalRequest;
    assert.equal(request.status, "pending");
    assert.equal(request.kind, "sweep");
    assert.equal(request.amount, "2000000.00");
    assert.equal(request.requestReason, "Quarter-end liquidity");
    assert.equal(request.summary.source.balanceBefore, "3000000.00");
    assert.equal(request.summary.source.balanceAfter, "1000000.00");
    assert.deepEqual(await balances(t.as(team.maker.cookie)), before);

    const own = await expectJson(await decide(t, team.both, request.id, "approve"), 403);
    assert.match(own.message, /your own request/);
    await expectJson(await decide(t, team.maker, request.id, "approve"), 403);
    assert.deepEqual(await balances(t.as(team.maker.cookie)), before);

    const approved = await expectJson(
      await decide(t, team.checker, request.id, "approve", "Matches the plan"),
      200,
    );
    assert.equal(approved.status, "approved");
    assert.equal(approved.decidedBy, team.checker.id);
    assert.equal(approved.executedBy, team.checker.id);
    assert.equal(approved.decisionReason, "Matches the plan");
    assert.equal(approved.requestedBy, team.both.id);
    assert.equal(approved.resultEntityType, "balance_sweep");
    const done = await expectJson(
      await t.request("GET", `/api/balance-sweeps/${approved.resultEntityId}`, { cookie: team.maker.cookie }),
      200,
    );
    assert.equal(done.approvedBy, team.checker.id);
    assert.equal(done.sweepAmount, "2000000.00");
    const after = await balances(t.as(team.maker.cookie));
    assert.equal(after.get(ledger.id), "1000000.00");
    assert.equal(after.get(liquid.id), "2000000.00");

    const again = await expectJson(await decide(t, team.secondChecker, request.id, "approve"), 409);
    assert.equal(again.reason, "approved");

    const actions = await t.deps.db.read.all<{ action: string }>(
      sql`SELECT action FROM audit_trail WHERE entity_type = 'approval_request' AND entity_id = ${request.id} ORDER BY seq`,
    );
    assert.deepEqual(actions.map((row) => row.action), ["request", "approve"]);

    // At or below the threshold a sweep executes at once and records who did it.
    const small = await expectJson(await sweep(t, team.maker, ledger.id, liquid.id, "1000000.00"), 201);
    assert.equal(small.executedBy, team.maker.id);
    assert.equal(small.approvedBy, null);
  });
});

Deno.test("two approvers acting at once on one request give exactly one execution", async () => {
  await withTeam(async (t, team) => {
    const { ledger, liquid } = await fundedPair(t, team, "5000000.00");
    const pending = await expectJson(
      await sweep(t, team.maker, ledger.id, liquid.id, "1500000.00", "Concurrent"),
      202,
    );
    const id = pending.approvalRequest.id;
    const results = await Promise.all([
      decide(t, team.checker, id, "approve"),
      decide(t, team.secondChecker, id, "approve"),
    ]);
    const statuses = results.map((res) => res.status).sort();
    await Promise.all(results.map((res) => res.body?.cancel()));
    assert.deepEqual(statuses, [200, 409]);
    const count = await t.deps.db.read.all<{ n: number }>(sql`SELECT count(*) AS n FROM balance_sweeps`);
    assert.equal(count[0].n, 1);
    assert.equal((await balances(t.as(team.maker.cookie))).get(ledger.id), "3500000.00");
  });
});

Deno.test("an approval after the funds are gone answers 422 and moves nothing; the request stays pending", async () => {
  await withTeam(async (t, team) => {
    const { ledger, liquid } = await fundedPair(t, team, "2500000.00");
    const pending = await expectJson(
      await sweep(t, team.maker, ledger.id, liquid.id, "2000000.00", "Big move"),
      202,
    );
    // The balance falls below the request's amount meanwhile, in two sweeps below the threshold by two
    // makers (what one maker moves alone in a day counts towards the threshold as a whole).
    await expectJson(await sweep(t, team.maker, ledger.id, liquid.id, "1000000.00"), 201);
    await expectJson(await sweep(t, team.both, ledger.id, liquid.id, "1000000.00"), 201);
    const before = await balances(t.as(team.maker.cookie));
    const counts = await writeCounts(t.deps.db);
    const refused = await expectJson(
      await decide(t, team.checker, pending.approvalRequest.id, "approve"),
      422,
    );
    assert.equal(refused.reason, "insufficient_funds");
    assert.deepEqual(await balances(t.as(team.maker.cookie)), before);
    assert.deepEqual(await writeCounts(t.deps.db), counts);
    const still = await expectJson(
      await t.request("GET", `/api/approvals/${pending.approvalRequest.id}`, { cookie: team.checker.cookie }),
      200,
    );
    assert.equal(still.status, "pending");
    // A request that could not execute even now is refused at submission, with the sweep's own answer.
    const impossible = await expectJson(
      await sweep(t, team.maker, ledger.id, liquid.id, "9000000.00", "Too much"),
      422,
    );
    assert.equal(impossible.reason, "insufficient_funds");
  });
});

Deno.test("an expired request cannot be approved, and a rejection moves nothing", async () => {
  await withTeam(async (t, team) => {
    const { ledger, liquid } = await fundedPair(t, team, "4000000.00");
    const first = await expectJson(
      await sweep(t, team.maker, ledger.id, liquid.id, "1100000.00", "Will expire"),
      202,
    );
    const second = await expectJson(
      await sweep(t, team.maker, ledger.id, liquid.id, "1200000.00", "Will be rejected"),
      202,
    );
    const before = await balances(t.as(team.maker.cookie));
    await t.deps.db.transaction((tx) =>
      tx.run(sql`UPDATE approval_requests SET expires_at = ${new Date(Date.now() - 1000).toISOString()}
        WHERE id = ${first.approvalRequest.id}`)
    );
    const expired = await expectJson(await decide(t, team.checker, first.approvalRequest.id, "approve"), 409);
    assert.equal(expired.reason, "expired");
    assert.match(expired.message, /expired/);
    const listed = await expectJson(
      await t.request("GET", "/api/approvals?status=expired", { cookie: team.checker.cookie }),
      200,
    );
    assert.deepEqual(listed.map((r: { id: string }) => r.id), [first.approvalRequest.id]);

    const noReason = await expectJson(
      await t.request("POST", `/api/approvals/${second.approvalRequest.id}/reject`, {
        cookie: team.checker.cookie,
        body: {},
      }),
      400,
    );
    assert.equal(noReason.fields.reason, "Required");
    const rejected = await expectJson(
      await decide(t, team.checker, second.approvalRequest.id, "reject", "Not this week"),
      200,
    );
    assert.equal(rejected.status, "rejected");
    assert.equal(rejected.decisionReason, "Not this week");
    assert.equal(rejected.executedBy, null);
    assert.deepEqual(await balances(t.as(team.maker.cookie)), before);
    await expectJson(await decide(t, team.secondChecker, second.approvalRequest.id, "approve"), 409);

    const mine = await expectJson(
      await t.request("GET", "/api/approvals?requestedBy=me", { cookie: team.maker.cookie }),
      200,
    );
    assert.equal(mine.length, 3); // the opening balance and both sweeps
    const pendingRes = await t.request("GET", "/api/approvals?status=pending", {
      cookie: team.checker.cookie,
    });
    assert.equal(pendingRes.headers.get("x-total-count"), "0");
    await pendingRes.body?.cancel();
  });
});

Deno.test("any non-zero opening balance waits for approval, however small; the account appears only then", async () => {
  await withTeam(async (t, team) => {
    const accountNumber = nextAccountNumber("ledger");
    const body = {
      accountNumber,
      accountType: "ledger",
      accountName: "Big",
      currency: "EUR",
      currentBalance: "9999999999999.99",
    };
    await expectJson(
      await t.request("POST", "/api/ledger-accounts", { cookie: team.maker.cookie, body }),
      400,
    );
    const pending = await expectJson(
      await t.request("POST", "/api/ledger-accounts", {
        cookie: team.maker.cookie,
        body: { ...body, requestReason: "Treasury seed" },
      }),
      202,
    );
    assert.equal(pending.approvalRequest.kind, "opening_balance");
    assert.equal(pending.approvalRequest.currency, "EUR");
    const listBefore = await expectJson(
      await t.request("GET", "/api/ledger-accounts", { cookie: team.maker.cookie }),
      200,
    );
    assert(!listBefore.some((a: { accountNumber: string }) => a.accountNumber === accountNumber));
    const approved = await expectJson(
      await decide(t, team.checker, pending.approvalRequest.id, "approve"),
      200,
    );
    const listAfter = await expectJson(
      await t.request("GET", "/api/ledger-accounts", { cookie: team.maker.cookie }),
      200,
    );
    const account = listAfter.find((a: { id: string }) => a.id === approved.resultEntityId);
    assert.equal(account.currentBalance, "9999999999999.99");

    // Money from nowhere needs a second person whatever the amount; an empty account opens at once.
    const cent = await expectJson(
      await t.request("POST", "/api/ledger-accounts", {
        cookie: team.maker.cookie,
        body: { ...body, accountNumber: nextAccountNumber("cent"), currentBalance: "0.01", requestReason: "Test" },
      }),
      202,
    );
    assert.equal(cent.approvalRequest.amount, "0.01");
    const empty = await expectJson(
      await t.request("POST", "/api/ledger-accounts", {
        cookie: team.maker.cookie,
        body: { ...body, accountNumber: nextAccountNumber("empty"), currentBalance: "0.00" },
      }),
      201,
    );
    assert.equal(empty.currentBalance, "0.00");
  });
});

Deno.test("a card load above the threshold waits for approval and executes once on approval", async () => {
  await withTeam(async (t, team) => {
    const card = await expectJson(
      await t.request("POST", "/api/cards/issue", {
        cookie: team.maker.cookie,
        body: { cardholderName: "Ada Lovelace" },
      }),
      201,
    );
    const load = {
      amount: "1500000.00",
      fundingSource: "central_bank_treasury",
      requestReason: "Programme float",
    };
    const pending = await expectJson(
      await t.request("POST", `/api/cards/${card.id}/load`, { cookie: team.maker.cookie, body: load }),
      202,
    );
    assert.equal(pending.approvalRequest.kind, "card_load");
    assert.equal(pending.approvalRequest.summary.source.accountNumber, "CB-TREASURY-001");
    const cardsBefore = await expectJson(
      await t.request("GET", "/api/cards", { cookie: team.maker.cookie }),
      200,
    );
    assert.equal(cardsBefore[0].currentBalance, "0.00");
    await expectJson(await decide(t, team.maker, pending.approvalRequest.id, "approve"), 403);
    await expectJson(await decide(t, team.checker, pending.approvalRequest.id, "approve"), 200);
    const cardsAfter = await expectJson(
      await t.request("GET", "/api/cards", { cookie: team.maker.cookie }),
      200,
    );
    assert.equal(cardsAfter[0].currentBalance, "1500000.00");

    const issue = await expectJson(
      await t.request("POST", "/api/cards/issue", {
        cookie: team.maker.cookie,
        body: {
          cardholderName: "Grace Hopper",
          initialBalance: "2000000.00",
          requestReason: "New programme",
        },
      }),
      202,
    );
    assert.equal(issue.approvalRequest.kind, "card_issue");
    const issued = await expectJson(await decide(t, team.checker, issue.approvalRequest.id, "approve"), 200);
    const cards = await expectJson(await t.request("GET", "/api/cards", { cookie: team.maker.cookie }), 200);
    assert.equal(
      cards.find((c: { id: string }) => c.id === issued.resultEntityId).currentBalance,
      "2000000.00",
    );
  });
});

Deno.test("thresholds and expiry are administrator settings, audited; a lower threshold takes effect at once", async () => {
  await withTeam(async (t, team) => {
    const settings = await expectJson(
      await t.request("GET", "/api/approval-settings", { cookie: team.maker.cookie }),
      200,
    );
    assert.deepEqual(settings, {
      thresholds: { USD: "1000000.00", EUR: "1000000.00", GBP: "1000000.00", JPY: "1000000.00" },
      expiryMinutes: 1440,
    });
    await expectJson(
      await t.request("PUT", "/api/approval-settings", {
        cookie: team.checker.cookie,
        body: { expiryMinutes: 60 },
      }),
      403,
    );
    const bad = await expectJson(
      await t.request("PUT", "/api/approval-settings", {
        cookie: team.admin,
        body: { thresholds: { USD: "-1" } },
      }),
      400,
    );
    assert(bad.fields["thresholds.USD"]);
    const changed = await expectJson(
      await t.request("PUT", "/api/approval-settings", {
        cookie: team.admin,
        body: { thresholds: { USD: "100.00" }, expiryMinutes: 60 },
      }),
      200,
    );
    assert.equal(changed.thresholds.USD, "100.00");
    assert.equal(changed.expiryMinutes, 60);
    const audit = await t.deps.db.read.all<{ changes: string }>(
      sql`SELECT changes FROM audit_trail WHERE entity_type = 'approval_settings'`,
    );
    assert.equal(JSON.parse(audit[0].changes).before.thresholds.USD, "1000000.00");

    const { ledger, liquid } = await fundedPair(t, team, "50.00");
    const pending = await expectJson(
      await sweep(t, team.maker, ledger.id, liquid.id, "100.01", "Above the new threshold"),
      422,
    );
    assert.equal(pending.reason, "insufficient_funds");
    const { ledger: rich } = await fundedPair(t, team, "500.00");
    const filed = await expectJson(
      await sweep(t, team.maker, rich.id, liquid.id, "100.01", "Above the new threshold"),
      202,
    );
    const hours =
      (Date.parse(filed.approvalRequest.expiresAt) - Date.parse(filed.approvalRequest.requestedAt)) /
      3_600_000;
    assert.equal(hours, 1);
  });
});

Deno.test("an institution's approval waits for a second person; the requester cannot approve it, an approver can", async () => {
  await withTeam(async (t, team) => {
    const institution = await expectJson(
      await t.request("POST", "/api/institutions", {
        cookie: team.both.cookie,
        body: {
          name: "Four Eyes Savings",
          type: "savings",
          registrationNumber: "REG-4E-1",
          address: "1 Dual Control Street",
          phoneNumber: "+1 555 0144",
          emailAddress: "ops@foureyes.test",
        },
      }),
      201,
    );
    const change = (who: Staff, body: Record<string, unknown>) =>
      t.request("PATCH", `/api/institutions/${institution.id}/status`, { cookie: who.cookie, body });
    const noReason = await expectJson(await change(team.both, { status: "active" }), 400);
    assert(noReason.fields.requestReason);
    const invalid = await expectJson(await change(team.both, { status: "suspended", requestReason: "x" }), 409);
    assert.equal(invalid.reason, "invalid_transition");
    const pending = await expectJson(await change(team.both, { status: "active", requestReason: "Licence granted" }), 202);
    assert.equal(pending.approvalRequest.kind, "institution_status");
    assert.equal(pending.approvalRequest.summary.institution.statusAfter, "active");
    const still = await expectJson(await t.request("GET", `/api/institutions/${institution.id}`, { cookie: team.maker.cookie }), 200);
    assert.equal(still.status, "pending");
    await expectJson(await decide(t, team.both, pending.approvalRequest.id, "approve"), 403);
    await expectJson(await decide(t, team.checker, pending.approvalRequest.id, "approve"), 200);
    const active = await expectJson(await t.request("GET", `/api/institutions/${institution.id}`, { cookie: team.maker.cookie }), 200);
    assert.equal(active.status, "active");
    // An approver cannot request: the status route is the operators'.
    const refused = await expectJson(await change(team.checker, { status: "suspended", requestReason: "x" }), 403);
    assert.equal(refused.message, "Only operators can request institution status changes");
  });
});

Deno.test("every automatic run with moves waits for approval; approved, it executes exactly the plan it showed", async () => {
  await withTeam(async (t, team) => {
    const { ledger, liquid } = await fundedPair(t, team, "1500000.00");
    const maker = t.as(team.maker.cookie);
    // Nothing above a threshold: nothing to approve and nothing moves.
    assert.deepEqual(
      await expectJson(await t.request("POST", "/api/balance-sweeps/auto-sweep", { cookie: team.maker.cookie }), 200),
      { sweepsExecuted: 0, sweepIds: [] },
    );

    await t.deps.db.transaction((tx) =>
      tx.run(sql`UPDATE ledger_accounts SET sweep_threshold_minor = 10000, target_liquid_account = ${liquid.id}
        WHERE id = ${ledger.id}`)
    );
    const pending = await expectJson(await t.request("POST", "/api/balance-sweeps/auto-sweep", { cookie: team.maker.cookie }), 202);
    assert.equal(pending.approvalRequest.kind, "auto_sweep");
    assert.equal(pending.approvalRequest.amount, "1499900.00");
    assert.equal(pending.approvalRequest.requestReason, "Sweep of the balances above their sweep thresholds");
    assert.match(pending.approvalRequest.summary.description, /\$1,499,900\.00 /);
    assert.equal((await balances(maker)).get(ledger.id), "1500000.00");
    await expectJson(await decide(t, team.maker, pending.approvalRequest.id, "approve"), 403);
    const approved = await expectJson(await decide(t, team.checker, pending.approvalRequest.id, "approve"), 200);
    assert.equal(approved.resultEntityType, "balance_sweep");
    const after = await balances(maker);
    assert.equal(after.get(ledger.id), "100.00");
    const sweep = await expectJson(
      await t.request("GET", `/api/balance-sweeps/${approved.resultEntityId}`, { cookie: team.maker.cookie }),
      200,
    );
    assert.equal(sweep.sweepType, "threshold");
    assert.equal(sweep.approvedBy, team.checker.id);

    // A small run is a request too. Approved, it moves exactly the amounts shown: if a source no
    // longer holds that much above its threshold, the approval moves nothing (422) and the request
    // stays pending; if it holds more, the approval still moves only what was approved.
    const threshold = (minor: number) =>
      t.deps.db.transaction((tx) =>
        tx.run(sql`UPDATE ledger_accounts SET sweep_threshold_minor = ${minor} WHERE id = ${ledger.id}`)
      );
    await threshold(5000);
    const small = await expectJson(
      await t.request("POST", "/api/balance-sweeps/auto-sweep", { cookie: team.maker.cookie }),
      202,
    );
    assert.equal(small.approvalRequest.amount, "50.00");
    await threshold(8000);
    const before = await writeCounts(t.deps.db);
    const changed = await expectJson(await decide(t, team.checker, small.approvalRequest.id, "approve"), 422);
    assert.match(changed.message, /changed since this run was requested/);
    assert.equal(changed.reason, "plan_changed");
    assert.deepEqual(await writeCounts(t.deps.db), before);
    const still = await expectJson(
      await t.request("GET", `/api/approvals/${small.approvalRequest.id}`, { cookie: team.maker.cookie }),
      200,
    );
    assert.equal(still.status, "pending");
    assert.equal((await balances(maker)).get(ledger.id), "100.00");

    await threshold(2000);
    await expectJson(await decide(t, team.checker, small.approvalRequest.id, "approve"), 200);
    assert.equal((await balances(maker)).get(ledger.id), "50.00");
  });
});

Deno.test("a keyed retry of a sweep that needs approval files one request and replays its answer", async () => {
  await withTeam(async (t, team) => {
    const { ledger, liquid } = await fundedPair(t, team, "3000000.00");
    const body = {
      sourceAccountId: ledger.id,
      targetAccountId: liquid.id,
      sweepAmount: "2000000.00",
      sweepType: "manual",
      sweepReason: "Quarter-end liquidity",
    };
    const send = (amount = body.sweepAmount) =>
      t.request("POST", "/api/balance-sweeps", {
        cookie: team.maker.cookie,
        headers: { "Idempotency-Key": "quarter-end-1" },
        body: { ...body, sweepAmount: amount },
      });
    const first = await send();
    assert.equal(first.status, 202);
    const firstText = await first.text();
    const retries = await Promise.all([send(), send(), send("2000000")]);
    for (const retry of retries) {
      assert.equal(retry.status, 202);
      assert.equal(retry.headers.get("Idempotent-Replayed"), "true");
      assert.equal(await retry.text(), firstText);
    }
    const other = await expectJson(await send("1500000.00"), 422);
    assert.equal(other.reason, "idempotency_mismatch");
    const requests = await t.deps.db.read.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM approval_requests WHERE kind = 'sweep'`,
    );
    assert.equal(requests[0].n, 1);
  });
});
