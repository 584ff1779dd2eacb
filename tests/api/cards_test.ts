import assert from "node:assert/strict";
import { eq, sql } from "drizzle-orm";
import { cardLoads, cards, ledgerAccounts, ledgerEntries, SYSTEM_USER_ID } from "../../db/schema.ts";
import { isValidLuhn, maskCardNumber } from "../../src/domain/card.ts";
import { FUNDING_SOURCE_ACCOUNTS } from "../../src/server/features/cards/funding_sources.ts";
import { seedFundingSources } from "../../src/server/features/cards/seed.ts";
import { createCardService, MAX_CARD_NUMBER_ATTEMPTS } from "../../src/server/features/cards/service.ts";
import { issuerPrefixesFromEnv } from "../../src/server/features/cards/settings.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";
import { liftApprovalThresholds } from "./ledger_helpers.ts";

const SOURCE_NUMBERS = Object.values(FUNDING_SOURCE_ACCOUNTS).map((source) => source.accountNumber);
const MASKED_16 = /^\d{6}\*{6}\d{4}$/;

async function withApp(fn: (t: TestApp, req: ReturnType<TestApp["as"]>) => Promise<void>, env: Record<string, string> = {}) {
  const t = await createTestApp(env);
  try {
    await fn(t, await t.desk());
  } finally {
    await t.close();
  }
}

async function sourceBalance(t: TestApp, accountNumber: string): Promise<number> {
  const row = await t.deps.db.read.select({ balance: ledgerAccounts.currentBalanceMinor }).from(ledgerAccounts)
    .where(eq(ledgerAccounts.accountNumber, accountNumber)).get();
  assert.ok(row, accountNumber);
  return row.balance;
}

/** Everything a money test compares before and after: balances, journal rows, card loads, audit rows. */
async function moneySnapshot(t: TestApp) {
  const [row] = await t.deps.db.read.all<Record<string, number>>(sql`SELECT
      (SELECT COALESCE(SUM(current_balance_minor), 0) FROM ledger_accounts
        WHERE account_number IN (${sql.join(SOURCE_NUMBERS.map((n) => sql`${n}`), sql`, `)})) AS sources,
      (SELECT COALESCE(SUM(current_balance_minor), 0) FROM cards) AS cards,
      (SELECT COUNT(*) FROM cards) AS cardCount,
      (SELECT COUNT(*) FROM ledger_entries) AS entries,
      (SELECT COUNT(*) FROM card_loads) AS loads,
      (SELECT COUNT(*) FROM audit_trail) AS audits`);
  return row;
}

async function decryptedCardNumbers(t: TestApp): Promise<string[]> {
  const rows = await t.deps.db.read.select({ encrypted: cards.cardNumberEncrypted }).from(cards);
  return Promise.all(rows.map((row) => t.deps.secrets.decrypt(row.encrypted)));
}

async function issue(req: ReturnType<TestApp["as"]>, body: Record<string, unknown> = {}) {
  return expectJson(await req("POST", "/api/cards/issue", { body: { cardholderName: "Ada Lovelace", ...body } }), 201);
}

Deno.test("funding sources are seeded once as ledger accounts with journaled opening balances and audit rows", async () => {
  await withApp(async (t) => {
    for (const source of Object.values(FUNDING_SOURCE_ACCOUNTS)) {
      const account = await t.deps.db.read.select().from(ledgerAccounts)
        .where(eq(ledgerAccounts.accountNumber, source.accountNumber)).get();
      assert.ok(account, source.accountNumber);
      assert.equal(account.accountType, source.accountType);
      assert.equal(account.currency, "USD");
      assert.equal(account.currentBalanceMinor, source.openingBalanceMinor);
      assert.equal(account.availableBalanceMinor, source.openingBalanceMinor);
      const entries = await t.deps.db.read.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, account.id));
      assert.deepEqual(entries.map((entry) => [entry.entryType, entry.amountMinor, entry.balanceBeforeMinor]), [
        ["opening", source.openingBalanceMinor, 0],
      ]);
      const [audit] = await t.deps.db.read.all<{ performedBy: string; action: string }>(
        sql`SELECT performed_by AS performedBy, action FROM audit_trail WHERE entity_id = ${account.id}`,
      );
      assert.deepEqual(audit, { performedBy: SYSTEM_USER_ID, action: "create" });
    }
    const before = await moneySnapshot(t);
    await seedFundingSources(t.deps, () => {}, () => {});
    assert.deepEqual(await moneySnapshot(t), before);
  });
});

Deno.test("GET /api/cards/funding-sources shows each source's actual available balance", async () => {
  await withApp(async (_t, req) => {
    const sources = await expectJson(await req("GET", "/api/cards/funding-sources"), 200);
    assert.deepEqual(sources.map((s: { fundingSource: string; availableBalance: string; accountNumber: string }) => [s.fundingSource, s.accountNumber, s.availableBalance]), [
      ["central_bank_treasury", "CB-TREASURY-001", "1000000000000.00"],
      ["settlement_source", "CB-SETTLEMENT-001", "1000000000000.00"],
      ["operating_account", "CB-OPERATING-001", "10000000.00"],
    ]);
  });
});

Deno.test("card endpoints answer 401 without a session", async () => {
  const t = await createTestApp();
  try {
    for (const [method, path] of [["GET", "/api/cards"], ["GET", "/api/cards/funding-sources"], ["POST", "/api/cards/issue"], ["POST", "/api/cards/distribute"], ["POST", "/api/cards/x/load"]]) {
      const res = await t.request(method, path, { body: method === "POST" ? {} : undefined });
      assert.deepEqual(await expectJson(res, 401), { message: "Unauthorized" }, path);
    }
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/cards/issue applies the form defaults and returns only a masked 16-digit Luhn number", async () => {
  await withApp(async (t, req) => {
    const card = await issue(req);
    assert.match(card.cardNumber, MASKED_16);
    assert.ok(card.cardNumber.startsWith("453201"));
    assert.equal(card.cardholderName, "Ada Lovelace");
    assert.equal(card.cardStatus, "active");
    assert.equal(card.cardType, "prepaid");
    assert.equal(card.cardBrand, "visa");
    assert.equal(card.spendingLimit, 10000);
    assert.equal(card.dailyLimit, 1000);
    assert.equal(card.currentBalance, "0.00");
    assert.equal(card.fundingConfirmation, undefined);
    const [full] = await decryptedCardNumbers(t);
    assert.equal(full.length, 16);
    assert.ok(isValidLuhn(full));
    assert.equal(maskCardNumber(full), card.cardNumber);
    const row = await t.deps.db.read.select().from(cards).where(eq(cards.id, card.id)).get();
    assert.ok(row);
    assert.notEqual(row.cardNumberEncrypted, full);
    assert.ok(!row.cardNumberEncrypted.includes(full));
    assert.equal(row.cardNumberFingerprint, t.deps.secrets.fingerprint(full));
    assert.ok(!Object.keys(row).some((column) => /cvv|cvc|security/i.test(column)));
  });
});

Deno.test("POST /api/cards/issue turns blank limits into 0 and accepts whole-number strings", async () => {
  await withApp(async (_t, req) => {
    const blank = await issue(req, { spendingLimit: "", dailyLimit: null, initialBalance: "" });
    assert.deepEqual([blank.spendingLimit, blank.dailyLimit, blank.currentBalance], [0, 0, "0.00"]);
    const strings = await issue(req, { spendingLimit: "2500", dailyLimit: "300", cardType: "credit", cardBrand: "soln_bank" });
    assert.deepEqual([strings.spendingLimit, strings.dailyLimit, strings.cardType, strings.cardBrand], [2500, 300, "credit", "soln_bank"]);
    assert.ok(strings.cardNumber.startsWith("990001"));
  });
});

Deno.test("POST /api/cards/issue rejects invalid fields with 400 naming each field", async () => {
  await withApp(async (t, req) => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ cardholderName: undefined }, "cardholderName"],
      [{ cardholderName: "   " }, "cardholderName"],
      [{ cardholderName: "x".repeat(256) }, "cardholderName"],
      [{ cardType: "gold" }, "cardType"],
      [{ cardBrand: "mastercard" }, "cardBrand"],
      [{ spendingLimit: -1 }, "spendingLimit"],
      [{ spendingLimit: 10.5 }, "spendingLimit"],
      [{ spendingLimit: "ten" }, "spendingLimit"],
      [{ dailyLimit: 2_147_483_648 }, "dailyLimit"],
      [{ initialBalance: "-1" }, "initialBalance"],
      [{ initialBalance: "1.005" }, "initialBalance"],
      [{ initialBalance: "1e3" }, "initialBalance"],
      [{ initialBalance: true }, "initialBalance"],
      [{ initialBalance: "99999999999999" }, "initialBalance"],
    ];
    for (const [override, field] of cases) {
      const body = { cardholderName: "Ada", ...override };
      const error = await expectJson(await req("POST", "/api/cards/issue", { body }), 400);
      assert.equal(error.code, "validation", JSON.stringify(override));
      assert.ok(error.fields[field], `${JSON.stringify(override)} → ${JSON.stringify(error.fields)}`);
    }
    assert.equal((await moneySnapshot(t)).cardCount, 0);
  });
});

Deno.test("issuing with an initial balance moves it from the treasury onto the card in one journaled step", async () => {
  await withApp(async (t, req) => {
    const before = await moneySnapshot(t);
    const card = await issue(req, { initialBalance: "250.75" });
    assert.equal(card.currentBalance, "250.75");
    assert.equal(card.fundingConfirmation.amount, "250.75");
    assert.equal(card.fundingConfirmation.fundingSource, "central_bank_treasury");
    assert.equal(card.fundingConfirmation.sourceAccountNumber, "CB-TREASURY-001");
    assert.equal(await sourceBalance(t, "CB-TREASURY-001"), FUNDING_SOURCE_ACCOUNTS.central_bank_treasury.openingBalanceMinor - 25075);
    const entry = await t.deps.db.read.select().from(ledgerEntries)
      .where(eq(ledgerEntries.id, card.fundingConfirmation.ledgerEntryId)).get();
    assert.ok(entry);
    assert.deepEqual([entry.entryType, entry.amountMinor, entry.referenceType, entry.referenceId], ["card_funding", -25075, "card", card.id]);
    const loads = await t.deps.db.read.select().from(cardLoads).where(eq(cardLoads.cardId, card.id));
    assert.deepEqual(loads.map((load) => [load.reason, load.amountMinor, load.ledgerEntryId]), [["issue", 25075, entry.id]]);
    const after = await moneySnapshot(t);
    assert.equal(after.sources + after.cards, before.sources + before.cards);
    // One audit row for the card and one for the debited ledger account.
    assert.equal(after.audits - before.audits, 2);
  });
});

Deno.test("an initial balance the treasury cannot cover is refused with 422 and creates no card", async () => {
  await withApp(async (t, req) => {
    const before = await moneySnapshot(t);
    const res = await req("POST", "/api/cards/issue", { body: { cardholderName: "Ada", initialBalance: "9999999999999.99" } });
    const error = await expectJson(res, 422);
    assert.equal(error.reason, "insufficient_funds");
    assert.deepEqual(await moneySnapshot(t), before);
  });
});

Deno.test("POST /api/cards/distribute creates and funds a card for the recipient", async () => {
  await withApp(async (t, req) => {
    const res = await req("POST", "/api/cards/distribute", {
      body: { recipientInfo: { name: "Grace Hopper", email: "grace@navy.test" }, cardType: "debit", distributionMethod: "pickup", loadAmount: 40 },
    });
    const card = await expectJson(res, 201);
    assert.match(card.cardNumber, MASKED_16);
    assert.deepEqual(
      [card.cardholderName, card.cardholderEmail, card.cardType, card.distributionMethod, card.currentBalance],
      ["Grace Hopper", "grace@navy.test", "debit", "pickup", "40.00"],
    );
    assert.equal(card.fundingConfirmation.amount, "40.00");
    const unfunded = await expectJson(
      await req("POST", "/api/cards/distribute", { body: { recipientInfo: { name: "Alan", email: "alan@test.example" } } }),
      201,
    );
    assert.deepEqual([unfunded.cardType, unfunded.distributionMethod, unfunded.currentBalance], ["prepaid", "digital", "0.00"]);
    assert.equal(unfunded.fundingConfirmation, undefined);
    assert.equal((await moneySnapshot(t)).cardCount, 2);
  });
});

Deno.test("POST /api/cards/distribute rejects a missing or invalid recipient, type, method or amount", async () => {
  await withApp(async (t, req) => {
    const valid = { recipientInfo: { name: "Grace", email: "grace@navy.test" } };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ recipientInfo: undefined }, "recipientInfo"],
      [{ recipientInfo: { email: "grace@navy.test" } }, "recipientInfo.name"],
      [{ recipientInfo: { name: "Grace" } }, "recipientInfo.email"],
      [{ recipientInfo: { name: "Grace", email: "not-an-email" } }, "recipientInfo.email"],
      [{ cardType: "credit" }, "cardType"],
      [{ distributionMethod: "pigeon" }, "distributionMethod"],
      [{ loadAmount: "-0.01" }, "loadAmount"],
      [{ loadAmount: "0.001" }, "loadAmount"],
    ];
    for (const [override, field] of cases) {
      const error = await expectJson(await req("POST", "/api/cards/distribute", { body: { ...valid, ...override } }), 400);
      assert.ok(error.fields[field], `${JSON.stringify(override)} → ${JSON.stringify(error.fields)}`);
    }
    assert.equal((await moneySnapshot(t)).cardCount, 0);
  });
});

Deno.test("POST /api/cards/{id}/load moves funds from the chosen source and returns loading.amount", async () => {
  await withApp(async (t, req) => {
    const card = await issue(req);
    for (const [fundingSource, amount, balance] of [[undefined, "10.50", "10.50"], ["settlement_source", 5, "15.50"], ["operating_account", "0.01", "15.51"]] as const) {
      const body = fundingSource ? { amount, fundingSource } : { amount };
      const result = await expectJson(await req("POST", `/api/cards/${card.id}/load`, { body }), 200);
      assert.equal(result.loading.amount, typeof amount === "number" ? `${amount}.00` : amount);
      assert.equal(result.loading.fundingSource, fundingSource ?? "central_bank_treasury");
      assert.equal(result.card.currentBalance, balance);
      assert.match(result.card.cardNumber, MASKED_16);
    }
    assert.equal(await sourceBalance(t, "CB-OPERATING-001"), FUNDING_SOURCE_ACCOUNTS.operating_account.openingBalanceMinor - 1);
    const list = await expectJson(await req("GET", "/api/cards"), 200);
    assert.equal(list[0].currentBalance, "15.51");
  });
});

Deno.test("POST /api/cards/{id}/load rejects amounts below 0.01, bad precision and unknown funding sources", async () => {
  await withApp(async (t, req) => {
    const card = await issue(req);
    const before = await moneySnapshot(t);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, "amount"],
      [{ amount: 0 }, "amount"],
      [{ amount: "0.00" }, "amount"],
      [{ amount: "-5" }, "amount"],
      [{ amount: "0.001" }, "amount"],
      [{ amount: "1,000" }, "amount"],
      [{ amount: null }, "amount"],
      [{ amount: 5, fundingSource: "printing_press" }, "fundingSource"],
    ];
    for (const [body, field] of cases) {
      const error = await expectJson(await req("POST", `/api/cards/${card.id}/load`, { body }), 400);
      assert.ok(error.fields[field], `${JSON.stringify(body)} → ${JSON.stringify(error.fields)}`);
    }
    assert.deepEqual(await moneySnapshot(t), before);
  });
});

Deno.test("loading an unknown card answers 404 and an inactive card 409, changing nothing", async () => {
  await withApp(async (t, req) => {
    const missing = await req("POST", `/api/cards/${crypto.randomUUID()}/load`, { body: { amount: 5 } });
    assert.equal((await expectJson(missing, 404)).code, "not_found");
    const card = await issue(req);
    await t.deps.db.transaction((tx) => tx.update(cards).set({ cardStatus: "blocked" }).where(eq(cards.id, card.id)).then(() => {}));
    const before = await moneySnapshot(t);
    const error = await expectJson(await req("POST", `/api/cards/${card.id}/load`, { body: { amount: 5 } }), 409);
    assert.equal(error.reason, "card_inactive");
    assert.deepEqual(await moneySnapshot(t), before);
  });
});

Deno.test("a load that would overdraw its funding source is refused with 422 and changes nothing", async () => {
  await withApp(async (t, req) => {
    await liftApprovalThresholds(req);
    const card = await issue(req);
    const before = await moneySnapshot(t);
    const res = await req("POST", `/api/cards/${card.id}/load`, { body: { amount: "10000000.01", fundingSource: "operating_account" } });
    const error = await expectJson(res, 422);
    assert.equal(error.reason, "insufficient_funds");
    assert.deepEqual(await moneySnapshot(t), before);
    assert.equal(await sourceBalance(t, "CB-OPERATING-001"), FUNDING_SOURCE_ACCOUNTS.operating_account.openingBalanceMinor);
    // Exactly the whole balance still goes through: the source may reach 0, never below.
    const drained = await expectJson(
      await req("POST", `/api/cards/${card.id}/load`, { body: { amount: "10000000.00", fundingSource: "operating_account" } }),
      200,
    );
    assert.equal(drained.card.currentBalance, "10000000.00");
    assert.equal(await sourceBalance(t, "CB-OPERATING-001"), 0);
  });
});

Deno.test("total money (funding accounts plus card balances) is conserved across 200 concurrent loads", async () => {
  await withApp(async (t, req) => {
    // About conservation, not four-eyes: 10,000,000.00 moved by one maker would cross the day total.
    await liftApprovalThresholds(req);
    const cardIds: string[] = [];
    for (let i = 0; i < 3; i++) cardIds.push((await issue(req, { cardholderName: `Holder ${i}` })).id);
    const before = await moneySnapshot(t);
    // 120 loads of 100,000.00 from the 10,000,000.00 operating account: exactly 100 can succeed.
    const requests = Array.from({ length: 200 }, (_, i) => {
      const body = i < 120
        ? { amount: "100000.00", fundingSource: "operating_account" }
        : { amount: `${1 + (i % 97)}.${String(i % 100).padStart(2, "0")}`, fundingSource: i % 2 ? "settlement_source" : "central_bank_treasury" };
      return req("POST", `/api/cards/${cardIds[i % 3]}/load`, { body });
    });
    const statuses = await Promise.all(requests.map(async (pending) => {
      const res = await pending;
      await res.body?.cancel();
      return res.status;
    }));
    assert.equal(statuses.filter((status) => status === 200).length, 180);
    assert.equal(statuses.filter((status) => status === 422).length, 20);
    const after = await moneySnapshot(t);
    assert.equal(after.sources + after.cards, before.sources + before.cards);
    assert.equal(after.loads - before.loads, 180);
    assert.equal(await sourceBalance(t, "CB-OPERATING-001"), 0);
    // Each card's balance is the sum of its loads; each ledger account's balance is the sum of its journal.
    const [mismatch] = await t.deps.db.read.all<{ n: number }>(sql`SELECT
        (SELECT COUNT(*) FROM cards c WHERE c.current_balance_minor <>
          (SELECT COALESCE(SUM(amount_minor), 0) FROM card_loads l WHERE l.card_id = c.id)) +
        (SELECT COUNT(*) FROM ledger_accounts a WHERE a.current_balance_minor <>
          (SELECT COALESCE(SUM(amount_minor), 0) FROM ledger_entries e WHERE e.account_id = a.id)) AS n`);
    assert.equal(mismatch.n, 0);
  });
});

Deno.test("the full card number never appears in a response body, audit_trail.changes or api_logs", async () => {
  await withApp(async (t, req) => {
    const bodies: string[] = [];
    const keep = async (res: Response) => {
      const text = await res.text();
      bodies.push(text);
      return JSON.parse(text);
    };
    const issued = await keep(await req("POST", "/api/cards/issue", { body: { cardholderName: "Ada", initialBalance: "12.00" } }));
    await keep(await req("POST", "/api/cards/distribute", { body: { recipientInfo: { name: "Grace", email: "g@navy.test" }, loadAmount: "3" } }));
    await keep(await req("POST", `/api/cards/${issued.id}/load`, { body: { amount: "1.00" } }));
    await keep(await req("GET", "/api/cards"));
    const numbers = await decryptedCardNumbers(t);
    assert.equal(numbers.length, 2);
    const audit = await t.deps.db.read.all<{ changes: string | null }>(sql`SELECT changes FROM audit_trail`);
    await t.app.requestLog.flush();
    const logs = await t.deps.db.read.all<Record<string, unknown>>(sql`SELECT * FROM api_logs`);
    assert.ok(logs.length >= bodies.length, "the requests were logged");
    const haystacks = [...bodies, ...audit.map((row) => row.changes ?? ""), ...logs.map((row) => JSON.stringify(row))];
    for (const number of numbers) {
      for (const text of haystacks) assert.ok(!text.includes(number), "a full card number leaked");
    }
    // The masked form is what they carry instead.
    assert.ok(audit.some((row) => row.changes?.includes(maskCardNumber(numbers[0]))));
  });
});

Deno.test("GET /api/cards lists newest first with masked numbers and decimal balances", async () => {
  await withApp(async (_t, req) => {
    for (const name of ["First", "Second", "Third"]) await issue(req, { cardholderName: name });
    const list = await expectJson(await req("GET", "/api/cards"), 200);
    assert.deepEqual(list.map((card: { cardholderName: string }) => card.cardholderName), ["Third", "Second", "First"]);
    for (const card of list) {
      assert.match(card.cardNumber, MASKED_16);
      assert.equal(card.currentBalance, "0.00");
    }
    const page = await expectJson(await req("GET", "/api/cards?limit=1&offset=1"), 200);
    assert.deepEqual(page.map((card: { cardholderName: string }) => card.cardholderName), ["Second"]);
  });
});

Deno.test("a colliding card number is redrawn, and running out of attempts fails without a card", async () => {
  await withApp(async (t) => {
    const actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null };
    const draws = ["111111111", "111111111", "222222222"];
    const service = createCardService(t.deps, {
      issuerPrefixes: issuerPrefixesFromEnv({}),
      randomDigits: () => draws.shift() ?? "333333333",
    });
    const input = { cardholderName: "Ada", cardType: "prepaid", cardBrand: "visa", spendingLimit: 0, dailyLimit: 0, initialBalance: 0 } as const;
    await service.issue(actor, input);
    await service.issue(actor, input);
    const numbers = (await decryptedCardNumbers(t)).sort();
    assert.deepEqual(numbers.map((number) => number.slice(6, 15)), ["111111111", "222222222"]);

    let calls = 0;
    const stuck = createCardService(t.deps, {
      issuerPrefixes: issuerPrefixesFromEnv({}),
      randomDigits: () => {
        calls++;
        return "111111111";
      },
    });
    await assert.rejects(stuck.issue(actor, input), /unique card number/);
    assert.equal(calls, MAX_CARD_NUMBER_ATTEMPTS);
    assert.equal((await moneySnapshot(t)).cardCount, 2);
  });
});

Deno.test("issuer prefixes come from CARD_PREFIX_VISA / CARD_PREFIX_SOLN_BANK and a malformed one is refused at start", async () => {
  await withApp(async (_t, req) => {
    const visa = await issue(req);
    const soln = await issue(req, { cardBrand: "soln_bank" });
    assert.ok(visa.cardNumber.startsWith("411122"), visa.cardNumber);
    assert.ok(soln.cardNumber.startsWith("880011"), soln.cardNumber);
  }, { CARD_PREFIX_VISA: "41112233", CARD_PREFIX_SOLN_BANK: "880011" });
  assert.throws(() => issuerPrefixesFromEnv({ CARD_PREFIX_VISA: "51112233" }), /CARD_PREFIX_VISA: .*start with 4/);
  assert.throws(() => issuerPrefixesFromEnv({ CARD_PREFIX_SOLN_BANK: "88a011" }), /CARD_PREFIX_SOLN_BANK/);
  assert.throws(() => issuerPrefixesFromEnv({ CARD_PREFIX_SOLN_BANK: "8800" }), /CARD_PREFIX_SOLN_BANK/);
});
