import assert from "node:assert/strict";
import {
  activationVersion,
  codeStatusAt,
  instantLabel,
  planCodeStatusChange,
  planParticipantStatusChange,
} from "../../src/domain/code_lifecycle.ts";

const NOW = "2026-11-28T10:00:00.000Z";
const LATER = "2027-03-01T00:00:00.000Z";
const END = "2027-04-01T00:00:00.000Z";
const active = { key: "CBR00000142", status: "active", terminatedAt: null };

const change = (status: "active" | "suspended" | "inactive" | "terminated", extra: Partial<{
  effectiveFrom: string;
  until: string | null;
  successor: string | null;
}> = {}) => ({ status, effectiveFrom: NOW, until: null, successor: null, ...extra });

Deno.test("a code reads terminated from its terminatedAt on, and its stored status before", () => {
  const state = { status: "active", terminatedAt: LATER };
  assert.equal(codeStatusAt(state, NOW), "active");
  assert.equal(codeStatusAt(state, LATER), "terminated");
  assert.equal(codeStatusAt({ status: "suspended", terminatedAt: null }, LATER), "suspended");
});

Deno.test("a termination at once is one version with its successor and the deletion announced now", () => {
  const plan = planCodeStatusChange(
    active,
    change("terminated", { successor: "CBR00000250" }),
    "successorCode",
    NOW,
  );
  assert(plan.ok);
  assert.deepEqual(plan.value, [{
    validFrom: NOW,
    changes: { terminatedAt: NOW, successorCode: "CBR00000250", deletionAnnouncedAt: NOW },
    summary: "Terminated, succeeded by CBR00000250",
  }]);
});

Deno.test("a termination on a later date announces the deletion now and terminates at its date", () => {
  const plan = planCodeStatusChange(
    active,
    change("terminated", { effectiveFrom: LATER }),
    "successorBic",
    NOW,
  );
  assert(plan.ok);
  assert.deepEqual(plan.value.map((version) => [version.validFrom, version.changes]), [
    [NOW, { deletionAnnouncedAt: NOW }],
    [LATER, { terminatedAt: LATER, successorBic: null }],
  ]);
  assert.equal(plan.value[0].summary, "Deletion announced for 2027-03-01");
});

Deno.test("a suspension with an end returns to the status held before it", () => {
  const plan = planCodeStatusChange(
    { ...active, status: "inactive" },
    change("suspended", { effectiveFrom: LATER, until: END }),
    "successorCode",
    NOW,
  );
  assert(plan.ok);
  assert.deepEqual(plan.value.map((version) => [version.validFrom, version.changes]), [
    [LATER, { status: "suspended" }],
    [END, { status: "inactive" }],
  ]);
});

Deno.test("refused changes name their field: no change, terminated, end without suspension, misplaced or own successor", () => {
  const refusal = (
    state: typeof active | { key: string; status: string; terminatedAt: string },
    request: ReturnType<typeof change>,
  ) => {
    const plan = planCodeStatusChange(state, request, "successorCode", NOW);
    assert(!plan.ok);
    return [plan.error.code, plan.error.field];
  };
  assert.deepEqual(refusal(active, change("active")), ["invalid_transition", "status"]);
  assert.deepEqual(refusal({ ...active, terminatedAt: NOW }, change("active")), [
    "invalid_transition",
    "status",
  ]);
  assert.deepEqual(refusal(active, change("inactive", { until: END })), [
    "until_without_suspension",
    "until",
  ]);
  assert.deepEqual(
    refusal(active, change("suspended", { effectiveFrom: END, until: LATER })),
    ["until_not_after_start", "until"],
  );
  assert.deepEqual(
    refusal(active, change("suspended", { successor: "CBR00000250" })),
    ["successor_without_termination", "successor"],
  );
  assert.deepEqual(refusal(active, change("terminated", { successor: active.key })), [
    "successor_is_itself",
    "successor",
  ]);
});

Deno.test("a participant's status change is one dated version, refused when nothing changes", () => {
  const entry = { key: "CBR001", participantStatus: "active" };
  const plan = planParticipantStatusChange(entry, "suspended", LATER);
  assert(plan.ok);
  assert.deepEqual(plan.value, {
    validFrom: LATER,
    changes: { participantStatus: "suspended" },
    summary: "Participant status active → suspended",
  });
  const same = planParticipantStatusChange(entry, "active", LATER);
  assert(!same.ok);
  assert.equal(same.error.field, "participantStatus");
});

Deno.test("a record registered for later is switched on at its date; dates at midnight read as dates", () => {
  assert.deepEqual(activationVersion("status", "active", LATER), {
    validFrom: LATER,
    changes: { status: "active" },
    summary: "In force from 2027-03-01: active",
  });
  assert.equal(instantLabel(LATER), "2027-03-01");
  assert.equal(instantLabel(NOW), NOW);
});
