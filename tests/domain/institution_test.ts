import assert from "node:assert/strict";
import {
  INSTITUTION_STATUSES as SCHEMA_STATUSES,
  INSTITUTION_TYPES as SCHEMA_INSTITUTION_TYPES,
  SWIFT_MEMBERSHIP_TYPES as SCHEMA_MEMBERSHIP_TYPES,
} from "../../db/schema.ts";
import {
  allowedStatusTransitions,
  branchLabel,
  checkStatusTransition,
  INSTITUTION_LIFECYCLE_STATUSES,
  lifecycleStatus,
  INSTITUTION_STATUSES,
  INSTITUTION_TYPES,
  STATUS_ACTIONS,
  SWIFT_MEMBERSHIP_TYPES,
} from "../../src/domain/institution.ts";

Deno.test("institution enumerations match the spec and the database schema", () => {
  assert.deepEqual(INSTITUTION_TYPES, ["commercial", "savings", "credit_union", "development", "investment"]);
  assert.deepEqual(INSTITUTION_STATUSES, ["pending", "active", "suspended"]);
  assert.deepEqual(SWIFT_MEMBERSHIP_TYPES, ["full", "subgroup", "correspondent"]);
  assert.deepEqual([...SCHEMA_INSTITUTION_TYPES], [...INSTITUTION_TYPES]);
  assert.deepEqual([...SCHEMA_STATUSES], [...INSTITUTION_STATUSES]);
  assert.deepEqual([...SCHEMA_MEMBERSHIP_TYPES], [...SWIFT_MEMBERSHIP_TYPES]);
});

Deno.test("checkStatusTransition() allows approval, suspension and reactivation and nothing else", () => {
  const allowed = new Set(["pending→active", "active→suspended", "suspended→active"]);
  for (const from of INSTITUTION_STATUSES) {
    for (const to of INSTITUTION_STATUSES) {
      const result = checkStatusTransition(from, to);
      assert.equal(result.ok, allowed.has(`${from}→${to}`), `${from}→${to}`);
      if (!result.ok) {
        assert.equal(result.error.code, "invalid_transition");
        assert.equal(result.error.field, "status");
        assert.deepEqual(result.error.allowed, allowedStatusTransitions(from));
        assert.match(result.error.message, new RegExp(`${from} cannot become ${to}`));
      }
    }
  }
});

Deno.test("each status offers one row action, and it is an allowed transition", () => {
  for (const status of INSTITUTION_STATUSES) {
    const action = STATUS_ACTIONS[status];
    assert.ok(checkStatusTransition(status, action.to).ok, `${status}: ${action.label}`);
  }
  // Activating files a request for a second person: the button says so, never "Approve".
  assert.deepEqual(INSTITUTION_STATUSES.map((s) => STATUS_ACTIONS[s].label), [
    "Request approval",
    "Suspend",
    "Reactivate",
  ]);
});

Deno.test("branchLabel() says branch for one and branches otherwise", () => {
  assert.equal(branchLabel(1), "1 branch");
  assert.equal(branchLabel(2), "2 branches");
  assert.equal(branchLabel(142), "142 branches");
});

Deno.test("termination is possible from every status and final; terminated holds from terminatedAt on", () => {
  for (const from of INSTITUTION_STATUSES) assert.ok(checkStatusTransition(from, "terminated").ok, from);
  for (const to of INSTITUTION_LIFECYCLE_STATUSES) {
    const result = checkStatusTransition("terminated", to);
    assert.equal(result.ok, false, to);
    if (!result.ok) {
      assert.deepEqual(result.error.allowed, []);
      assert.match(result.error.message, /termination is final/);
    }
  }
  const at = "2027-03-01T00:00:00.000Z";
  assert.equal(lifecycleStatus("active", at, "2027-02-28T23:59:59.999Z"), "active");
  assert.equal(lifecycleStatus("active", at, at), "terminated");
  assert.equal(lifecycleStatus("suspended", null, at), "suspended");
});
