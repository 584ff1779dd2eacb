import assert from "node:assert/strict";
import {
  isBreakGlassAdministrator,
  linkRefusal,
  type LinkTarget,
  providerRoleChange,
} from "../../src/domain/provider_identity.ts";

const target = (change: Partial<LinkTarget> = {}): LinkTarget => ({
  id: "u1",
  roles: ["operator"],
  hasLocalPassword: true,
  subjectsAtIssuer: [],
  ...change,
});

Deno.test("break-glass: an administrator with a local password; not one without a password, nor a local operator", () => {
  assert.equal(isBreakGlassAdministrator({ roles: ["administrator"], hasLocalPassword: true }), true);
  assert.equal(
    isBreakGlassAdministrator({ roles: ["administrator", "operator"], hasLocalPassword: true }),
    true,
  );
  assert.equal(isBreakGlassAdministrator({ roles: ["administrator"], hasLocalPassword: false }), false);
  assert.equal(isBreakGlassAdministrator({ roles: ["operator", "approver"], hasLocalPassword: true }), false);
});

Deno.test("linking: a local operator may be linked; a break-glass administrator never", () => {
  assert.equal(linkRefusal(target(), null), null);
  assert.equal(linkRefusal(target({ roles: ["administrator"], hasLocalPassword: false }), null), null);
  const refused = linkRefusal(target({ roles: ["administrator", "operator"] }), null);
  assert.equal(refused?.field, "userId");
  assert.match(refused!.message, /break-glass administrator .* never linked/);
});

Deno.test("linking: one identity per user per issuer, and an identity belongs to one user", () => {
  const second = linkRefusal(target({ subjectsAtIssuer: ["alice"] }), null);
  assert.equal(second?.field, "issuer");
  assert.match(second!.message, /already linked at this issuer \(subject alice\).*unlink it first/);
  assert.equal(linkRefusal(target(), "u2")?.field, "subject");
  assert.match(linkRefusal(target(), "u2")!.message, /linked to another user/);
  assert.match(linkRefusal(target(), "u1")!.message, /already linked to this user/);
});

Deno.test("role mapping: replaces a linked account's roles, but never removes the last active administrator", () => {
  assert.deepEqual(providerRoleChange(["operator"], ["operator"], 0), { kind: "unchanged" });
  assert.deepEqual(providerRoleChange(["operator"], ["approver", "operator"], 0), {
    kind: "apply",
    roles: ["approver", "operator"],
  });
  assert.deepEqual(providerRoleChange(["administrator"], ["operator"], 1), {
    kind: "apply",
    roles: ["operator"],
  });
  const kept = providerRoleChange(["administrator", "operator"], ["operator"], 0);
  assert.equal(kept.kind, "keep");
  assert.match((kept as { reason: string }).reason, /no active administrator/);
  // Granting administrator, or keeping it, is never held back.
  assert.deepEqual(providerRoleChange(["operator"], ["administrator"], 0), {
    kind: "apply",
    roles: ["administrator"],
  });
});
