import assert from "node:assert/strict";
import {
  type JournalEntry,
  type SweepJournalEntry,
  type SweepRecord,
  verifyAccountJournal,
  verifySweepEntries,
} from "../../src/domain/journal.ts";

function entry(
  id: string,
  entryType: JournalEntry["entryType"],
  amountMinor: bigint,
  balanceBeforeMinor: bigint,
): JournalEntry {
  return {
    id,
    entryType,
    amountMinor,
    balanceBeforeMinor,
    balanceAfterMinor: balanceBeforeMinor + amountMinor,
    referenceId: id,
  };
}

const account = (opening: bigint, current: bigint, available = current) => ({
  openingBalanceMinor: opening,
  currentBalanceMinor: current,
  availableBalanceMinor: available,
});

const history: JournalEntry[] = [
  entry("open", "opening", 10_000n, 0n),
  entry("out1", "sweep_out", -2_500n, 10_000n),
  entry("in1", "sweep_in", 1_000n, 7_500n),
  entry("card1", "card_funding", -500n, 8_500n),
];

Deno.test("verifyAccountJournal() accepts an unbroken journal and totals it by entry type", () => {
  const result = verifyAccountJournal(account(10_000n, 8_000n), history);
  assert.deepEqual(result, {
    ok: true,
    value: {
      entryCount: 4,
      openingMinor: 10_000n,
      sweepInMinor: 1_000n,
      sweepOutMinor: 2_500n,
      cardFundingMinor: -500n,
    },
  });
});

Deno.test("verifyAccountJournal() accepts an account opened at zero with no other entries", () => {
  assert.equal(verifyAccountJournal(account(0n, 0n), [entry("open", "opening", 0n, 0n)]).ok, true);
});

Deno.test("verifyAccountJournal() requires the journal to start with one opening entry", () => {
  const none = verifyAccountJournal(account(0n, 0n), []);
  assert.equal(!none.ok && none.error.code, "missing_opening_entry");
  const late = verifyAccountJournal(account(0n, 0n), [entry("in", "sweep_in", 5n, 0n)]);
  assert.equal(!late.ok && late.error.code, "missing_opening_entry");
  const twice = verifyAccountJournal(account(5n, 10n), [
    entry("o1", "opening", 5n, 0n),
    entry("o2", "opening", 5n, 5n),
  ]);
  assert.deepEqual(!twice.ok && [twice.error.code, twice.error.entryId], ["duplicate_opening_entry", "o2"]);
});

Deno.test("verifyAccountJournal() detects an opening entry that differs from the account's opening balance", () => {
  const result = verifyAccountJournal(account(10_001n, 8_000n), history);
  assert.deepEqual(!result.ok && [result.error.code, result.error.entryId], ["opening_mismatch", "open"]);
});

Deno.test("verifyAccountJournal() names the first entry that breaks the chain", () => {
  const broken = [...history];
  broken[2] = entry("in1", "sweep_in", 1_000n, 7_400n);
  const result = verifyAccountJournal(account(10_000n, 8_000n), broken);
  assert.deepEqual(!result.ok && [result.error.code, result.error.entryId], ["chain_break", "in1"]);
  assert.match(
    !result.ok ? result.error.message : "",
    /starts at 74\.00, but the previous balance was 75\.00/,
  );
});

Deno.test("verifyAccountJournal() detects an entry whose after-balance disagrees with its amount", () => {
  const broken = [...history];
  broken[1] = { ...history[1], balanceAfterMinor: 7_600n };
  const result = verifyAccountJournal(account(10_000n, 8_000n), broken);
  assert.deepEqual(!result.ok && [result.error.code, result.error.entryId], ["amount_mismatch", "out1"]);
});

Deno.test("verifyAccountJournal() detects a negative balance and a sweep entry with the wrong sign", () => {
  const negative = verifyAccountJournal(account(100n, 0n), [
    entry("open", "opening", 100n, 0n),
    entry("card", "card_funding", -200n, 100n),
  ]);
  assert.equal(!negative.ok && negative.error.code, "negative_balance");
  const wrongSign = verifyAccountJournal(account(100n, 150n), [
    entry("open", "opening", 100n, 0n),
    entry("out", "sweep_out", 50n, 100n),
  ]);
  assert.equal(!wrongSign.ok && wrongSign.error.code, "entry_sign_mismatch");
});

Deno.test("verifyAccountJournal() detects a current or available balance the journal does not explain", () => {
  const current = verifyAccountJournal(account(10_000n, 8_001n), history);
  assert.deepEqual(!current.ok && [current.error.code, current.error.entryId], [
    "current_balance_mismatch",
    null,
  ]);
  const available = verifyAccountJournal(account(10_000n, 8_000n, 8_001n), history);
  assert.equal(!available.ok && available.error.code, "available_balance_mismatch");
});

const sweep: SweepRecord = {
  id: "sweep-1",
  sourceAccountId: "ledger",
  targetAccountId: "liquid",
  amountMinor: 2_500n,
  sourceBalanceBeforeMinor: 10_000n,
  sourceBalanceAfterMinor: 7_500n,
  targetBalanceBeforeMinor: 100n,
  targetBalanceAfterMinor: 2_600n,
};
const sweepOut: SweepJournalEntry = {
  ...entry("e-out", "sweep_out", -2_500n, 10_000n),
  accountId: "ledger",
  referenceId: "sweep-1",
};
const sweepIn: SweepJournalEntry = {
  ...entry("e-in", "sweep_in", 2_500n, 100n),
  accountId: "liquid",
  referenceId: "sweep-1",
};

Deno.test("verifySweepEntries() accepts exactly one matching debit and credit", () => {
  assert.deepEqual(verifySweepEntries(sweep, [sweepIn, sweepOut]), {
    ok: true,
    value: { outEntryId: "e-out", inEntryId: "e-in" },
  });
});

Deno.test("verifySweepEntries() reports a missing or duplicated side", () => {
  for (const entries of [[sweepOut], [sweepOut, sweepIn, sweepIn], []]) {
    const result = verifySweepEntries(sweep, entries);
    assert.equal(!result.ok && result.error.code, "sweep_entries_missing");
  }
});

Deno.test("verifySweepEntries() reports entries on the wrong account or with other amounts or balances", () => {
  const cases: SweepJournalEntry[][] = [
    [{ ...sweepOut, accountId: "other" }, sweepIn],
    [sweepOut, { ...sweepIn, accountId: "ledger" }],
    [
      { ...entry("e-out", "sweep_out", -2_400n, 10_000n), accountId: "ledger", referenceId: "sweep-1" },
      sweepIn,
    ],
    [sweepOut, { ...entry("e-in", "sweep_in", 2_500n, 101n), accountId: "liquid", referenceId: "sweep-1" }],
  ];
  for (const entries of cases) {
    const result = verifySweepEntries(sweep, entries);
    assert.equal(!result.ok && result.error.code, "sweep_entries_mismatch");
  }
});
