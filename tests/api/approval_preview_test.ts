/**
 * GET /api/approvals/preview answers, before submitting, what the action's own route then does:
 * each preview here is followed by the action itself, and the outcome must be the one announced
 * (execute: 201; approval: 202 with the same reasons).
 */
import assert from "node:assert/strict";
import type { ApprovalPreview } from "../../src/server/features/approvals/preview.ts";
import { createStaff } from "../helpers/staff.ts";
import { createTestApp, expectJson, type Requester, type TestApp } from "../helpers/test_app.ts";
import { createAccount } from "./ledger_helpers.ts";

const REASON = "Liquidity for the settlement window";


async function withMaker(fn: (t: TestApp, admin: string, maker: Requester) => Promise<void>) {
  const t = await createTestApp();
  try {
    const admin = await t.login();
    const staff = await createStaff(t, admin, `maker-${crypto.randomUUID().slice(0, 6)}@centralbank.test`, [
      "operator",
    ]);
    await fn(t, admin, t.as(staff.cookie));
  } finally {
    await t.close();
  }
}

async function preview(req: Requester, query: Record<string, string>): Promise<ApprovalPreview> {
  return await expectJson<ApprovalPreview>(await req("GET", `/api/approvals/preview?${new URLSearchParams(query)}`), 200);
}

/** Previews the sweep, makes it, and checks that the sweep did what the preview said. */
async function previewThenSweep(
  req: Requester,
  pair: { source: { id: string }; target: { id: string } },
  amount: string,
): Promise<ApprovalPreview> {
  const said = await preview(req, { action: "sweep", amount, accountId: pair.source.id });
  const answer = await req("POST", "/api/balance-sweeps", {
    body: {
      sourceAccountId: pair.source.id,
      targetAccountId: pair.target.id,
      sweepAmount: amount,
      sweepType: "manual",
      sweepReason: REASON,
    },
  });
  const body = await answer.json();
  assert.equal(answer.status, said.outcome === "execute" ? 201 : 202, `sweep of ${amount}: ${JSON.stringify(said)}`);
  if (said.outcome === "approval") assert.deepEqual(body.reasons, said.reasons);
  return said;
}

async function sweepPair(req: Requester) {
  const source = await createAccount(req, { accountType: "ledger", currentBalance: "5000000.00" });
  const target = await createAccount(req, { accountType: "liquid" });
  return { source, target };
}

Deno.test("the preview of a sweep below, at and above the threshold agrees with the sweep's outcome", async () => {
  await withMaker(async (_t, _admin, maker) => {
    const pair = await sweepPair(maker);
    const first = await previewThenSweep(maker, pair, "400000.00");
    assert.deepEqual(
      { outcome: first.outcome, threshold: first.threshold, makerTodayTotal: first.makerTodayTotal, reason: first.reason },
      { outcome: "execute", threshold: "1000000.00", makerTodayTotal: "0.00", reason: null },
    );
    assert.equal(first.currency, "USD");
    // The day's cumulative total: 400,000.00 moved, so 600,000.00 reaches the threshold exactly and executes.
    const atThreshold = await previewThenSweep(maker, pair, "600000.00");
    assert.equal(atThreshold.outcome, "execute");
    assert.equal(atThreshold.makerTodayTotal, "400000.00");
    const over = await previewThenSweep(maker, pair, "0.01");
    assert.equal(over.outcome, "approval");
    assert.equal(over.makerTodayTotal, "1000000.00");
    assert.deepEqual(over.reasons, [
      "Your manual movements in USD today would total $1,000,000.01, over the $1,000,000.00 threshold",
    ]);
  });
});

Deno.test("a single amount above the threshold previews as approval and is filed", async () => {
  await withMaker(async (_t, _admin, maker) => {
    const pair = await sweepPair(maker);
    const said = await previewThenSweep(maker, pair, "1200000.07");
    assert.equal(said.outcome, "approval");
    assert.equal(said.reason, "$1,200,000.07 is over the $1,000,000.00 threshold");
  });
});

Deno.test("the preview weighs the source account's daily outflow limit, whoever makes the movement", async () => {
  await withMaker(async (t, admin, maker) => {
    const pair = await sweepPair(maker);
    await expectJson(
      await t.as(admin)("PUT", `/api/ledger-accounts/${pair.source.id}/daily-outflow-limit`, {
        body: { dailyOutflowLimit: "500000.00" },
      }),
      200,
    );
    const within = await previewThenSweep(maker, pair, "300000.00");
    assert.deepEqual(within.account, {
      accountNumber: pair.source.accountNumber,
      outflowToday: "0.00",
      dailyOutflowLimit: "500000.00",
    });
    const over = await previewThenSweep(maker, pair, "300000.00");
    assert.equal(over.outcome, "approval");
    assert.equal(over.account?.outflowToday, "300000.00");
    assert.deepEqual(over.reasons, [
      `Account ${pair.source.accountNumber}'s outflow today would total $600,000.00, over its daily limit of $500,000.00`,
    ]);
  });
});

Deno.test("card funding previews count with the maker's sweeps against the same day total", async () => {
  await withMaker(async (_t, _admin, maker) => {
    const pair = await sweepPair(maker);
    await previewThenSweep(maker, pair, "700000.00");
    const said = await preview(maker, { action: "card_issue", amount: "400000.00" });
    assert.equal(said.outcome, "approval");
    assert.equal(said.makerTodayTotal, "700000.00");
    const issued = await maker("POST", "/api/cards/issue", {
      body: { cardholderName: "Ada Lovelace", initialBalance: "400000.00", requestReason: REASON },
    });
    assert.equal(issued.status, 202);
    assert.equal((await preview(maker, { action: "card_load", amount: "300000.00" })).outcome, "execute");
  });
});

Deno.test("opening balances, status changes and administration preview as their routes decide", async () => {
  await withMaker(async (t, admin, maker) => {
    assert.equal((await preview(maker, { action: "opening_balance", amount: "0.00" })).outcome, "execute");
    const funded = await preview(maker, { action: "opening_balance", amount: "10.00", currency: "EUR" });
    assert.equal(funded.outcome, "approval");
    assert.equal(funded.reason, "An account opened with a balance other than 0.00 needs a second person's approval");
    const body = {
      accountNumber: `PRE-${crypto.randomUUID().slice(0, 8)}`,
      accountType: "ledger",
      accountName: "Preview",
      currency: "EUR",
      currentBalance: "10.00",
      requestReason: REASON,
    };
    assert.equal((await maker("POST", "/api/ledger-accounts", { body })).status, 202);
    assert.equal((await preview(maker, { action: "institution_status" })).outcome, "approval");
    // One administrator acts alone; dual control is not in force.
    assert.equal((await preview(t.as(admin), { action: "user_create" })).outcome, "execute");
  });
});

Deno.test("the preview validates its query and is for makers only", async () => {
  await withMaker(async (t, _admin, maker) => {
    const missing = await expectJson(await maker("GET", "/api/approvals/preview?action=sweep"), 400);
    assert.ok(JSON.stringify(missing).includes("amount"));
    await expectJson(await maker("GET", "/api/approvals/preview?action=sweep&amount=1e3&accountId=x"), 400);
    await expectJson(await maker("GET", "/api/approvals/preview?action=nothing"), 400);
    await expectJson(
      await maker("GET", `/api/approvals/preview?action=sweep&amount=1.00&accountId=${crypto.randomUUID()}`),
      404,
    );
    const auditor = await createStaff(t, await t.login(), "preview-auditor@centralbank.test", ["auditor"]);
    await expectJson(await t.as(auditor.cookie)("GET", "/api/approvals/preview?action=institution_status"), 403);
  });
});
