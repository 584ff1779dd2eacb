import assert from "node:assert/strict";
import { roleLabel } from "../../src/domain/access.ts";

Deno.test("roleLabel(): Central Bank Admin only for administrators, the roles held otherwise, joined", () => {
  assert.equal(roleLabel(["administrator"]), "Central Bank Admin");
  assert.equal(roleLabel(["approver"]), "Approver");
  assert.equal(roleLabel(["operator"]), "Operator");
  assert.equal(roleLabel(["auditor"]), "Auditor");
  assert.equal(roleLabel(["auditor", "operator"]), "Operator, Auditor");
  assert.equal(roleLabel(["auditor", "administrator"]), "Central Bank Admin, Auditor");
  assert.equal(roleLabel([]), "No role");
});
