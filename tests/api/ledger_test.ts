import assert from "node:assert/strict";
import { parseMoney } from "../../src/domain/money.ts";
import { createTestApp, expectJson } from "../helpers/test_app.ts";
import { createAccount, liftApprovalThresholds, nextAccountNumber, runAutoSweepApproved } from "./ledger_helpers.ts";

Deno.test("POST /api/ledger-accounts stores the opening balance exactly and answers decimal strings", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    await liftApprovalThresholds(req);
    const account = await createAccount(req, {
      accountNumber: "LDG-0001",
      accountName: "Treasury Ledger",
      currentBalance: "9999999999999.99",
      sweepThreshold: 1250.5,
    });
    assert.equal(account.accountNumber, "LDG-0001");
    assert.equal(account.accountType, "ledger");
    assert.equal(account.currency, "USD");
    assert.equal(account.accountStatus, "active");
    assert.equal(account.currentBalance, "9999999999999.99");
    assert.equal(account.availableBalance, "9999999999999.99");
    assert.equal(account.sweepThreshold, "1250.50");
    assert.equal(account.targetLiquidAccount, null);
    assert.equal(account.lastSweepDate, null);

    const liquid = await createAccount(req, { accountType: "liquid", currentBalance: 0 });
    assert.equal(liquid.currentBalance, "0.00");
    assert.equal(liquid.sweepThreshold, null);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/ledger-accounts books the opening balance as one audited opening journal entry", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const account = await createAccount(req, { currentBalance: "1250.00" });
    const entries = (await t.deps.db.readClient.execute({
      sql:
        "SELECT id, entry_type, amount_minor, balance_before_minor, balance_after_minor, reference_type, reference_id FROM ledger_entries WHERE account_id = ?",
      args: [account.id],
    })).rows;
    assert.equal(entries.length, 1);
    assert.equal(entries[0].entry_type, "opening");
    assert.equal(entries[0].amount_minor, 125_000);
    assert.equal(entries[0].balance_before_minor, 0);
    assert.equal(entries[0].balance_after_minor, 125_000);
    assert.equal(entries[0].reference_type, "account");
    assert.equal(entries[0].reference_id, account.id);
    const audit = (await t.deps.db.readClient.execute({
      sql: "SELECT entity_type, action FROM audit_trail WHERE entity_id IN (?, ?) ORDER BY seq",
      args: [account.id, entries[0].id],
    })).rows.map((row) => `${row.entity_type}/${row.action}`);
    assert.deepEqual(audit, ["ledger_account/create", "ledger_entry/opening"]);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/ledger-accounts rejects each invalid field with 400 and the field's message", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const valid = { accountNumber: "X-1", accountType: "ledger", accountName: "Ledger", currency: "USD" };
    const countBefore = (await expectJson(await req("GET", "/api/ledger-accounts"), 200)).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ accountNumber: undefined }, "accountNumber"],
      [{ accountNumber: "   " }, "accountNumber"],
      [{ accountNumber: "A".repeat(35) }, "accountNumber"],
      [{ accountNumber: "ACC\n1" }, "accountNumber"],
      [{ accountType: "checking" }, "accountType"],
      [{ accountName: "" }, "accountName"],
      [{ accountName: "N".repeat(256) }, "accountName"],
      [{ currency: "CHF" }, "currency"],
      [{ currentBalance: "-1.00" }, "currentBalance"],
      [{ currentBalance: "1.001" }, "currentBalance"],
      [{ currentBalance: "1e3" }, "currentBalance"],
      [{ currentBalance: "1,000.00" }, "currentBalance"],
      [{ currentBalance: "12345678901234" }, "currentBalance"],
      [{ currentBalance: 0.1 + 0.2 }, "currentBalance"],
      [{ currentBalance: true }, "currentBalance"],
      [{ sweepThreshold: "-5" }, "sweepThreshold"],
      [{ sweepThreshold: "10.999" }, "sweepThreshold"],
      [{ accountStatus: "deleted" }, "accountStatus"],
    ];
    for (const [patch, field] of cases) {
      const body = { ...valid, ...patch };
      const res = await req("POST", "/api/ledger-accounts", { body });
      const error = await expectJson(res, 400);
      assert.equal(error.code, "validation", JSON.stringify(patch));
      assert.ok(error.fields?.[field], `expected a message for ${field} with ${JSON.stringify(patch)}`);
    }
    const list = await expectJson(await req("GET", "/api/ledger-accounts"), 200);
    assert.equal(list.length, countBefore);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/ledger-accounts answers 409 for a duplicate account number and creates nothing", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const countBefore = (await expectJson(await req("GET", "/api/ledger-accounts"), 200)).length;
    await createAccount(req, { accountNumber: "DUP-1", currentBalance: "10.00" });
    const res = await req("POST", "/api/ledger-accounts", {
      body: { accountNumber: "DUP-1", accountType: "liquid", accountName: "Other", currentBalance: "5.00" },
    });
    const error = await expectJson(res, 409);
    assert.equal(error.field, "accountNumber");
    const list = await expectJson(await req("GET", "/api/ledger-accounts"), 200);
    assert.equal(list.length, countBefore + 1);
    const report = await expectJson(await req("GET", "/api/ledger-accounts/reconciliation"), 200);
    assert.equal(report.ok, true);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/ledger-accounts accepts only an existing liquid target of the same currency", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const liquidUsd = await createAccount(req, { accountType: "liquid" });
    const liquidEur = await createAccount(req, { accountType: "liquid", currency: "EUR" });
    const ledgerUsd = await createAccount(req, { accountType: "ledger" });
    const attempts: [string, string][] = [
      [crypto.randomUUID(), "not found"],
      [ledgerUsd.id, "must be a liquid account"],
      [liquidEur.id, "EUR"],
    ];
    for (const [target, message] of attempts) {
      const res = await req("POST", "/api/ledger-accounts", {
        body: {
          accountNumber: nextAccountNumber(),
          accountType: "ledger",
          accountName: "Sweeping ledger",
          currency: "USD",
          sweepThreshold: "100.00",
          targetLiquidAccount: target,
        },
      });
      const error = await expectJson(res, 400);
      assert.match(error.fields.targetLiquidAccount, new RegExp(message));
    }
    const ok = await createAccount(req, { sweepThreshold: "100.00", targetLiquidAccount: liquidUsd.id });
    assert.equal(ok.targetLiquidAccount, liquidUsd.id);
    const blankTarget = await createAccount(req, { sweepThreshold: "", targetLiquidAccount: "" });
    assert.equal(blankTarget.targetLiquidAccount, null);
    assert.equal(blankTarget.sweepThreshold, null);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/ledger-accounts refuses an unknown institution or routing entry with 400", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    for (const field of ["institutionId", "nationalRoutingId"]) {
      const res = await req("POST", "/api/ledger-accounts", {
        body: {
          accountNumber: nextAccountNumber(),
          accountType: "ledger",
          accountName: "L",
          [field]: crypto.randomUUID(),
        },
      });
      const error = await expectJson(res, 400);
      assert.ok(error.fields[field]);
    }
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/ledger-accounts lists every account newest first", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await createAccount(req, { currentBalance: `${i}.05` }));
    // Reference data (e.g. funding accounts) was created before, so these three come first.
    const list = (await expectJson(await req("GET", "/api/ledger-accounts"), 200)).slice(0, 3);
    assert.deepEqual(list.map((account: { id: string }) => account.id), created.map((a) => a.id).reverse());
    assert.deepEqual(list.map((account: { currentBalance: string }) => account.currentBalance), [
      "2.05",
      "1.05",
      "0.05",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("ledger endpoints answer 401 without a session", async () => {
  const t = await createTestApp();
  try {
    for (const path of ["/api/ledger-accounts", "/api/ledger-accounts/reconciliation"]) {
      assert.deepEqual(await expectJson(await t.request("GET", path), 401), { message: "Unauthorized" });
    }
    const res = await t.request("POST", "/api/ledger-accounts", {
      body: { accountNumber: "N-1", accountType: "ledger", accountName: "L" },
    });
    assert.equal(res.status, 401);
    await res.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/ledger-accounts/reconciliation reports a consistent store as ok with per-currency totals", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    // Reference seeds (funding accounts) may already hold money: compare against this baseline.
    const base = await expectJson(await req("GET", "/api/ledger-accounts/reconciliation"), 200);
    assert.equal(base.ok, true, JSON.stringify(base.problems));
    const liquid = await createAccount(req, { accountType: "liquid", currentBalance: "5.00" });
    const ledger = await createAccount(req, {
      currentBalance: "1000.00",
      sweepThreshold: "100.00",
      targetLiquidAccount: liquid.id,
    });
    await createAccount(req, { currency: "GBP", currentBalance: "7.77" });
    await expectJson(
      await req("POST", "/api/balance-sweeps", {
        body: { sourceAccountId: ledger.id, targetAccountId: liquid.id, sweepAmount: "250.25" },
      }),
      201,
    );
    await runAutoSweepApproved(req);
    const report = await expectJson(await req("GET", "/api/ledger-accounts/reconciliation"), 200);
    assert.equal(report.ok, true, JSON.stringify(report.problems));
    assert.equal(report.problemCount, 0);
    assert.equal(report.accountsChecked, base.accountsChecked + 3);
    assert.equal(report.sweepsChecked, base.sweepsChecked + 2);
    assert.equal(report.entriesChecked, base.entriesChecked + 3 + 4);

    const totals = (r: { currencies: { currency: string }[] }, currency: string) =>
      r.currencies.find((entry) => entry.currency === currency);
    assert.equal(totals(base, "GBP"), undefined);
    assert.deepEqual(totals(report, "GBP"), {
      currency: "GBP",
      accounts: 1,
      openingTotal: "7.77",
      cardFundingTotal: "0.00",
      sweepNetTotal: "0.00",
      currentTotal: "7.77",
      balanced: true,
    });
    const minor = (text: string) => (parseMoney(text) as { ok: true; value: bigint }).value;
    const usdBefore = totals(base, "USD") as Record<string, string> | undefined;
    const usd = totals(report, "USD") as Record<string, string | number | boolean>;
    assert.equal(usd.balanced, true);
    assert.equal(usd.sweepNetTotal, "0.00");
    assert.equal(
      minor(String(usd.openingTotal)) - minor(usdBefore?.openingTotal ?? "0.00"),
      100_500n,
    );
    assert.equal(
      minor(String(usd.currentTotal)) - minor(usdBefore?.currentTotal ?? "0.00"),
      100_500n,
    );
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/ledger-accounts/reconciliation detects tampered balances, entries and sweeps", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const liquid = await createAccount(req, { accountType: "liquid" });
    const ledger = await createAccount(req, { currentBalance: "100.00" });
    const sweep = await expectJson(
      await req("POST", "/api/balance-sweeps", {
        body: { sourceAccountId: ledger.id, targetAccountId: liquid.id, sweepAmount: "40.00" },
      }),
      201,
    );
    const db = t.deps.db;
    const codes = async () => {
      const report = await expectJson(await req("GET", "/api/ledger-accounts/reconciliation"), 200);
      assert.equal(report.ok, report.problemCount === 0);
      return report.problems.map((problem: { code: string }) => problem.code).sort();
    };
    assert.deepEqual(await codes(), []);

    // Money created out of nothing: one cent added to a balance without a journal entry.
    await db.readClient.execute({
      sql: "UPDATE ledger_accounts SET current_balance_minor = current_balance_minor + 1 WHERE id = ?",
      args: [liquid.id],
    });
    assert.deepEqual(await codes(), ["currency_total_mismatch", "current_balance_mismatch"]);
    await db.readClient.execute({
      sql: "UPDATE ledger_accounts SET current_balance_minor = current_balance_minor - 1 WHERE id = ?",
      args: [liquid.id],
    });
    assert.deepEqual(await codes(), []);

    // A journal entry rewritten (amount and after-balance together, so its own CHECK still holds).
    await db.readClient.execute({
      sql:
        "UPDATE ledger_entries SET amount_minor = amount_minor + 100, balance_after_minor = balance_after_minor + 100 WHERE reference_id = ? AND entry_type = 'sweep_in'",
      args: [sweep.id],
    });
    assert.deepEqual(await codes(), [
      "currency_total_mismatch",
      "current_balance_mismatch",
      "sweep_entries_mismatch",
    ]);
    await db.readClient.execute({
      sql:
        "UPDATE ledger_entries SET amount_minor = amount_minor - 100, balance_after_minor = balance_after_minor - 100 WHERE reference_id = ? AND entry_type = 'sweep_in'",
      args: [sweep.id],
    });

    // Half a sweep: its credit entry removed and the target balance put back as if it never happened.
    await db.readClient.execute({
      sql: "DELETE FROM ledger_entries WHERE reference_id = ? AND entry_type = 'sweep_in'",
      args: [sweep.id],
    });
    await db.readClient.execute({
      sql: "UPDATE ledger_accounts SET current_balance_minor = 0, available_balance_minor = 0 WHERE id = ?",
      args: [liquid.id],
    });
    assert.deepEqual(await codes(), ["currency_total_mismatch", "sweep_entries_missing"]);

    // The opening balance edited after the fact.
    await db.readClient.execute({
      sql: "UPDATE ledger_accounts SET opening_balance_minor = 1 WHERE id = ?",
      args: [ledger.id],
    });
    assert.ok((await codes()).includes("opening_mismatch"));
  } finally {
    await t.close();
  }
});
