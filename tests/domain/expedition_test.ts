import assert from "node:assert/strict";
import {
  EXPEDITION_PARTNERS,
  EXPEDITION_STATUSES,
  expeditionConfirmation,
  isExpeditionMethod,
  mayMoveExpedition,
} from "../../src/domain/expedition.ts";

Deno.test("mayMoveExpedition(): open → in progress → done, either cancellable, done and cancelled final", () => {
  const allowed = EXPEDITION_STATUSES.flatMap((from) =>
    EXPEDITION_STATUSES.filter((to) => mayMoveExpedition(from, to)).map((to) => `${from}→${to}`)
  );
  assert.deepEqual(allowed, [
    "open→in_progress",
    "open→cancelled",
    "in_progress→done",
    "in_progress→cancelled",
  ]);
});

Deno.test("isExpeditionMethod(): each partner accepts only its own choices", () => {
  assert.ok(isExpeditionMethod("swift", "executive-contact"));
  assert.ok(!isExpeditionMethod("swift", "urgent"));
  assert.ok(isExpeditionMethod("visa", "urgent"));
  assert.ok(isExpeditionMethod("executive", "diplomatic-channels"));
  assert.ok(!isExpeditionMethod("executive", ""));
});

Deno.test("expeditionConfirmation(): the spec's texts with the partner's name", () => {
  assert.deepEqual(EXPEDITION_PARTNERS.map((partner) => expeditionConfirmation(partner).description), [
    "Priority escalation submitted for SWIFT partnership",
    "Priority escalation submitted for Visa partnership",
    "Priority escalation submitted for Executive partnership",
  ]);
  assert.equal(expeditionConfirmation("visa").title, "Expedition Request Initiated");
});
