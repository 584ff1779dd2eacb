import assert from "node:assert/strict";
import { MIN_PASSWORD_LENGTH, passwordRuleProblems } from "../../src/domain/password_policy.ts";
import {
  backupsToRemove,
  effectiveIdleMinutes,
  localTimestamp,
  minimumPasswordLength,
  nextBackupDueMs,
  PASSWORD_POLICIES,
} from "../../src/domain/system_settings.ts";

const at = (iso: string) => Date.parse(iso);

Deno.test("password policies ask 12, 14 and 16 characters, never below the server's floor", () => {
  assert.deepEqual(PASSWORD_POLICIES.map(minimumPasswordLength), [12, 14, 16]);
  assert.ok(PASSWORD_POLICIES.every((policy) => minimumPasswordLength(policy) >= MIN_PASSWORD_LENGTH));
  const owner = { email: "clerk@centralbank.test" };
  assert.deepEqual(passwordRuleProblems("Qv7#mZ2!pL9@xR", owner, 14), []);
  assert.deepEqual(passwordRuleProblems("Qv7#mZ2!pL9@xR", owner, 16), [
    "Password must be at least 16 characters",
  ]);
  assert.deepEqual(passwordRuleProblems("Qv7#mZ2!pL9@", owner, 8), [], "a lower minimum never goes below 12");
  assert.deepEqual(passwordRuleProblems("Qv7#mZ2!pL9", owner, 8), [
    "Password must be at least 12 characters",
  ]);
});

Deno.test("the idle timeout is the setting under the host's ceiling", () => {
  assert.equal(effectiveIdleMinutes(15, 30), 15);
  assert.equal(effectiveIdleMinutes(60, 30), 30);
});

Deno.test("the next backup is an hour, a day, a week or a calendar month after the last one started", () => {
  const last = at("2026-01-31T02:00:00.000Z");
  assert.equal(nextBackupDueMs("daily", null), Number.NEGATIVE_INFINITY, "never run: due at once");
  assert.equal(nextBackupDueMs("hourly", last), at("2026-01-31T03:00:00.000Z"));
  assert.equal(nextBackupDueMs("daily", last), at("2026-02-01T02:00:00.000Z"));
  assert.equal(nextBackupDueMs("weekly", last), at("2026-02-07T02:00:00.000Z"));
  assert.equal(
    nextBackupDueMs("monthly", last),
    at("2026-02-28T02:00:00.000Z"),
    "the shorter month's last day",
  );
  assert.equal(nextBackupDueMs("monthly", at("2026-12-15T02:00:00.000Z")), at("2027-01-15T02:00:00.000Z"));
});

Deno.test("backup retention removes the oldest folders beyond the copies kept", () => {
  const folders = ["20260103T020000-000Z", "20260101T020000-000Z", "20260102T020000-000Z"];
  assert.deepEqual(backupsToRemove(folders, 2), ["20260101T020000-000Z"]);
  assert.deepEqual(backupsToRemove(folders, 5), []);
});

Deno.test("localTimestamp(): each of the spec's time zones, with its summer time where it keeps one", () => {
  const winter = "2026-11-28T12:09:15.123Z";
  const summer = "2026-07-01T00:00:00.000Z";
  assert.equal(localTimestamp(winter, "UTC"), "2026-11-28 12:09:15 (UTC+00:00)");
  assert.equal(localTimestamp(winter, "EST"), "2026-11-28 07:09:15 (UTC-05:00)");
  assert.equal(localTimestamp(summer, "EST"), "2026-06-30 20:00:00 (UTC-04:00)");
  assert.equal(localTimestamp(winter, "PST"), "2026-11-28 04:09:15 (UTC-08:00)");
  assert.equal(localTimestamp(summer, "GMT"), "2026-07-01 00:00:00 (UTC+00:00)", "GMT keeps no summer time");
  assert.equal(localTimestamp(winter, "CET"), "2026-11-28 13:09:15 (UTC+01:00)");
  assert.equal(localTimestamp(summer, "CET"), "2026-07-01 02:00:00 (UTC+02:00)");
});
