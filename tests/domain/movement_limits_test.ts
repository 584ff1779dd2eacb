import assert from "node:assert/strict";
import { DEFAULT_THRESHOLD_MINOR } from "../../src/domain/approval.ts";
import {
  approvalGroundMessage,
  dayTotalNeedsApproval,
  groupedAmount,
  outflowNeedsApproval,
  utcDayKey,
} from "../../src/domain/movement_limits.ts";

const SPLIT_MINOR = 15_000_000n; // 150,000.00

Deno.test("the day total needs approval once it goes strictly above the threshold", () => {
  assert.equal(dayTotalNeedsApproval(0n, DEFAULT_THRESHOLD_MINOR, DEFAULT_THRESHOLD_MINOR), false);
  assert.equal(dayTotalNeedsApproval(0n, DEFAULT_THRESHOLD_MINOR + 1n, DEFAULT_THRESHOLD_MINOR), true);
  assert.equal(dayTotalNeedsApproval(DEFAULT_THRESHOLD_MINOR - 1n, 1n, DEFAULT_THRESHOLD_MINOR), false);
  assert.equal(dayTotalNeedsApproval(DEFAULT_THRESHOLD_MINOR, 1n, DEFAULT_THRESHOLD_MINOR), true);
});

Deno.test("ten splits of 150,000.00 against 1,000,000.00: six pass alone, the seventh crosses", () => {
  let moved = 0n;
  const crossed: number[] = [];
  for (let i = 1; i <= 10; i++) {
    if (dayTotalNeedsApproval(moved, SPLIT_MINOR, DEFAULT_THRESHOLD_MINOR)) crossed.push(i);
    else moved += SPLIT_MINOR;
  }
  // Only what executed alone counts, so every split after the sixth needs approval, not just the seventh.
  assert.deepEqual(crossed, [7, 8, 9, 10]);
  assert.equal(moved, 6n * SPLIT_MINOR);
});

Deno.test("an account's outflow limit: none never refuses, at the limit passes, above it refuses", () => {
  assert.equal(outflowNeedsApproval(999_999_999_999_999n, 1n, null), false);
  assert.equal(outflowNeedsApproval(40_000_000n, 10_000_000n, 50_000_000n), false);
  assert.equal(outflowNeedsApproval(40_000_000n, 10_000_001n, 50_000_000n), true);
  assert.equal(outflowNeedsApproval(0n, 1n, 0n), true);
  assert.equal(outflowNeedsApproval(0n, 0n, 0n), false);
});

Deno.test("the UTC day key follows UTC midnight, not the local one", () => {
  assert.equal(utcDayKey(new Date("2026-03-09T23:59:59.999Z")), "2026-03-09");
  assert.equal(utcDayKey(new Date("2026-03-10T00:00:00.000Z")), "2026-03-10");
  assert.equal(utcDayKey(new Date("2026-03-10T00:30:00+02:00")), "2026-03-09");
  assert.equal(utcDayKey(new Date("2028-02-29T12:00:00Z")), "2028-02-29");
});

Deno.test("figures are grouped by thousands without losing a cent", () => {
  assert.equal(groupedAmount(0n), "0.00");
  assert.equal(groupedAmount(99_999n), "999.99");
  assert.equal(groupedAmount(100_000n), "1,000.00");
  assert.equal(groupedAmount(120_000_000n), "1,200,000.00");
  assert.equal(groupedAmount(999_999_999_999_999n), "9,999,999,999,999.99");
});

Deno.test("the maker reads why the movement went to a second person", () => {
  const maker = {
    rule: "maker_day_total" as const,
    currency: "USD",
    movedTodayMinor: 90_000_000n,
    amountMinor: 30_000_000n,
    thresholdMinor: DEFAULT_THRESHOLD_MINOR,
  };
  assert.equal(
    approvalGroundMessage(maker),
    "Your manual movements in USD today would total $1,200,000.00, over the $1,000,000.00 threshold",
  );
  assert.equal(
    approvalGroundMessage({ ...maker, movedTodayMinor: 0n, amountMinor: 500_000_000n }),
    "$5,000,000.00 is over the $1,000,000.00 threshold",
  );
  assert.equal(
    approvalGroundMessage({
      rule: "account_daily_outflow",
      accountNumber: "CB-TREASURY-001",
      currency: "USD",
      outflowTodayMinor: 45_000_000n,
      amountMinor: 10_000_000n,
      limitMinor: 50_000_000n,
    }),
    "Account CB-TREASURY-001's outflow today would total $550,000.00, over its daily limit of $500,000.00",
  );
});
