/**
 * Dual control of people and powers: which roles may be held together, which changes grant power
 * (and so need a second administrator once two exist), and who may decide a request given how the
 * requester's and the decider's roles were granted. Pure rules; docs/security.md states them.
 *
 * @module
 */
import type { Role } from "./access.ts";

/**
 * How a role came to be held. Only some sources give authority to decide at once:
 * - bootstrap: the first administrator of an empty database;
 * - sole_administrator: granted while one administrator existed, who acted alone;
 * - dual_control: requested by one administrator and approved by another;
 * - provider: the identity provider's role mapping;
 * - seed: the demo database's staff, made as if under dual control;
 * - legacy: held before grants were recorded.
 */
export const GRANT_SOURCES = ["bootstrap", "sole_administrator", "dual_control", "provider", "seed", "legacy"] as const;
export type GrantSource = typeof GRANT_SOURCES[number];

export interface RoleGrant {
  role: Role;
  source: GrantSource;
  /** Who granted it: the maker of a dual-controlled grant, or the administrator who acted alone. */
  grantedBy: string | null;
  /** The second administrator who confirmed a grant made alone (or held before grants were recorded). */
  confirmedBy: string | null;
}

/** The role each holder of the other may not hold; the auditor holds nothing else. */
export function roleConflict(roles: readonly Role[]): string | null {
  if (roles.includes("auditor") && roles.length > 1) {
    return "An auditor holds no other role: auditing what one also does is no control";
  }
  if (roles.includes("administrator")) {
    const clash = roles.find((role) => role === "operator" || role === "approver");
    if (clash) return `An administrator cannot also be an ${clash}: whoever grants the powers does not use them`;
  }
  return null;
}

/** Requests about money are decided by approvers; requests about people and controls by administrators. */
export type DecisionScope = "money" | "administration";
export const DECIDING_ROLE: Readonly<Record<DecisionScope, Role>> = {
  money: "approver",
  administration: "administrator",
};

/**
 * An administrator granted during setup (alone, or before grants were recorded) or at bootstrap:
 * the trust an installation starts from. Nobody else exists to confirm such a grant, so it decides
 * at once, and a link through it does not bar a decision (docs/security.md, "The setup phase").
 */
function isFounding(grant: RoleGrant): boolean {
  return grant.role === "administrator" &&
    (grant.source === "bootstrap" || grant.source === "sole_administrator" || grant.source === "legacy");
}

/** A grant that gives authority to decide: controlled at the source, or confirmed since. */
export function grantDecides(grant: RoleGrant): boolean {
  if (grant.source === "bootstrap" || grant.source === "dual_control" || grant.source === "provider") return true;
  if (grant.source === "seed" || isFounding(grant)) return true;
  return grant.confirmedBy !== null;
}

/** The people who chose to give these grants, founding administrators' grants left out. */
function grantorsOf(grants: readonly RoleGrant[]): Set<string> {
  return new Set(grants.filter((grant) => !isFounding(grant) && grant.grantedBy !== null).map((g) => g.grantedBy!));
}

export interface DecisionParties {
  scope: DecisionScope;
  requesterId: string;
  requesterGrants: readonly RoleGrant[];
  deciderId: string;
  deciderGrants: readonly RoleGrant[];
}

export type DecisionRefusal =
  | "own_request"
  | "missing_role"
  | "role_conflict"
  | "unconfirmed_grant"
  | "granted_requester"
  | "granted_by_requester";

/**
 * Why the decider may not decide, or null when they may. Beyond "not your own request", the grant
 * history is checked: an account the requester gave its role, or the account that gave the
 * requester theirs, is the requester's reach, not a second person.
 */
export function decisionRefusal(parties: DecisionParties): DecisionRefusal | null {
  const { scope, requesterId, deciderId, deciderGrants } = parties;
  if (requesterId === deciderId) return "own_request";
  const deciding = deciderGrants.find((grant) => grant.role === DECIDING_ROLE[scope]);
  if (!deciding) return "missing_role";
  if (roleConflict(deciderGrants.map((grant) => grant.role))) return "role_conflict";
  if (!grantDecides(deciding)) return "unconfirmed_grant";
  if (grantorsOf(parties.requesterGrants).has(deciderId)) return "granted_requester";
  if (grantorsOf(deciderGrants).has(requesterId)) return "granted_by_requester";
  return null;
}

export const DECISION_REFUSAL_MESSAGES: Readonly<Record<DecisionRefusal, string>> = {
  own_request: "You cannot decide your own request: four-eyes control needs a second person",
  missing_role: "Only approvers decide requests about money, and only administrators requests about administration",
  role_conflict: "Your roles conflict (an administrator who also operates or approves): an administrator must resolve " +
    "this before you can decide",
  unconfirmed_grant: "Your role was granted by one administrator alone: a second administrator must confirm it " +
    "before you can decide",
  granted_requester: "You granted the requester's role: a decision needs someone outside that grant",
  granted_by_requester: "The requester granted your role: a decision needs someone outside that grant",
};

/** Dual control of administration holds from the second active administrator on. */
export const DUAL_CONTROL_ADMINISTRATORS = 2;

export function dualControlInForce(activeAdministrators: number): boolean {
  return activeAdministrators >= DUAL_CONTROL_ADMINISTRATORS;
}

/** A change to a user that gives power (a role added, an account re-enabled) as opposed to one that only takes it away. */
export function grantsPower(
  before: { roles: readonly Role[]; disabled: boolean },
  change: { roles?: readonly Role[]; disabled?: boolean },
): boolean {
  const added = (change.roles ?? []).some((role) => !before.roles.includes(role));
  return added || (change.disabled === false && before.disabled);
}
