import assert from "node:assert/strict";
import { institutions, swiftCodes, SYSTEM_USER_ID } from "../../db/schema.ts";
import {
  parseSchedule,
  runScheduledOccurrence,
  startSweepScheduler,
} from "../../src/server/features/sweeps/scheduler.ts";
import { secondPerson } from "../helpers/staff.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";
import {
  balances,
  createAccount,
  liftApprovalThresholds,
  type Requester,
  runAutoSweepApproved,
  validateCamt050,
  writeCounts,
} from "./ledger_helpers.ts";

async function ledgerAndLiquid(req: Requester, ledgerBalance = "1000.00", liquidBalance = "0.00") {
  const liquid = await createAccount(req, {
    accountType: "liquid",
    accountName: "Liquid USD",
    currentBalance: liquidBalance,
  });
  const ledger = await createAccount(req, { accountName: "Ledger USD", currentBalance: ledgerBalance });
  return { ledger, liquid };
}

function sweepBody(
  sourceAccountId: string,
  targetAccountId: string,
  sweepAmount: string | number,
  extra = {},
) {
  return { sourceAccountId, targetAccountId, sweepAmount, sweepReason: "Liquidity top-up", ...extra };
}

async function auditRowsFor(t: TestApp, entityId: string) {
  return (await t.deps.db.readClient.execute({
    sql: "SELECT entity_type, action, performed_by FROM audit_trail WHERE entity_id = ?",
    args: [entityId],
  })).rows;
}

Deno.test("POST /api/balance-sweeps moves the exact amount and records both accounts' before and after", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const { ledger, liquid } = await ledgerAndLiquid(req, "1000.00", "5.10");
    const sweep = await expectJson(
      await req("POST", "/api/balance-sweeps", { body: sweepBody(ledger.id, liquid.id, "250.55") }),
      201,
    );
    assert.equal(sweep.sweepType, "manual");
    assert.equal(sweep.sweepStatus, "completed");
    assert.equal(sweep.sweepAmount, "250.55");
    assert.equal(sweep.currency, "USD");
    assert.deepEqual(
      [
        sweep.sourceBalanceBefore,
        sweep.sourceBalanceAfter,
        sweep.targetBalanceBefore,
        sweep.targetBalanceAfter,
      ],
      ["1000.00", "749.45", "5.10", "255.65"],
    );
    assert.match(sweep.transactionReference, /^SWP-\d{8}-[0-9A-F]{20}$/);
    assert.equal(sweep.sweepReason, "Liquidity top-up");
    assert.deepEqual(sweep.sourceAccount, { accountName: "Ledger USD", accountNumber: ledger.accountNumber });
    assert.deepEqual(sweep.targetAccount, { accountName: "Liquid USD", accountNumber: liquid.accountNumber });
    assert.ok("firstName" in sweep.executedByUser && "lastName" in sweep.executedByUser);

    const now = await balances(req);
    assert.equal(now.get(ledger.id), "749.45");
    assert.equal(now.get(liquid.id), "255.65");
    const accounts = await expectJson(await req("GET", "/api/ledger-accounts"), 200);
    const swept = accounts.filter((account: { id: string }) => [ledger.id, liquid.id].includes(account.id));
    assert.equal(swept.length, 2);
    for (const account of swept) assert.equal(account.lastSweepDate, sweep.executedAt);

    assert.deepEqual(await expectJson(await req("GET", `/api/balance-sweeps/${sweep.id}`), 200), sweep);
    const audit = await auditRowsFor(t, sweep.id);
    assert.equal(audit.length, 1);
    assert.equal(audit[0].entity_type, "balance_sweep");
    assert.equal(audit[0].action, "execute");
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/balance-sweeps accepts the whole available balance, a JS number and settlement/reserve accounts", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const { ledger, liquid } = await ledgerAndLiquid(req, "0.03");
    await expectJson(
      await req("POST", "/api/balance-sweeps", { body: sweepBody(ledger.id, liquid.id, 0.03) }),
      201,
    );
    assert.equal((await balances(req)).get(ledger.id), "0.00");
    const settlement = await createAccount(req, { accountType: "settlement", currentBalance: "10.00" });
    const reserve = await createAccount(req, { accountType: "reserve" });
    const sweep = await expectJson(
      await req("POST", "/api/balance-sweeps", { body: sweepBody(settlement.id, reserve.id, "10") }),
      201,
    );
    assert.equal(sweep.sweepAmount, "10.00");
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/balance-sweeps answers 400 for malformed requests and changes nothing", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const { ledger, liquid } = await ledgerAndLiquid(req);
    const before = await writeCounts(t.deps.db);
    const cases: [Record<string, unknown>, string][] = [
      [{ sourceAccountId: undefined }, "sourceAccountId"],
      [{ targetAccountId: "" }, "targetAccountId"],
      [{ sweepAmount: undefined }, "sweepAmount"],
      [{ sweepAmount: "0" }, "sweepAmount"],
      [{ sweepAmount: "0.00" }, "sweepAmount"],
      [{ sweepAmount: "-5.00" }, "sweepAmount"],
      [{ sweepAmount: "1.001" }, "sweepAmount"],
      [{ sweepAmount: "abc" }, "sweepAmount"],
      [{ sweepAmount: " 5.00" }, "sweepAmount"],
      [{ sweepAmount: 1e21 }, "sweepAmount"],
      [{ sweepAmount: "10000000000000.00" }, "sweepAmount"],
      [{ sweepAmount: null }, "sweepAmount"],
      [{ sweepType: "threshold" }, "sweepType"],
      [{ sweepType: "scheduled" }, "sweepType"],
      [{ sweepReason: "r".repeat(1001) }, "sweepReason"],
    ];
    for (const [patch, field] of cases) {
      const res = await req("POST", "/api/balance-sweeps", {
        body: { ...sweepBody(ledger.id, liquid.id, "1.00"), ...patch },
      });
      const error = await expectJson(res, 400);
      assert.ok(error.fields?.[field], `expected a message for ${field} with ${JSON.stringify(patch)}`);
    }
    const badKey = await req("POST", "/api/balance-sweeps", {
      body: sweepBody(ledger.id, liquid.id, "1.00"),
      headers: { "Idempotency-Key": "has space" },
    });
    assert.ok((await expectJson(badKey, 400)).fields["Idempotency-Key"]);
    assert.deepEqual(await writeCounts(t.deps.db), before);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/balance-sweeps answers 422 with the reason for each rejected sweep and changes nothing", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    await liftApprovalThresholds(req);
    const { ledger, liquid } = await ledgerAndLiquid(req, "100.00");
    const liquidEur = await createAccount(req, { accountType: "liquid", currency: "EUR" });
    const otherLedger = await createAccount(req, { currentBalance: "1.00" });
    const inactive = await createAccount(req, { accountType: "liquid", accountStatus: "frozen" });
    const full = await createAccount(req, { accountType: "liquid", currentBalance: "9999999999999.99" });
    const balancesBefore = await balances(req);
    const countsBefore = await writeCounts(t.deps.db);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [sweepBody(ledger.id, liquid.id, "100.01"), "insufficient_funds", /Insufficient funds/],
      [sweepBody(ledger.id, liquidEur.id, "1.00"), "currency_mismatch", /Currency mismatch/],
      [sweepBody(liquid.id, ledger.id, "1.00"), "invalid_source_type", /Source account type liquid/],
      [sweepBody(ledger.id, otherLedger.id, "1.00"), "invalid_target_type", /Target account type ledger/],
      [sweepBody(ledger.id, ledger.id, "1.00"), "same_account", /different accounts/],
      [sweepBody(ledger.id, inactive.id, "1.00"), "inactive_account", /not active/],
      [sweepBody(ledger.id, full.id, "0.01"), "balance_limit_exceeded", /exceed the maximum/],
    ];
    for (const [body, reason, message] of cases) {
      const error = await expectJson(await req("POST", "/api/balance-sweeps", { body }), 422);
      assert.equal(error.reason, reason);
      assert.match(error.message, message);
    }
    assert.deepEqual(await balances(req), balancesBefore);
    assert.deepEqual(await writeCounts(t.deps.db), countsBefore);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/balance-sweeps answers 404 naming the unknown account", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const { ledger, liquid } = await ledgerAndLiquid(req);
    const unknown = crypto.randomUUID();
    const a = await expectJson(
      await req("POST", "/api/balance-sweeps", { body: sweepBody(unknown, liquid.id, "1") }),
      404,
    );
    assert.equal(a.field, "sourceAccountId");
    const b = await expectJson(
      await req("POST", "/api/balance-sweeps", { body: sweepBody(ledger.id, unknown, "1") }),
      404,
    );
    assert.equal(b.field, "targetAccountId");
    await expectJson(await req("GET", `/api/balance-sweeps/${unknown}`), 404);
    await expectJson(await req("GET", `/api/balance-sweeps/${unknown}/iso20022`), 404);
  } finally {
    await t.close();
  }
});

Deno.test("the same Idempotency-Key sent 10 times concurrently moves money once and replays the first result", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const { ledger, liquid } = await ledgerAndLiquid(req, "100.00");
    const headers = { "Idempotency-Key": "sweep-2025-01-07-0001" };
    const responses = await Promise.all(
      Array.from(
        { length: 10 },
        () => req("POST", "/api/balance-sweeps", { body: sweepBody(ledger.id, liquid.id, "60.00"), headers }),
      ),
    );
    const bodies = await Promise.all(responses.map((res) => res.text()));
    assert.deepEqual(responses.map((res) => res.status), Array(10).fill(201));
    assert.equal(new Set(bodies).size, 1, "every response carries the same body");
    assert.equal(responses.filter((res) => res.headers.get("Idempotent-Replayed") === "true").length, 9);
    const now = await balances(req);
    assert.equal(now.get(ledger.id), "40.00");
    assert.equal(now.get(liquid.id), "60.00");
    assert.equal((await writeCounts(t.deps.db)).sweeps, 1);

    // "60" is the same amount as "60.00": still the same request.
    const retry = await req("POST", "/api/balance-sweeps", {
      body: sweepBody(ledger.id, liquid.id, "60"),
      headers,
    });
    assert.equal(retry.status, 201);
    assert.equal(await retry.text(), bodies[0]);

    const different = await req("POST", "/api/balance-sweeps", {
      body: sweepBody(ledger.id, liquid.id, "1.00"),
      headers,
    });
    const error = await expectJson(different, 422);
    assert.equal(error.reason, "idempotency_mismatch");
    assert.equal((await writeCounts(t.deps.db)).sweeps, 1);
  } finally {
    await t.close();
  }
});

Deno.test("a rejected sweep's outcome is replayed for its Idempotency-Key without moving money later", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const { ledger, liquid } = await ledgerAndLiquid(req, "10.00");
    const headers = { "Idempotency-Key": "retry-me" };
    const first = await req("POST", "/api/balance-sweeps", {
      body: sweepBody(ledger.id, liquid.id, "20.00"),
      headers,
    });
    const firstBody = await first.text();
    assert.equal(first.status, 422);
    const again = await req("POST", "/api/balance-sweeps", {
      body: sweepBody(ledger.id, liquid.id, "20.00"),
      headers,
    });
    assert.equal(again.status, 422);
    assert.equal(await again.text(), firstBody);
    assert.equal(again.headers.get("Idempotent-Replayed"), "true");
    assert.equal((await writeCounts(t.deps.db)).sweeps, 0);
    // Without a key the same request is simply evaluated again.
    await expectJson(
      await req("POST", "/api/balance-sweeps", { body: sweepBody(ledger.id, liquid.id, "10.00") }),
      201,
    );
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/balance-sweeps/auto-sweep sweeps exactly each excess over the threshold as 'threshold' sweeps", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const liquid = await createAccount(req, { accountType: "liquid" });
    const over = await createAccount(req, {
      currentBalance: "1500.75",
      sweepThreshold: "1000.00",
      targetLiquidAccount: liquid.id,
    });
    const at = await createAccount(req, {
      currentBalance: "1000.00",
      sweepThreshold: "1000.00",
      targetLiquidAccount: liquid.id,
    });
    const noTarget = await createAccount(req, { currentBalance: "5000.00", sweepThreshold: "1.00" });
    const result = await runAutoSweepApproved(req);
    assert.equal(result.sweepsExecuted, 1);
    const now = await balances(req);
    assert.equal(now.get(over.id), "1000.00");
    assert.equal(now.get(at.id), "1000.00");
    assert.equal(now.get(noTarget.id), "5000.00");
    assert.equal(now.get(liquid.id), "500.75");
    const [sweep] = await expectJson(await req("GET", "/api/balance-sweeps"), 200);
    assert.equal(sweep.sweepType, "threshold");
    assert.equal(sweep.sweepAmount, "500.75");
    assert.match(sweep.sweepReason, /threshold of 1000\.00 USD/);
    assert.equal((await auditRowsFor(t, sweep.id)).length, 1);
    // Nothing above a threshold: nothing to approve, nothing moves.
    assert.deepEqual(await expectJson(await req("POST", "/api/balance-sweeps/auto-sweep"), 200), {
      sweepsExecuted: 0,
      sweepIds: [],
    });
  } finally {
    await t.close();
  }
});

Deno.test("concurrent auto-sweeps never sweep the same excess twice", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const liquid = await createAccount(req, { accountType: "liquid" });
    const sources = [];
    for (let i = 0; i < 3; i++) {
      sources.push(
        await createAccount(req, {
          currentBalance: "300.00",
          sweepThreshold: "100.00",
          targetLiquidAccount: liquid.id,
        }),
      );
    }
    // Eight runs requested at once are eight requests for the same plan; approved at once, the
    // first to execute moves the excess and every other one finds its plan gone (422).
    const pending = await Promise.all(
      Array.from(
        { length: 8 },
        () => req("POST", "/api/balance-sweeps/auto-sweep").then((res) => expectJson(res, 202)),
      ),
    );
    const checker = await secondPerson(t);
    const decisions = await Promise.all(pending.map(({ approvalRequest }) =>
      t.request("POST", `/api/approvals/${approvalRequest.id}/approve`, {
        cookie: checker.cookie,
        body: { reason: "Checked" },
      })
    ));
    const statuses = decisions.map((res) => res.status).sort();
    assert.deepEqual(statuses, [200, 422, 422, 422, 422, 422, 422, 422]);
    const executed = await expectJson(decisions.find((res) => res.status === 200)!, 200);
    assert.equal(executed.resultEntityId.split(",").length, 3);
    const now = await balances(req);
    for (const source of sources) assert.equal(now.get(source.id), "100.00");
    assert.equal(now.get(liquid.id), "600.00");
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/balance-sweeps lists newest first with names and pages with limit and offset", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const { ledger, liquid } = await ledgerAndLiquid(req);
    const ids = [];
    for (let i = 1; i <= 12; i++) {
      const sweep = await expectJson(
        await req("POST", "/api/balance-sweeps", { body: sweepBody(ledger.id, liquid.id, `${i}.00`) }),
        201,
      );
      ids.push(sweep.id);
    }
    const all = await expectJson(await req("GET", "/api/balance-sweeps"), 200);
    assert.deepEqual(all.map((sweep: { id: string }) => sweep.id), [...ids].reverse());
    assert.deepEqual(all[0].sourceAccount, {
      accountName: "Ledger USD",
      accountNumber: ledger.accountNumber,
    });
    const page = await expectJson(await req("GET", "/api/balance-sweeps?limit=10&offset=2"), 200);
    assert.deepEqual(page.map((sweep: { id: string }) => sweep.id), [...ids].reverse().slice(2, 12));
    await expectJson(await req("GET", "/api/balance-sweeps?limit=0"), 400);
    const since = new Date(Date.now() - 60_000).toISOString();
    assert.equal(
      (await expectJson(await req("GET", `/api/balance-sweeps/count?since=${since}`), 200)).count,
      12,
    );
    const future = new Date(Date.now() + 60_000).toISOString();
    assert.equal(
      (await expectJson(await req("GET", `/api/balance-sweeps/count?since=${future}`), 200)).count,
      0,
    );
    await expectJson(await req("GET", "/api/balance-sweeps/count?since=yesterday"), 400);
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/balance-sweeps/{id}/iso20022 downloads a camt.050.001.05 message valid against the XSD", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    await liftApprovalThresholds(req);
    const institutionId = crypto.randomUUID();
    await t.deps.db.transaction(async (tx) => {
      await tx.insert(institutions).values({
        id: institutionId,
        name: "Meridian & Sons <Commercial> Bank",
        type: "commercial",
        registrationNumber: "REG-ISO-1",
        address: "1 Treasury Square",
        phoneNumber: "+1 555 0100",
        emailAddress: "ops@meridian.test",
        status: "active",
      });
      await tx.insert(swiftCodes).values({
        id: crypto.randomUUID(),
        institutionId,
        bicCode: "MERIUS33XXX",
        bankCode: "MERI",
        countryCode: "US",
        locationCode: "33",
        branchCode: "XXX",
      });
    });
    const liquid = await createAccount(req, {
      accountType: "liquid",
      accountNumber: "LIQ/0001",
      accountName: `Liquidity "A" & <B> ${"é".repeat(80)} 🏦`,
      institutionId,
    });
    const ledger = await createAccount(req, {
      accountNumber: "A".repeat(34),
      currentBalance: "9999999999999.99",
      sweepThreshold: "0.00",
      targetLiquidAccount: liquid.id,
    });
    const manual = await expectJson(
      await req("POST", "/api/balance-sweeps", { body: sweepBody(ledger.id, liquid.id, "1250.00") }),
      201,
    );
    await runAutoSweepApproved(req);
    const sweeps = await expectJson(await req("GET", "/api/balance-sweeps"), 200);
    assert.equal(sweeps.length, 2);
    for (const sweep of sweeps) {
      const res = await req("GET", `/api/balance-sweeps/${sweep.id}/iso20022`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^application\/xml/);
      assert.equal(
        res.headers.get("content-disposition"),
        `attachment; filename="camt.050.001.05-${sweep.transactionReference}.xml"`,
      );
      const xml = await res.text();
      const result = await validateCamt050(xml);
      assert.equal(result.valid, true, `${result.errors.join("\n")}\n${xml}`);
      assert.match(xml, new RegExp(`<MsgId>${sweep.transactionReference}</MsgId>`));
      assert.match(xml, new RegExp(`<UETR>${sweep.id}</UETR>`));
      assert.match(xml, new RegExp(`<AmtWthCcy Ccy="USD">${sweep.sweepAmount}</AmtWthCcy>`));
      assert.match(
        xml,
        /<Cdtr><FinInstnId><BICFI>MERIUS33XXX<\/BICFI><Nm>Meridian &amp; Sons &lt;Commercial&gt; Bank<\/Nm>/,
      );
      assert.match(xml, new RegExp(`<DbtrAcct><Id><Othr><Id>${"A".repeat(34)}</Id>`));
    }
    assert.equal(sweeps[1].id, manual.id);
    assert.equal(sweeps[0].sweepAmount, "9999999998749.99");
  } finally {
    await t.close();
  }
});

Deno.test("validateCamt050() rejects a message that breaks the schema", async () => {
  const sample = await Deno.readTextFile(
    new URL("../../db/reference/iso20022/sample-camt.050.001.05.xml", import.meta.url),
  );
  assert.equal((await validateCamt050(sample)).valid, true);
  assert.equal((await validateCamt050(sample.replace('Ccy="EUR"', 'Ccy="EURO"'))).valid, false);
  assert.equal(
    (await validateCamt050(sample.replace("<SttlmDt>2025-01-07", "<SttlmDt>07.01.2025"))).valid,
    false,
  );
});

Deno.test("runScheduledOccurrence() lets exactly one of several app processes on one database run an occurrence", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const liquid = await createAccount(req, { accountType: "liquid" });
    const source = await createAccount(req, {
      currentBalance: "900.00",
      sweepThreshold: "400.00",
      targetLiquidAccount: liquid.id,
    });
    const occurrence = "2030-01-01T02:00:00.000Z";
    const worker = new URL("./sweep_schedule_worker.ts", import.meta.url).pathname;
    const results = await Promise.all(["a", "b", "c"].map(async (instance) => {
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", worker, t.deps.db.url, "0 2 * * *", occurrence, `instance-${instance}`],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.ok(output.success, new TextDecoder().decode(output.stderr));
      return JSON.parse(new TextDecoder().decode(output.stdout).trim());
    }));
    assert.deepEqual(results.map((result) => result.claimed).sort(), [false, false, true]);
    assert.equal(results.reduce((sum, result) => sum + result.sweepsExecuted, 0), 1);
    const now = await balances(req);
    assert.equal(now.get(source.id), "400.00");
    assert.equal(now.get(liquid.id), "500.00");
    const [sweep] = await expectJson(await req("GET", "/api/balance-sweeps"), 200);
    assert.equal(sweep.sweepType, "scheduled");
    assert.equal(sweep.executedBy, SYSTEM_USER_ID);
    assert.deepEqual(sweep.executedByUser, { firstName: "System", lastName: null, email: "system@console.invalid" });
    const lease = (await t.deps.db.readClient.execute(
      "SELECT occurrence_key, sweeps_executed FROM sweep_schedule_leases",
    )).rows;
    assert.deepEqual(lease.map((row) => [row.occurrence_key, row.sweeps_executed]), [[occurrence, 1]]);
    const again = await runScheduledOccurrence(t.deps.db, "0 2 * * *", new Date(occurrence), "instance-d");
    assert.deepEqual(again, { claimed: false, sweepsExecuted: 0 });
    const audit = (await t.deps.db.readClient.execute({
      sql: "SELECT count(*) AS n FROM audit_trail WHERE entity_type = 'sweep_schedule_run' AND entity_id = ?",
      args: [occurrence],
    })).rows[0].n;
    assert.equal(audit, 1);
  } finally {
    await t.close();
  }
});

Deno.test("startSweepScheduler() runs SWEEP_SCHEDULE occurrences and is off without it", async () => {
  const off = await createTestApp();
  try {
    assert.equal(startSweepScheduler(off.deps, () => {}), null);
  } finally {
    await off.close();
  }
  assert.throws(() => parseSchedule("every minute"), /SWEEP_SCHEDULE is not a valid cron expression/);

  const t = await createTestApp({ SWEEP_SCHEDULE: "* * * * * *" });
  const scheduler = startSweepScheduler(t.deps, () => {});
  try {
    assert.ok(scheduler);
    const req = await t.desk();
    const liquid = await createAccount(req, { accountType: "liquid" });
    const source = await createAccount(req, {
      currentBalance: "10.00",
      sweepThreshold: "2.50",
      targetLiquidAccount: liquid.id,
    });
    const deadline = Date.now() + 5_000;
    while ((await balances(req)).get(source.id) !== "2.50" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal((await balances(req)).get(source.id), "2.50");
    const [sweep] = await expectJson(await req("GET", "/api/balance-sweeps"), 200);
    assert.equal(sweep.sweepType, "scheduled");
  } finally {
    await scheduler?.stop();
    await t.close();
  }
});

Deno.test("every sweep has exactly one audit row and the store reconciles after mixed sweeps", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const liquid = await createAccount(req, { accountType: "liquid", currentBalance: "1.00" });
    const ledger = await createAccount(req, {
      currentBalance: "500.00",
      sweepThreshold: "50.00",
      targetLiquidAccount: liquid.id,
    });
    for (const amount of ["10.00", "0.01", "999.00", "20.50"]) {
      await req("POST", "/api/balance-sweeps", { body: sweepBody(ledger.id, liquid.id, amount) }).then((
        res,
      ) => res.body?.cancel());
    }
    await runAutoSweepApproved(req);
    const sweeps = await expectJson(await req("GET", "/api/balance-sweeps"), 200);
    assert.equal(sweeps.length, 4);
    for (const sweep of sweeps) {
      const audit = await auditRowsFor(t, sweep.id);
      assert.equal(audit.length, 1);
    }
    const report = await expectJson(await req("GET", "/api/ledger-accounts/reconciliation"), 200);
    assert.equal(report.ok, true, JSON.stringify(report.problems));
    assert.equal(report.sweepsChecked, 4);
  } finally {
    await t.close();
  }
});

Deno.test("sweep endpoints answer 401 without a session", async () => {
  const t = await createTestApp();
  try {
    for (
      const [method, path] of [
        ["GET", "/api/balance-sweeps"],
        ["POST", "/api/balance-sweeps"],
        ["POST", "/api/balance-sweeps/auto-sweep"],
        ["GET", `/api/balance-sweeps/${crypto.randomUUID()}`],
        ["GET", `/api/balance-sweeps/${crypto.randomUUID()}/iso20022`],
      ]
    ) {
      const res = await t.request(method, path);
      assert.equal(res.status, 401, `${method} ${path}`);
      await res.body?.cancel();
    }
  } finally {
    await t.close();
  }
});
