/**
 * Single sign-on accounts: which console account a provider identity (issuer and subject) may be
 * linked to, and what the provider's role mapping may change. An e-mail address never links an
 * identity: a provider account whose address belongs to an existing console account is refused
 * until an administrator links the two.
 *
 * @module
 */
import type { Role } from "./access.ts";

/** What a person whose e-mail address is already a console account's reads on the sign-in page. */
export const EMAIL_TAKEN_MESSAGE =
  "An account with this e-mail already exists here; an administrator must link your provider identity to it.";

export interface ProviderIdentity {
  issuer: string;
  subject: string;
}

/**
 * A break-glass administrator: an account holding the administrator role that signs in with a local
 * password (the first administrator at least). It is never linked, so the provider can neither sign
 * in as it nor change its roles.
 */
export function isBreakGlassAdministrator(
  account: { roles: readonly Role[]; hasLocalPassword: boolean },
): boolean {
  return account.hasLocalPassword && account.roles.includes("administrator");
}

export interface LinkTarget {
  id: string;
  roles: readonly Role[];
  hasLocalPassword: boolean;
  /** The subjects already linked to this account at the issuer being linked. */
  subjectsAtIssuer: readonly string[];
}

export interface LinkRefusal {
  field: "userId" | "issuer" | "subject";
  message: string;
}

/**
 * Why `identity` may not be linked to `target`, or null when it may. `linkedTo` is the account that
 * already holds the identity, if any. A user holds at most one identity per issuer: three provider
 * accounts are never linked to one person, and replacing one is an unlink then a link.
 */
export function linkRefusal(target: LinkTarget, linkedTo: string | null): LinkRefusal | null {
  if (linkedTo === target.id) {
    return { field: "subject", message: "This provider identity is already linked to this user" };
  }
  if (linkedTo !== null) {
    return {
      field: "subject",
      message: "This provider identity is linked to another user: unlink it there first",
    };
  }
  if (isBreakGlassAdministrator(target)) {
    return {
      field: "userId",
      message:
        "This user is a break-glass administrator (the administrator role with a local password): it is never linked to a provider identity",
    };
  }
  if (target.subjectsAtIssuer.length > 0) {
    return {
      field: "issuer",
      message: `This user is already linked at this issuer (subject ${
        target.subjectsAtIssuer[0]
      }): one identity per user per issuer; unlink it first`,
    };
  }
  return null;
}

export type RoleMappingOutcome =
  | { kind: "unchanged" }
  | { kind: "apply"; roles: Role[] }
  | { kind: "keep"; reason: string };

/**
 * What the provider's mapped roles do to a linked account at sign-in: they replace its roles, unless
 * that would leave no active administrator, in which case the account keeps the roles it holds.
 */
export function providerRoleChange(
  held: readonly Role[],
  mapped: readonly Role[],
  otherActiveAdministrators: number,
): RoleMappingOutcome {
  const same = held.length === mapped.length && mapped.every((role) => held.includes(role));
  if (same) return { kind: "unchanged" };
  if (
    held.includes("administrator") && !mapped.includes("administrator") && otherActiveAdministrators === 0
  ) {
    return {
      kind: "keep",
      reason:
        "the mapped roles would leave no active administrator, so this account keeps the roles it holds",
    };
  }
  return { kind: "apply", roles: [...mapped] };
}
