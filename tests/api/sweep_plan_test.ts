/** Issue 23: the automatic sweep's plan, shown before it runs, and the run that keeps to it. */
import assert from "node:assert/strict";
import { createTestApp, expectJson } from "../helpers/test_app.ts";
import { balances, createAccount, runAutoSweepApproved, writeCounts } from "./ledger_helpers.ts";

Deno.test("GET /api/balance-sweeps/auto-sweep/plan lists the moves and totals per currency, moving nothing", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const usdLiquid = await createAccount(req, { accountType: "liquid", accountName: "USD Liquidity" });
    const eurLiquid = await createAccount(req, {
      accountType: "liquid",
      currency: "EUR",
      accountName: "EUR Liquidity",
    });
    const a = await createAccount(req, {
      accountName: "Reserve A",
      currentBalance: "1500.75",
      sweepThreshold: "1000.00",
      targetLiquidAccount: usdLiquid.id,
    });
    const b = await createAccount(req, {
      accountName: "Reserve B",
      currentBalance: "300.00",
      sweepThreshold: "100.00",
      targetLiquidAccount: usdLiquid.id,
    });
    await createAccount(req, {
      accountName: "Reserve C",
      currency: "EUR",
      currentBalance: "90.00",
      sweepThreshold: "40.00",
      targetLiquidAccount: eurLiquid.id,
    });
    await createAccount(req, {
      currentBalance: "10.00",
      sweepThreshold: "50.00",
      targetLiquidAccount: usdLiquid.id,
    });

    const before = await writeCounts(t.deps.db);
    const plan = await expectJson(await req("GET", "/api/balance-sweeps/auto-sweep/plan"), 200);
    assert.deepEqual(await writeCounts(t.deps.db), before, "a plan moves nothing");
    assert.match(plan.planId, /^[0-9a-f]{64}$/);
    const moves = plan.sweeps.map((
      s: Record<string, string>,
    ) => [s.sourceAccountName, s.targetAccountName, s.currency, s.amount]);
    assert.deepEqual(moves.sort(), [
      ["Reserve A", "USD Liquidity", "USD", "500.75"],
      ["Reserve B", "USD Liquidity", "USD", "200.00"],
      ["Reserve C", "EUR Liquidity", "EUR", "50.00"],
    ]);
    assert.ok(
      plan.sweeps.every((s: Record<string, string>) => s.sourceAccountNumber && s.targetAccountNumber),
    );
    assert.deepEqual(plan.totals, [{ currency: "EUR", amount: "50.00" }, {
      currency: "USD",
      amount: "700.75",
    }]);

    // Confirming the plan files it for approval; approved, it runs exactly that plan.
    const result = await runAutoSweepApproved(req, { planId: plan.planId });
    assert.equal(result.sweepsExecuted, 3);
    const now = await balances(req);
    assert.equal(now.get(a.id), "1000.00");
    assert.equal(now.get(b.id), "100.00");

    const empty = await expectJson(await req("GET", "/api/balance-sweeps/auto-sweep/plan"), 200);
    assert.deepEqual([empty.sweeps, empty.totals], [[], []]);
  } finally {
    await t.close();
  }
});

Deno.test("an auto-sweep confirmed on a plan that no longer holds answers 409 and moves nothing", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const liquid = await createAccount(req, { accountType: "liquid" });
    const source = await createAccount(req, {
      currentBalance: "1500.00",
      sweepThreshold: "1000.00",
      targetLiquidAccount: liquid.id,
    });
    const plan = await expectJson(await req("GET", "/api/balance-sweeps/auto-sweep/plan"), 200);
    // The balance moves after the plan was shown: a manual sweep of 100.00.
    await expectJson(
      await req("POST", "/api/balance-sweeps", {
        body: { sourceAccountId: source.id, targetAccountId: liquid.id, sweepAmount: "100.00" },
      }),
      201,
    );
    const before = await writeCounts(t.deps.db);
    const stale = await expectJson(
      await req("POST", "/api/balance-sweeps/auto-sweep", { body: { planId: plan.planId } }),
      409,
    );
    assert.equal(stale.field, "planId");
    assert.deepEqual(await writeCounts(t.deps.db), before);

    const malformed = await expectJson(
      await req("POST", "/api/balance-sweeps/auto-sweep", { body: { planId: "not-a-plan" } }),
      400,
    );
    assert.ok(malformed.fields.planId);
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/balance-sweeps/charts: sweeps per day and each day's closing ledger and liquid totals per currency", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const liquid = await createAccount(req, { accountType: "liquid" });
    const ledger = await createAccount(req, { currentBalance: "1000.00" });
    await createAccount(req, { currency: "EUR", currentBalance: "50.00" });
    await expectJson(
      await req("POST", "/api/balance-sweeps", {
        body: { sourceAccountId: ledger.id, targetAccountId: liquid.id, sweepAmount: "200.00" },
      }),
      201,
    );
    const charts = await expectJson(await req("GET", "/api/balance-sweeps/charts"), 200);
    assert.equal(charts.days.length, 30);
    assert.equal(charts.days.at(-1), new Date().toISOString().slice(0, 10));
    assert.deepEqual(charts.sweepsPerDay.slice(-2), [0, 1]);
    assert.equal(charts.sweepsPerDay.reduce((a: number, b: number) => a + b, 0), 1);
    // Today's close is what the accounts hold now (the test app also seeds accounts of its own).
    const accounts = await expectJson<{ accountType: string; currency: string; currentBalance: string }[]>(
      await req("GET", "/api/ledger-accounts"),
      200,
    );
    const total = (currency: string, type: string) => {
      const minor = accounts.filter((a) => a.currency === currency && a.accountType === type)
        .reduce((sum, a) => sum + BigInt(a.currentBalance.replace(".", "")), 0n);
      return `${minor / 100n}.${String(minor % 100n).padStart(2, "0")}`;
    };
    for (const entry of charts.liquidity as { currency: string; ledger: string[]; liquid: string[] }[]) {
      assert.deepEqual(
        [entry.ledger.at(-1), entry.liquid.at(-1)],
        [total(entry.currency, "ledger"), total(entry.currency, "liquid")],
        entry.currency,
      );
    }
    const currencies = charts.liquidity.map((entry: { currency: string }) => entry.currency);
    assert.ok(currencies.includes("EUR") && currencies.includes("USD"));
    assert.deepEqual(currencies, [...currencies].sort());
    const usd = charts.liquidity.find((entry: { currency: string }) => entry.currency === "USD");
    assert.equal(BigInt(usd.liquid.at(-1).replace(".", "")) >= 20000n, true, "the 200.00 swept today is liquid");
  } finally {
    await t.close();
  }
});
