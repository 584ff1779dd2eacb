import assert from "node:assert/strict";
import { scopeOfKind } from "../../src/domain/approval.ts";
import {
  decisionRefusal,
  dualControlInForce,
  grantDecides,
  grantsPower,
  type RoleGrant,
  roleConflict,
} from "../../src/domain/dual_control.ts";

const grant = (role: RoleGrant["role"], source: RoleGrant["source"], grantedBy: string | null = null): RoleGrant => ({
  role,
  source,
  grantedBy,
  confirmedBy: null,
});

Deno.test("roleConflict() keeps administration apart from operating and approving, and the auditor alone", () => {
  assert.match(roleConflict(["administrator", "operator"])!, /cannot also be an operator/);
  assert.match(roleConflict(["administrator", "approver"])!, /cannot also be an approver/);
  assert.match(roleConflict(["auditor", "approver"])!, /auditor holds no other role/);
  assert.match(roleConflict(["administrator", "auditor"])!, /auditor holds no other role/);
  assert.equal(roleConflict(["operator", "approver"]), null);
  assert.equal(roleConflict(["administrator"]), null);
  assert.equal(roleConflict(["auditor"]), null);
});

Deno.test("grantDecides(): controlled grants decide; an approver granted alone or held from before waits for confirmation", () => {
  assert.equal(grantDecides(grant("approver", "dual_control", "a")), true);
  assert.equal(grantDecides(grant("approver", "provider")), true);
  assert.equal(grantDecides(grant("approver", "seed")), true);
  assert.equal(grantDecides(grant("administrator", "bootstrap")), true);
  assert.equal(grantDecides(grant("approver", "sole_administrator", "a")), false);
  assert.equal(grantDecides(grant("approver", "legacy")), false);
  assert.equal(grantDecides({ ...grant("approver", "sole_administrator", "a"), confirmedBy: "b" }), true);
  // Founding administrators: nobody else exists to confirm them.
  assert.equal(grantDecides(grant("administrator", "sole_administrator", "a")), true);
});

Deno.test("decisionRefusal() checks the grant history, not the user id alone", () => {
  const operator = [grant("operator", "dual_control", "admin-a")];
  const approver = [grant("approver", "dual_control", "admin-b")];
  const money = { scope: "money" as const, requesterId: "op", requesterGrants: operator };
  assert.equal(decisionRefusal({ ...money, deciderId: "ap", deciderGrants: approver }), null);
  assert.equal(decisionRefusal({ ...money, deciderId: "op", deciderGrants: operator }), "own_request");
  assert.equal(
    decisionRefusal({ ...money, deciderId: "ap", deciderGrants: [grant("approver", "sole_administrator", "x")] }),
    "unconfirmed_grant",
  );
  assert.equal(
    decisionRefusal({ ...money, deciderId: "ap", deciderGrants: [grant("administrator", "bootstrap")] }),
    "missing_role",
  );
  // An alias administrator made by the requester is the requester's reach.
  const administration = { scope: "administration" as const, requesterId: "admin-a" };
  const founding = [grant("administrator", "bootstrap")];
  const alias = [grant("administrator", "dual_control", "admin-a")];
  assert.equal(
    decisionRefusal({ ...administration, requesterGrants: founding, deciderId: "alias", deciderGrants: alias }),
    "granted_by_requester",
  );
  assert.equal(
    decisionRefusal({ ...administration, requesterId: "alias", requesterGrants: alias, deciderId: "admin-a", deciderGrants: founding }),
    "granted_requester",
  );
  // Founding administrators (bootstrap, and those made in setup) may decide each other's requests.
  const second = [grant("administrator", "sole_administrator", "admin-a")];
  assert.equal(
    decisionRefusal({ ...administration, requesterGrants: founding, deciderId: "admin-b", deciderGrants: second }),
    null,
  );
  assert.equal(
    decisionRefusal({
      ...administration,
      requesterGrants: founding,
      deciderId: "conflicted",
      deciderGrants: [grant("administrator", "legacy"), grant("operator", "legacy")],
    }),
    "role_conflict",
  );
});

Deno.test("grantsPower() tells a role added or a re-enabling from a change that only takes power away", () => {
  const before = { roles: ["operator"] as const, disabled: false };
  assert.equal(grantsPower(before, { roles: ["operator", "approver"] }), true);
  assert.equal(grantsPower(before, { roles: ["approver"] }), true);
  assert.equal(grantsPower({ roles: ["operator", "approver"], disabled: false }, { roles: ["operator"] }), false);
  assert.equal(grantsPower(before, { disabled: true }), false);
  assert.equal(grantsPower({ ...before, disabled: true }, { disabled: false }), true);
});

Deno.test("dual control holds from the second administrator; administration requests are decided by administrators", () => {
  assert.equal(dualControlInForce(1), false);
  assert.equal(dualControlInForce(2), true);
  assert.equal(scopeOfKind("user_create"), "administration");
  assert.equal(scopeOfKind("approval_settings"), "administration");
  assert.equal(scopeOfKind("sweep"), "money");
  assert.equal(scopeOfKind("institution_status"), "money");
});
