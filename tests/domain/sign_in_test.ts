import assert from "node:assert/strict";
import fc from "fast-check";
import {
  ACCOUNT_BACKOFF,
  ADDRESS_BACKOFF,
  afterFailure,
  backoffDelayMs,
  type BackoffState,
  nextAttemptAtMs,
  retryAfterSeconds,
} from "../../src/domain/sign_in_throttle.ts";
import { secondFactorRequired } from "../../src/domain/sign_in_policy.ts";

Deno.test("back-off: free tries, then 1 s doubling, never more than 30 s", () => {
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 100].map((failures) => backoffDelayMs(ACCOUNT_BACKOFF, failures)),
    [0, 0, 0, 0, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000],
  );
  assert.equal(backoffDelayMs(ADDRESS_BACKOFF, 10), 0);
  assert.equal(backoffDelayMs(ADDRESS_BACKOFF, 11), 1_000);
});

Deno.test("back-off: whatever sequence of failures, the next attempt is never more than 30 s after the last failure", () => {
  fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 60_000 }), { maxLength: 200 }), (gaps) => {
    let state: BackoffState | null = null;
    let now = 0;
    for (const gap of gaps) {
      now += gap;
      state = afterFailure(ACCOUNT_BACKOFF, state, now);
    }
    const next = nextAttemptAtMs(ACCOUNT_BACKOFF, state, now);
    return next === null || next - now <= ACCOUNT_BACKOFF.maxDelayMs;
  }));
});

Deno.test("back-off: a count left alone for 15 minutes is forgotten", () => {
  let state: BackoffState | null = null;
  for (let i = 0; i < 10; i++) state = afterFailure(ACCOUNT_BACKOFF, state, 0);
  assert.equal(afterFailure(ACCOUNT_BACKOFF, state, 15 * 60_000).failures, 1);
  assert.equal(nextAttemptAtMs(ACCOUNT_BACKOFF, state, 15 * 60_000), null);
});

Deno.test("Retry-After is whole seconds and at least 1", () => {
  assert.equal(retryAfterSeconds(1_000, 999), 1);
  assert.equal(retryAfterSeconds(30_000, 0), 30);
  assert.equal(retryAfterSeconds(1_500, 0), 2);
});

Deno.test("second factor: administrators and approvers always, everyone when the setting says so, nobody with REQUIRE_MFA=0", () => {
  const on = { enforced: true, requiredForAll: false };
  assert.equal(secondFactorRequired(["administrator", "operator"], on), true);
  assert.equal(secondFactorRequired(["approver"], on), true);
  assert.equal(secondFactorRequired(["operator"], on), false);
  assert.equal(secondFactorRequired(["auditor"], on), false);
  assert.equal(secondFactorRequired(["operator"], { enforced: true, requiredForAll: true }), true);
  assert.equal(secondFactorRequired(["administrator"], { enforced: false, requiredForAll: true }), false);
});

Deno.test("OIDC role map: provider values to console roles, claims as a list or one string, nested claim paths", async () => {
  const { claimAt, mapClaimRoles, parseRoleMap, primaryRole } = await import(
    "../../src/domain/oidc_roles.ts"
  );
  const map = parseRoleMap("registry-admins=admin, registry-staff=operator, ou=ops=operator", [
    "admin",
    "operator",
  ]);
  assert(!("error" in map));
  assert.deepEqual(mapClaimRoles(["registry-staff", "unrelated", 7], map).sort(), ["operator"]);
  assert.deepEqual(mapClaimRoles("registry-admins", map), ["admin"]);
  assert.deepEqual(mapClaimRoles(["ou=ops"], map), ["operator"]);
  assert.deepEqual(mapClaimRoles(undefined, map), []);
  assert.equal(primaryRole(["operator", "admin"], ["admin", "operator"]), "admin");
  assert.equal(primaryRole([], ["admin", "operator"]), null);
  assert.deepEqual(claimAt({ realm_access: { roles: ["a"] } }, "realm_access.roles"), ["a"]);
  assert.equal(claimAt({ realm_access: ["a"] }, "realm_access.roles"), undefined);
  assert.match(
    (parseRoleMap("registry-admins=superuser", ["admin"]) as { error: string }).error,
    /not a console role/,
  );
  assert.match((parseRoleMap("", ["admin"]) as { error: string }).error, /no role/);
  assert.match((parseRoleMap("=admin", ["admin"]) as { error: string }).error, /provider value=console role/);
});
