/**
 * Idempotency-Key on every route that moves money (the card-network and account-data calls are in
 * fintech_test.ts, beside their provider doubles): the same key and body replay the first answer and
 * move money once, also when sent concurrently; another body or another route with the key is a 422;
 * a malformed key is a 400; a key belongs to its user. Card issue and distribution, card loads,
 * opening balances, the automatic sweep's request and approval decisions.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { ledgerAccounts } from "../../db/schema.ts";
import { migrate, splitStatements } from "../../src/server/db/migrate.ts";
import { FUNDING_SOURCE_ACCOUNTS } from "../../src/server/features/cards/funding_sources.ts";
import { createStaff, firstSignIn, operatorOf, secondPerson, type Staff } from "../helpers/staff.ts";
import { createTestApp, type Desk, expectJson, type TestApp } from "../helpers/test_app.ts";
import { balances, createAccount, nextAccountNumber } from "./ledger_helpers.ts";

const TREASURY = FUNDING_SOURCE_ACCOUNTS.central_bank_treasury.accountNumber;
/** Sent at once with one key: enough to meet in the write lock, few enough for a busy machine. */
const CONCURRENT_REQUESTS = 6;

async function withApp(fn: (t: TestApp, desk: Desk) => Promise<void>) {
  const t = await createTestApp();
  try {
    await fn(t, await t.desk());
  } finally {
    await t.close();
  }
}

interface Sent {
  status: number;
  text: string;
  replayed: boolean;
}

async function sent(res: Response): Promise<Sent> {
  return { status: res.status, text: await res.text(), replayed: res.headers.get("Idempotent-Replayed") === "true" };
}

async function concurrently(send: () => Promise<Response>, count = CONCURRENT_REQUESTS): Promise<Sent[]> {
  return await Promise.all(Array.from({ length: count }, async () => await sent(await send())));
}

/** Every answer has `status` and one body; exactly one was produced, the others replayed it. */
function assertOneAnswer(answers: readonly Sent[], status: number): Sent {
  assert.deepEqual(answers.map((answer) => answer.status), answers.map(() => status), answers[0].text);
  assert.equal(new Set(answers.map((answer) => answer.text)).size, 1, "every answer carries the same body");
  assert.equal(answers.filter((answer) => !answer.replayed).length, 1, "exactly one answer was produced");
  return answers[0];
}

function assertMismatch(error: { reason: string; message: string }, message: RegExp) {
  assert.equal(error.reason, "idempotency_mismatch");
  assert.match(error.message, message);
}

async function count(t: TestApp, table: string, where = "1 = 1"): Promise<number> {
  const rows = await t.deps.db.read.all<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM ${table} WHERE ${where}`));
  return rows[0].n;
}

async function balanceOf(t: TestApp, accountNumber: string): Promise<number> {
  const row = await t.deps.db.read.select({ minor: ledgerAccounts.currentBalanceMinor }).from(ledgerAccounts)
    .where(eq(ledgerAccounts.accountNumber, accountNumber)).get();
  assert.ok(row, accountNumber);
  return row.minor;
}

const key = (name: string) => ({ "Idempotency-Key": `${name}-${crypto.randomUUID()}` });

Deno.test("card issue: one key issues and funds one card, replays its 201, refuses another body or a bad key", async () => {
  await withApp(async (t, desk) => {
    const headers = key("issue");
    const body = { cardholderName: "Ada Lovelace", initialBalance: "250.00", requestReason: "Desk float" };
    const treasury = await balanceOf(t, TREASURY);
    const first = assertOneAnswer(await concurrently(() => desk("POST", "/api/cards/issue", { body, headers })), 201);
    assert.equal(JSON.parse(first.text).fundingConfirmation.amount, "250.00");
    assert.equal(await count(t, "cards"), 1);
    assert.equal(await balanceOf(t, TREASURY), treasury - 25_000);

    // "250" is the same amount as "250.00": the same request, replayed.
    const same = await sent(await desk("POST", "/api/cards/issue", { body: { ...body, initialBalance: "250" }, headers }));
    assert.deepEqual(same, { ...first, replayed: true });
    const other = await desk("POST", "/api/cards/issue", { body: { ...body, initialBalance: "251.00" }, headers });
    assertMismatch(await expectJson(other, 422), /different request body/);
    const reason = await desk("POST", "/api/cards/issue", { body: { ...body, requestReason: "Other" }, headers });
    assertMismatch(await expectJson(reason, 422), /different request body/);
    const badKey = await desk("POST", "/api/cards/issue", { body, headers: { "Idempotency-Key": "has space" } });
    assert.ok((await expectJson(badKey, 400)).fields["Idempotency-Key"]);
    const tooLong = await desk("POST", "/api/cards/issue", { body, headers: { "Idempotency-Key": "k".repeat(256) } });
    assert.ok((await expectJson(tooLong, 400)).fields["Idempotency-Key"]);
    assert.equal(await count(t, "cards"), 1);
    assert.equal(await balanceOf(t, TREASURY), treasury - 25_000);
  });
});

Deno.test("card distribution: one key distributes and funds one card and replays its 201", async () => {
  await withApp(async (t, desk) => {
    const headers = key("distribute");
    const body = { recipientInfo: { name: "Grace Hopper", email: "grace@example.test" }, loadAmount: "75.50" };
    const treasury = await balanceOf(t, TREASURY);
    const send = () => desk("POST", "/api/cards/distribute", { body, headers });
    const first = assertOneAnswer(await concurrently(send), 201);
    assert.deepEqual(await sent(await send()), { ...first, replayed: true });
    assert.equal(await count(t, "cards"), 1);
    assert.equal(await count(t, "card_loads"), 1);
    assert.equal(await balanceOf(t, TREASURY), treasury - 7_550);
    const other = { ...body, recipientInfo: { ...body.recipientInfo, name: "Grace B. Hopper" } };
    assertMismatch(await expectJson(await desk("POST", "/api/cards/distribute", { body: other, headers }), 422), /body/);
  });
});

Deno.test("card load: one key loads once; the same key for another card is another request", async () => {
  await withApp(async (t, desk) => {
    const card = await expectJson(await desk("POST", "/api/cards/issue", { body: { cardholderName: "Alan Turing" } }), 201);
    const other = await expectJson(await desk("POST", "/api/cards/issue", { body: { cardholderName: "Joan Clarke" } }), 201);
    const headers = key("load");
    const body = { amount: "40.00", fundingSource: "settlement_source" };
    const settlement = FUNDING_SOURCE_ACCOUNTS.settlement_source.accountNumber;
    const before = await balanceOf(t, settlement);
    const send = () => desk("POST", `/api/cards/${card.id}/load`, { body, headers });
    const first = assertOneAnswer(await concurrently(send), 200);
    assert.equal(JSON.parse(first.text).card.currentBalance, "40.00");
    assert.deepEqual(await sent(await send()), { ...first, replayed: true });
    assert.equal(await balanceOf(t, settlement), before - 4_000);
    assert.equal(await count(t, "card_loads"), 1);

    const elsewhere = await desk("POST", `/api/cards/${other.id}/load`, { body, headers });
    assertMismatch(await expectJson(elsewhere, 422), /body/);
    // A refusal is the key's answer too: a card that does not exist stays a 404 for that key.
    const missingHeaders = key("missing-card");
    const missing = await sent(await desk("POST", "/api/cards/no-such-card/load", { body, headers: missingHeaders }));
    assert.equal(missing.status, 404);
    const again = await sent(await desk("POST", "/api/cards/no-such-card/load", { body, headers: missingHeaders }));
    assert.deepEqual(again, { ...missing, replayed: true });
    assert.equal(await balanceOf(t, settlement), before - 4_000);
  });
});

Deno.test("a keyed card load over the maker's threshold is filed for approval once and its 202 replayed", async () => {
  await withApp(async (t, desk) => {
    await expectJson(await desk("PUT", "/api/approval-settings", { body: { thresholds: { USD: "100.00" } } }), 200);
    const card = await expectJson(await desk("POST", "/api/cards/issue", { body: { cardholderName: "Katherine Johnson" } }), 201);
    const headers = key("over-limit");
    const body = { amount: "150.00", requestReason: "Field allowance" };
    const treasury = await balanceOf(t, TREASURY);
    const send = () => desk("POST", `/api/cards/${card.id}/load`, { body, headers });
    const first = assertOneAnswer(await concurrently(send), 202);
    assert.equal(JSON.parse(first.text).approvalRequest.kind, "card_load");
    assert.equal(await count(t, "approval_requests", "kind = 'card_load'"), 1);
    assert.equal(await balanceOf(t, TREASURY), treasury);

    const checker = await secondPerson(t);
    const id = JSON.parse(first.text).approvalRequest.id;
    await expectJson(
      await t.request("POST", `/api/approvals/${id}/approve`, { cookie: checker.cookie, body: { reason: "Fine" } }),
      200,
    );
    assert.equal(await balanceOf(t, TREASURY), treasury - 15_000);
    assert.deepEqual(await sent(await send()), { ...first, replayed: true });
    assert.equal(await balanceOf(t, TREASURY), treasury - 15_000);
  });
});

async function ledgerEntriesOf(t: TestApp, accountId: string): Promise<number> {
  return await count(t, "ledger_entries", `account_id = '${accountId.replaceAll("'", "''")}'`);
}

Deno.test("opening balance: one key files one request, replays its 202 after approval, and books the opening once", async () => {
  await withApp(async (t, desk) => {
    const headers = key("opening");
    const body = {
      accountNumber: nextAccountNumber("reserve"),
      accountType: "ledger",
      accountName: "Reserve",
      currentBalance: "5000.00",
      requestReason: "Opening the reserve",
    };
    const send = () => desk("POST", "/api/ledger-accounts", { body, headers });
    const first = assertOneAnswer(await concurrently(send), 202);
    assert.equal(await count(t, "approval_requests", "kind = 'opening_balance'"), 1);

    const checker = await secondPerson(t);
    const decided = await expectJson(
      await t.request("POST", `/api/approvals/${JSON.parse(first.text).approvalRequest.id}/approve`, {
        cookie: checker.cookie,
        body: { reason: "Funds received" },
      }),
      200,
    );
    assert.equal(await balanceOf(t, body.accountNumber), 500_000);
    assert.deepEqual(await sent(await send()), { ...first, replayed: true });
    assert.equal(await count(t, "approval_requests", "kind = 'opening_balance'"), 1);
    assert.equal(await ledgerEntriesOf(t, decided.resultEntityId), 1);
    assert.equal(await balanceOf(t, body.accountNumber), 500_000);
    const other = await desk("POST", "/api/ledger-accounts", { body: { ...body, currentBalance: "5000.01" }, headers });
    assertMismatch(await expectJson(other, 422), /body/);
  });
});

Deno.test("an account opened at zero with a key is created once; a taken account number is the key's 409", async () => {
  await withApp(async (t, desk) => {
    const headers = key("open-empty");
    const body = { accountNumber: nextAccountNumber("liquid"), accountType: "liquid", accountName: "Liquid" };
    const send = () => desk("POST", "/api/ledger-accounts", { body, headers });
    const first = assertOneAnswer(await concurrently(send), 201);
    assert.equal(await count(t, "ledger_accounts", `account_number = '${body.accountNumber}'`), 1);
    assert.equal(await ledgerEntriesOf(t, JSON.parse(first.text).id), 1);

    const takenHeaders = key("taken");
    const taken = await sent(await desk("POST", "/api/ledger-accounts", { body, headers: takenHeaders }));
    assert.equal(taken.status, 409);
    const again = await sent(await desk("POST", "/api/ledger-accounts", { body, headers: takenHeaders }));
    assert.deepEqual(again, { ...taken, replayed: true });
  });
});

/** An opening balance filed by the desk, waiting for a second person. */
async function filedOpening(desk: Desk, opening: string): Promise<{ id: string; accountNumber: string }> {
  const accountNumber = nextAccountNumber("ledger");
  const filed = await expectJson(
    await desk("POST", "/api/ledger-accounts", {
      body: { accountNumber, accountType: "ledger", accountName: "Ledger", currentBalance: opening, requestReason: "Open" },
    }),
    202,
  );
  return { id: filed.approvalRequest.id, accountNumber };
}

Deno.test("approve: one key executes the request once and replays its 200; reject and another reason are refused", async () => {
  await withApp(async (t, desk) => {
    const checker = await secondPerson(t);
    const request = await filedOpening(desk, "1234.56");
    const headers = key("approve");
    const approve = (reason = "Checked the figures") =>
      t.request("POST", `/api/approvals/${request.id}/approve`, { cookie: checker.cookie, body: { reason }, headers });
    const first = assertOneAnswer(await concurrently(() => approve()), 200);
    const decided = JSON.parse(first.text);
    assert.equal(decided.status, "approved");
    assert.equal(await balanceOf(t, request.accountNumber), 123_456);
    assert.equal(await ledgerEntriesOf(t, decided.resultEntityId), 1);
    assert.deepEqual(await sent(await approve()), { ...first, replayed: true });

    assertMismatch(await expectJson(await approve("Another reason"), 422), /body/);
    const reject = t.request("POST", `/api/approvals/${request.id}/reject`, {
      cookie: checker.cookie,
      body: { reason: "Checked the figures" },
      headers,
    });
    assertMismatch(await expectJson(await reject, 422), /different operation/);
    assert.equal(await balanceOf(t, request.accountNumber), 123_456);
    assert.equal(await count(t, "audit_trail", `entity_id = '${request.id}' AND action = 'approve'`), 1);
  });
});

Deno.test("reject: one key rejects once and replays its 200; a decision refused is the key's answer too", async () => {
  await withApp(async (t, desk) => {
    const checker = await secondPerson(t);
    const request = await filedOpening(desk, "10.00");
    const headers = key("reject");
    const reject = () =>
      t.request("POST", `/api/approvals/${request.id}/reject`, { cookie: checker.cookie, body: { reason: "No" }, headers });
    const first = assertOneAnswer(await concurrently(reject), 200);
    assert.equal(JSON.parse(first.text).status, "rejected");
    assert.equal(await count(t, "ledger_accounts", `account_number = '${request.accountNumber}'`), 0);

    const lateHeaders = key("late");
    const late = () =>
      t.request("POST", `/api/approvals/${request.id}/approve`, {
        cookie: checker.cookie,
        body: { reason: "Late" },
        headers: lateHeaders,
      });
    const refused = await sent(await late());
    assert.equal(refused.status, 409);
    assert.deepEqual(await sent(await late()), { ...refused, replayed: true });
    assert.equal(await count(t, "ledger_accounts", `account_number = '${request.accountNumber}'`), 0);
  });
});

Deno.test("a keyed approval that makes a user hands out the one-time password once: a replay answers without it", async () => {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const second = await createStaff(t, admin, "second.admin@centralbank.test", ["administrator"]);
    const filed = await expectJson(
      await t.request("POST", "/api/users", {
        cookie: admin,
        body: { email: "new.clerk@centralbank.test", roles: ["operator"], requestReason: "Staffing the desk" },
      }),
      202,
    );
    const headers = key("user-create");
    const approve = () =>
      t.request("POST", `/api/approvals/${filed.approvalRequest.id}/approve`, {
        cookie: second.cookie,
        body: { reason: "Known to us" },
        headers,
      });
    const first = await approve();
    assert.equal(first.headers.get("Cache-Control"), "no-store");
    const made = await expectJson(first, 200);
    assert.equal(typeof made.initialPassword, "string");
    const replay = await approve();
    assert.equal(replay.headers.get("Idempotent-Replayed"), "true");
    const { initialPassword, ...withoutPassword } = made;
    assert.deepEqual(await expectJson(replay, 200), withoutPassword);
    const kept = await t.deps.db.read.all<{ body: string }>(sql`SELECT response_body AS body FROM idempotency_keys`);
    assert.ok(kept.every((row) => !row.body.includes(initialPassword)), "the one-time password is never stored");
    await firstSignIn(t, made.resultEntityId, "new.clerk@centralbank.test", initialPassword);
  } finally {
    await t.close();
  }
});

Deno.test("a key belongs to its user and names one operation: another route with it is a 422", async () => {
  await withApp(async (t, desk) => {
    const shared = { "Idempotency-Key": "desk-2025-0001" };
    const body = { cardholderName: "Mary Jackson", initialBalance: "10.00" };
    await expectJson(await desk("POST", "/api/cards/issue", { body, headers: shared }), 201);
    const elsewhere = await desk("POST", "/api/cards/distribute", {
      body: { recipientInfo: { name: "Mary Jackson", email: "mary@example.test" } },
      headers: shared,
    });
    assertMismatch(await expectJson(elsewhere, 422), /different operation/);
    const sweep = await desk("POST", "/api/balance-sweeps", {
      body: { sourceAccountId: "a", targetAccountId: "b", sweepAmount: "1.00" },
      headers: shared,
    });
    assertMismatch(await expectJson(sweep, 422), /different operation/);

    // Another operator's key of the same text is theirs: their request runs.
    const colleague: Staff = await operatorOf(t);
    const theirs = await t.request("POST", "/api/cards/issue", { cookie: colleague.cookie, body, headers: shared });
    await expectJson(theirs, 201);
    assert.equal(theirs.headers.get("Idempotent-Replayed"), null);
    assert.equal(await count(t, "cards"), 2);
  });
});

Deno.test("auto-sweep: one key files one run, replays its 202 after approval, and sweeps the excess once", async () => {
  await withApp(async (t, desk) => {
    const liquid = await createAccount(desk, { accountType: "liquid" });
    const source = await createAccount(desk, {
      currentBalance: "300.00",
      sweepThreshold: "100.00",
      targetLiquidAccount: liquid.id,
    });
    const { planId } = await expectJson(await desk("GET", "/api/balance-sweeps/auto-sweep/plan"), 200);
    const headers = key("auto-sweep");
    const send = () => desk("POST", "/api/balance-sweeps/auto-sweep", { body: { planId }, headers });
    const first = assertOneAnswer(await concurrently(send), 202);
    assert.equal(await count(t, "approval_requests", "kind = 'auto_sweep'"), 1);
    const checker = await secondPerson(t);
    await expectJson(
      await t.request("POST", `/api/approvals/${JSON.parse(first.text).approvalRequest.id}/approve`, {
        cookie: checker.cookie,
        body: { reason: "Checked" },
      }),
      200,
    );
    assert.deepEqual(await sent(await send()), { ...first, replayed: true });
    assert.equal(await count(t, "approval_requests", "kind = 'auto_sweep'"), 1);
    const now = await balances(desk);
    assert.equal(now.get(source.id), "100.00");
    assert.equal(now.get(liquid.id), "200.00");
    assert.equal(await count(t, "balance_sweeps"), 1);
  });
});

/** The request hash of a manual sweep before keys were shared by every route (migration 1410). */
function legacySweepHash(source: string, target: string, amountMinor: bigint, reason: string | null): string {
  const canonical = JSON.stringify([source, target, amountMinor.toString(), "manual", reason]);
  return createHash("sha256").update(canonical).digest("hex");
}

Deno.test("migration 1410 carries the manual sweep's kept answers over: a retry after the upgrade replays", async () => {
  await withApp(async (t, desk) => {
    const me = await expectJson(await t.request("GET", "/api/auth/user", { cookie: desk.operatorCookie }), 200);
    const legacy = new URL("../../db/migrations/0400_sweep_idempotency_and_schedule.sql", import.meta.url);
    const createLegacy = splitStatements(await Deno.readTextFile(legacy))
      .filter((statement) => statement.includes("sweep_idempotency_keys"));
    const kept = { message: "Insufficient funds", code: "unprocessable", reason: "insufficient_funds" };
    await t.deps.db.transaction(async (tx) => {
      await tx.run(sql`DROP TABLE idempotency_keys`);
      await tx.run(sql`DELETE FROM schema_migrations WHERE name = '1410_idempotency_keys.sql'`);
      for (const statement of createLegacy) await tx.run(sql.raw(statement));
      await tx.run(sql`INSERT INTO sweep_idempotency_keys
        (user_id, idempotency_key, request_hash, response_status, response_body, sweep_id, created_at)
        VALUES (${me.id}, 'before-upgrade', ${legacySweepHash("src", "tgt", 1_000n, "Top-up")}, 422,
          ${JSON.stringify(kept)}, NULL, '2025-01-07T10:00:00.000Z')`);
    });
    assert.deepEqual(await migrate(t.deps.db), ["1410_idempotency_keys.sql"]);
    assert.equal(await count(t, "sqlite_master", "name = 'sweep_idempotency_keys'"), 0);
    const retry = await desk("POST", "/api/balance-sweeps", {
      body: { sourceAccountId: "src", targetAccountId: "tgt", sweepAmount: "10", sweepReason: "Top-up" },
      headers: { "Idempotency-Key": "before-upgrade" },
    });
    assert.equal(retry.headers.get("Idempotent-Replayed"), "true");
    assert.deepEqual(await expectJson(retry, 422), kept);
  });
});
