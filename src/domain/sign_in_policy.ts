/** Who must sign in with a second factor. */

/** Roles that always need a second factor, whatever the administrator's setting says. */
export const ROLES_REQUIRING_SECOND_FACTOR: readonly string[] = ["administrator", "approver"];

export interface SecondFactorPolicy {
  /** False only with REQUIRE_MFA=0 (development, tools that sign in with a password alone). */
  enforced: boolean;
  /** The administrator's "MFA required" setting: a second factor for every user. */
  requiredForAll: boolean;
}

export function secondFactorRequired(roles: readonly string[], policy: SecondFactorPolicy): boolean {
  if (!policy.enforced) return false;
  return policy.requiredForAll || roles.some((role) => ROLES_REQUIRING_SECOND_FACTOR.includes(role));
}
