import assert from "node:assert/strict";
import { filingStatus, validateFilingDates } from "../../src/domain/compliance_schedule.ts";

Deno.test("filingStatus(): complete only with a report, naming when and by whom; else due, then overdue", () => {
  const open = { dueDate: "2026-12-05", fulfilledBy: null };
  assert.deepEqual(filingStatus(open, "2026-11-28"), { state: "due", label: "Due 2026-12-05" });
  assert.deepEqual(filingStatus(open, "2026-12-05"), { state: "due", label: "Due 2026-12-05" }, "due on the day");
  assert.deepEqual(filingStatus(open, "2026-12-06"), { state: "overdue", label: "Overdue" });
  const done = { ...open, fulfilledBy: { generatedAt: "2026-12-07T09:00:00.000Z", generatedBy: "Ada Lovelace" } };
  assert.deepEqual(filingStatus(done, "2026-12-08"), {
    state: "complete",
    label: "Complete (generated 2026-12-07 by Ada Lovelace)",
  });
});

Deno.test("validateFilingDates(): real dates, opening no later than the due date", () => {
  assert.ok(validateFilingDates("2026-12-01", "2026-12-01").ok);
  const reversed = validateFilingDates("2026-12-02", "2026-12-01");
  assert.deepEqual(!reversed.ok && reversed.error.field, "dueDate");
  const bad = validateFilingDates("2026-13-01", "2026-12-01");
  assert.deepEqual(!bad.ok && bad.error.field, "opensOn");
});
