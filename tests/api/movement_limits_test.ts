/**
 * Cumulative four-eyes limits: what one maker moves alone per currency per UTC day counts towards the
 * approval threshold (1,000,000.00 by default), and an account's daily outflow limit holds for every
 * maker. The makers are operators made by the administrator; approvals come from a second person.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { createStaff, type Staff } from "../helpers/staff.ts";
import { approvedBySecondPerson } from "../helpers/staff.ts";
import { createTestApp, expectJson, type Requester, type TestApp } from "../helpers/test_app.ts";
import { createAccount } from "./ledger_helpers.ts";

const SPLIT = "150000.00";
const REASON = "Liquidity for the settlement window";

async function withApp(fn: (t: TestApp, admin: string) => Promise<void>) {
  const t = await createTestApp();
  try {
    await fn(t, await t.login());
  } finally {
    await t.close();
  }
}

async function operator(t: TestApp, admin: string, name: string): Promise<Staff & { req: Requester }> {
  const staff = await createStaff(t, admin, `${name}-${crypto.randomUUID().slice(0, 6)}@centralbank.test`, [
    "operator",
  ]);
  return { ...staff, req: t.as(staff.cookie) };
}

/** A ledger account funded (with a second person's approval) and a liquid account to sweep into. */
async function sweepPair(req: Requester, currency: "USD" | "EUR" = "USD", opening = "5000000.00") {
  const source = await createAccount(req, { accountType: "ledger", currency, currentBalance: opening });
  const target = await createAccount(req, { accountType: "liquid", currency });
  return { source, target };
}

function sweep(req: Requester, pair: { source: { id: string }; target: { id: string } }, amount: string) {
  return req("POST", "/api/balance-sweeps", {
    body: {
      sourceAccountId: pair.source.id,
      targetAccountId: pair.target.id,
      sweepAmount: amount,
      sweepType: "manual",
      sweepReason: REASON,
    },
  });
}

async function balanceOf(req: Requester, id: string): Promise<string> {
  const accounts = await expectJson<{ id: string; currentBalance: string }[]>(
    await req("GET", "/api/ledger-accounts"),
    200,
  );
  return accounts.find((account) => account.id === id)!.currentBalance;
}

async function accountOf(req: Requester, id: string) {
  const accounts = await expectJson<{ id: string }[]>(await req("GET", "/api/ledger-accounts"), 200);
  return accounts.find((account) => account.id === id) as any;
}

async function pendingCount(t: TestApp): Promise<number> {
  const rows = await t.deps.db.readClient.execute(
    "SELECT count(*) AS n FROM approval_requests WHERE status = 'pending'",
  );
  return Number(rows.rows[0].n);
}

Deno.test("of ten split sweeps of 150,000.00 by one maker, the seventh crosses the day total and is a request", async () => {
  await withApp(async (t, admin) => {
    const maker = await operator(t, admin, "splitter");
    const pair = await sweepPair(maker.req);
    const statuses: number[] = [];
    const bodies: any[] = [];
    for (let i = 0; i < 10; i++) {
      const answer = await sweep(maker.req, pair, SPLIT);
      statuses.push(answer.status);
      bodies.push(await answer.json());
    }
    assert.deepEqual(statuses, [201, 201, 201, 201, 201, 201, 202, 202, 202, 202]);
    assert.equal(
      bodies[6].message,
      "Your manual movements in USD today would total $1,050,000.00, over the $1,000,000.00 threshold. " +
        "Submitted for approval: a second person with the approver role must approve it",
    );
    assert.deepEqual(bodies[6].reasons, [
      "Your manual movements in USD today would total $1,050,000.00, over the $1,000,000.00 threshold",
    ]);
    assert.equal(bodies[6].approvalRequest.amount, SPLIT);
    assert.equal(bodies[6].approvalRequest.requestReason, REASON);
    // Only the six that executed moved money; the requests wait.
    assert.equal(await balanceOf(maker.req, pair.source.id), "4100000.00");
    assert.equal(await balanceOf(maker.req, pair.target.id), "900000.00");
    assert.equal(await pendingCount(t), 4);
  });
});

Deno.test("approved movements and pending requests do not count towards the maker's day total", async () => {
  await withApp(async (t, admin) => {
    const maker = await operator(t, admin, "checked");
    const pair = await sweepPair(maker.req);
    for (let i = 0; i < 6; i++) await expectJson(await sweep(maker.req, pair, SPLIT), 201);
    const crossing = await sweep(maker.req, pair, SPLIT);
    const decided = await approvedBySecondPerson(maker.req, crossing);
    assert.equal(decided.status, "approved");
    const executed = await expectJson(
      await maker.req("GET", `/api/balance-sweeps/${decided.resultEntityId}`),
      200,
    );
    assert.ok(executed.approvedBy, "the crossing sweep executed with a second person's approval");
    // 900,000.00 alone + 100,000.00 = the threshold exactly: at the threshold still executes alone.
    await expectJson(await sweep(maker.req, pair, "100000.00"), 201);
    await expectJson(await sweep(maker.req, pair, "0.01"), 202);
    const [total] = (await t.deps.db.readClient.execute({
      sql: "SELECT moved_minor AS moved FROM maker_daily_totals WHERE maker_id = ?",
      args: [maker.id],
    })).rows;
    assert.equal(Number(total.moved), 100_000_000);
  });
});

Deno.test("a keyed sweep that crosses the day total is filed once and its 202 replayed", async () => {
  await withApp(async (t, admin) => {
    const maker = await operator(t, admin, "keyed");
    const pair = await sweepPair(maker.req);
    await expectJson(await sweep(maker.req, pair, "900000.00"), 201);
    const body = {
      sourceAccountId: pair.source.id,
      targetAccountId: pair.target.id,
      sweepAmount: "200000.00",
      sweepType: "manual",
      sweepReason: REASON,
    };
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const first = await expectJson(await maker.req("POST", "/api/balance-sweeps", { body, headers }), 202);
    const retry = await maker.req("POST", "/api/balance-sweeps", { body, headers });
    assert.equal(retry.headers.get("Idempotent-Replayed"), "true");
    const replayed = await expectJson(retry, 202);
    assert.equal(replayed.approvalRequest.id, first.approvalRequest.id);
    assert.match(first.message, /would total \$1,100,000\.00, over the \$1,000,000\.00 threshold/);
    assert.equal(await pendingCount(t), 1);
    assert.equal(await balanceOf(maker.req, pair.target.id), "900000.00");
  });
});

Deno.test("three cards issued or distributed with 400,000.00 each: the third is a request", async () => {
  await withApp(async (t, admin) => {
    const maker = await operator(t, admin, "cards");
    const issue = () =>
      maker.req("POST", "/api/cards/issue", {
        body: { cardholderName: "Ada Lovelace", initialBalance: "400000.00", requestReason: REASON },
      });
    await expectJson(await issue(), 201);
    await expectJson(
      await maker.req("POST", "/api/cards/distribute", {
        body: {
          recipientInfo: { name: "Grace Hopper", email: "grace@example.org" },
          loadAmount: "400000.00",
        },
      }),
      201,
    );
    const third = await expectJson(await issue(), 202);
    assert.equal(third.approvalRequest.kind, "card_issue");
    assert.deepEqual(third.reasons, [
      "Your manual movements in USD today would total $1,200,000.00, over the $1,000,000.00 threshold",
    ]);
    const cards = await expectJson<unknown[]>(await maker.req("GET", "/api/cards"), 200);
    assert.equal(cards.length, 2, "the third card is not issued until approved");
    // A free card moves nothing and stays outside the totals.
    await expectJson(await maker.req("POST", "/api/cards/issue", { body: { cardholderName: "Free" } }), 201);
  });
});

Deno.test("a card load counts with the maker's sweeps in the same currency; other currencies apart", async () => {
  await withApp(async (t, admin) => {
    const maker = await operator(t, admin, "loader");
    const card = await expectJson(
      await maker.req("POST", "/api/cards/issue", { body: { cardholderName: "Ada Lovelace" } }),
      201,
    );
    const usd = await sweepPair(maker.req);
    const eur = await sweepPair(maker.req, "EUR");
    await expectJson(await sweep(maker.req, usd, "900000.00"), 201);
    await expectJson(await sweep(maker.req, eur, "900000.00"), 201);
    const load = (amount: string) =>
      maker.req("POST", `/api/cards/${card.id}/load`, { body: { amount, requestReason: REASON } });
    await expectJson(await load("100000.00"), 200);
    const over = await expectJson(await load("0.01"), 202);
    assert.equal(over.approvalRequest.kind, "card_load");
    assert.match(over.message, /^Your manual movements in USD today would total \$1,000,000\.01/);
    const decided = await approvedBySecondPerson(maker.req, await load("50000.00"));
    assert.equal(decided.status, "approved");
    // EUR is counted apart: 900,000.00 so far.
    await expectJson(await sweep(maker.req, eur, "100000.00"), 201);
    await expectJson(await sweep(maker.req, eur, "0.01"), 202);
  });
});

Deno.test("two makers have separate day totals", async () => {
  await withApp(async (t, admin) => {
    const first = await operator(t, admin, "first");
    const second = await operator(t, admin, "second");
    const pair = await sweepPair(first.req);
    await expectJson(await sweep(first.req, pair, "900000.00"), 201);
    await expectJson(await sweep(second.req, pair, "900000.00"), 201);
    await expectJson(await sweep(second.req, pair, "100000.00"), 201);
    await expectJson(await sweep(first.req, pair, "200000.00"), 202);
    await expectJson(await sweep(second.req, pair, "0.01"), 202);
  });
});

Deno.test("a new UTC day starts the maker's total and the account's outflow from zero", async () => {
  await withApp(async (t, admin) => {
    const maker = await operator(t, admin, "overnight");
    const pair = await sweepPair(maker.req);
    await expectJson(
      await t.as(admin)("PUT", `/api/ledger-accounts/${pair.source.id}/daily-outflow-limit`, {
        body: { dailyOutflowLimit: "1000000.00" },
      }),
      200,
    );
    await expectJson(await sweep(maker.req, pair, "1000000.00"), 201);
    await expectJson(await sweep(maker.req, pair, "0.01"), 202);
    // Yesterday's rows as a day key of the past: the totals are per UTC day.
    await t.deps.db.transaction(async (tx) => {
      await tx.run(sql`UPDATE maker_daily_totals SET day = '2000-01-01'`);
      await tx.run(sql`UPDATE account_daily_outflows SET day = '2000-01-01'`);
    });
    await expectJson(await sweep(maker.req, pair, "1000000.00"), 201);
    await expectJson(await sweep(maker.req, pair, "0.01"), 202);
  });
});

Deno.test("an account's daily outflow limit sends every maker's movement over it to a second person", async () => {
  await withApp(async (t, admin) => {
    const first = await operator(t, admin, "outflow-a");
    const second = await operator(t, admin, "outflow-b");
    const pair = await sweepPair(first.req);
    const setLimit = (cookie: string, dailyOutflowLimit: unknown) =>
      t.request("PUT", `/api/ledger-accounts/${pair.source.id}/daily-outflow-limit`, {
        cookie,
        body: { dailyOutflowLimit },
      });
    const forbidden = await expectJson(await setLimit(first.cookie, "500000.00"), 403);
    assert.deepEqual(forbidden.requiredRoles, ["administrator"]);
    const set = await expectJson(await setLimit(admin, "500000.00"), 200);
    assert.equal(set.dailyOutflowLimit, "500000.00");
    assert.equal((await accountOf(first.req, pair.source.id)).dailyOutflowLimit, "500000.00");

    await expectJson(await sweep(first.req, pair, "300000.00"), 201);
    const over = await expectJson(await sweep(second.req, pair, "300000.00"), 202);
    assert.deepEqual(over.reasons, [
      `Account ${pair.source.accountNumber}'s outflow today would total $600,000.00, over its daily limit of $500,000.00`,
    ]);
    await expectJson(await sweep(second.req, pair, "200000.00"), 201);
    await expectJson(await sweep(first.req, pair, "0.01"), 202);
    // Other accounts are not limited by it.
    const other = await sweepPair(first.req);
    await expectJson(await sweep(first.req, other, "300000.00"), 201);

    const removed = await expectJson(await setLimit(admin, null), 200);
    assert.equal(removed.dailyOutflowLimit, null);
    await expectJson(await sweep(second.req, pair, "300000.00"), 201);

    const [audit] = (await t.deps.db.readClient.execute({
      sql: `SELECT changes FROM audit_trail WHERE entity_id = ? AND action = 'set_daily_outflow_limit'
        ORDER BY rowid LIMIT 1`,
      args: [pair.source.id],
    })).rows;
    assert.deepEqual(JSON.parse(String(audit.changes)), {
      before: { dailyOutflowLimit: null },
      after: { dailyOutflowLimit: "500000.00" },
      currency: "USD",
      control: { source: "sole_administrator", dualControl: "not in force: one administrator acted alone" },
    });
  });
});

Deno.test("both reasons are given when a movement breaks the maker's total and the account's limit", async () => {
  await withApp(async (t, admin) => {
    const maker = await operator(t, admin, "both");
    const treasury = (await expectJson<{ fundingSource: string; accountNumber: string }[]>(
      await maker.req("GET", "/api/cards/funding-sources"),
      200,
    )).find((source) => source.fundingSource === "central_bank_treasury")!;
    const accounts = await expectJson<{ id: string; accountNumber: string }[]>(
      await maker.req("GET", "/api/ledger-accounts"),
      200,
    );
    const treasuryId = accounts.find((account) => account.accountNumber === treasury.accountNumber)!.id;
    await expectJson(
      await t.as(admin)("PUT", `/api/ledger-accounts/${treasuryId}/daily-outflow-limit`, {
        body: { dailyOutflowLimit: "250000.00" },
      }),
      200,
    );
    const issue = (initialBalance: string) =>
      maker.req("POST", "/api/cards/issue", {
        body: { cardholderName: "Ada Lovelace", initialBalance, requestReason: REASON },
      });
    await expectJson(await issue("250000.00"), 201);
    const limited = await expectJson(await issue("0.01"), 202);
    assert.equal(limited.reasons.length, 1);
    assert.match(limited.reasons[0], /^Account CB-TREASURY-001's outflow today would total \$250,000\.01,/);
    const both = await expectJson(await issue("2000000.00"), 202);
    assert.deepEqual(both.reasons, [
      "Your manual movements in USD today would total $2,250,000.00, over the $1,000,000.00 threshold",
      "Account CB-TREASURY-001's outflow today would total $2,250,000.00, over its daily limit of $250,000.00",
    ]);
  });
});

Deno.test("the daily outflow limit is validated: amounts as decimal strings or null, known accounts only", async () => {
  await withApp(async (t, admin) => {
    const req = t.as(admin);
    const maker = await operator(t, admin, "validation");
    const { source } = await sweepPair(maker.req);
    const put = (id: string, body: unknown) =>
      req("PUT", `/api/ledger-accounts/${id}/daily-outflow-limit`, { body });
    for (const dailyOutflowLimit of ["-1.00", "abc", "1.001", "99999999999999.00", true]) {
      const refused = await expectJson(await put(source.id, { dailyOutflowLimit }), 400);
      assert.ok(refused.fields?.dailyOutflowLimit, JSON.stringify(refused));
    }
    await expectJson(await put(source.id, {}), 400);
    await expectJson(await put("no-such-account", { dailyOutflowLimit: "1.00" }), 404);
    assert.equal(
      (await expectJson(await put(source.id, { dailyOutflowLimit: "0.00" }), 200)).dailyOutflowLimit,
      "0.00",
    );
  });
});

Deno.test("parallel sweeps from two processes never pass alone together when their sum crosses the threshold", async () => {
  await withApp(async (t, admin) => {
    const other = await createTestApp({}, { dataDir: t.dataDir });
    try {
      const maker = await operator(t, admin, "parallel");
      const pair = await sweepPair(maker.req);
      const apps = [maker.req, other.as(maker.cookie)];
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => sweep(apps[i % 2], pair, SPLIT)),
      );
      const statuses = answers.map((answer) => answer.status);
      await Promise.all(answers.map((answer) => answer.body?.cancel()));
      assert.equal(statuses.filter((status) => status === 201).length, 6, JSON.stringify(statuses));
      assert.equal(statuses.filter((status) => status === 202).length, 14, JSON.stringify(statuses));
      assert.equal(await balanceOf(maker.req, pair.target.id), "900000.00");
      const [total] = (await t.deps.db.readClient.execute({
        sql: "SELECT moved_minor AS moved FROM maker_daily_totals WHERE maker_id = ?",
        args: [maker.id],
      })).rows;
      assert.equal(Number(total.moved), 90_000_000);
    } finally {
      await other.close();
    }
  });
});
