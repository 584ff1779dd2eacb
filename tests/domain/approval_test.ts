import assert from "node:assert/strict";
import {
  amountNeedsApproval,
  DEFAULT_THRESHOLD_MINOR,
  openingBalanceNeedsApproval,
  statusAt,
} from "../../src/domain/approval.ts";

Deno.test("a movement needs approval strictly above the threshold", () => {
  assert.equal(amountNeedsApproval(DEFAULT_THRESHOLD_MINOR, DEFAULT_THRESHOLD_MINOR), false);
  assert.equal(amountNeedsApproval(DEFAULT_THRESHOLD_MINOR + 1n, DEFAULT_THRESHOLD_MINOR), true);
  assert.equal(amountNeedsApproval(1n, 0n), true);
});

Deno.test("any opening balance other than zero needs approval, whatever its size", () => {
  assert.equal(openingBalanceNeedsApproval(0n), false);
  assert.equal(openingBalanceNeedsApproval(1n), true);
  assert.equal(openingBalanceNeedsApproval(999_999_999_999_999n), true);
});

Deno.test("a pending request is expired from its expiry instant on; decided ones keep their status", () => {
  const expiresAt = "2026-11-25T12:00:00.000Z";
  assert.equal(statusAt("pending", expiresAt, new Date("2026-11-25T11:59:59.999Z")), "pending");
  assert.equal(statusAt("pending", expiresAt, new Date(expiresAt)), "expired");
  assert.equal(statusAt("approved", expiresAt, new Date("2026-11-26T00:00:00Z")), "approved");
});
