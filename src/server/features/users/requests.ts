/**
 * User changes that give power, as requests for a second administrator once dual control is in
 * force (src/domain/dual_control.ts): each draft rehearses the change now, so that a request that
 * could never execute (the e-mail is taken, the roles conflict) is refused at once.
 */
import { ROLE_LABELS } from "../../../domain/access.ts";
import type { Actor } from "../../audit/trail.ts";
import { requestedGrant } from "../../auth/role_grants.ts";
import type { Config } from "../../config.ts";
import type { RequestDraft } from "../approvals/four_eyes.ts";
import { createStaffUser, type NewStaffUser, resetPassword, updateStaffUser, type UserChange, type UserView } from "./service.ts";


const roleNames = (roles: readonly string[]) => roles.map((role) => ROLE_LABELS[role as keyof typeof ROLE_LABELS]);

export function userCreateDraft(config: Config, actor: Actor, input: NewStaffUser): RequestDraft {
  return {
    kind: "user_create",
    payload: input,
    summary: {
      email: input.email.trim().toLowerCase(),
      name: [input.firstName, input.lastName].filter(Boolean).join(" ") || null,
      roles: roleNames(input.roles),
    },
    amountMinor: null,
    currency: null,
    rehearse: (inner) => createStaffUser(inner, config, actor, input, requestedGrant(actor.userId)),
  };
}

export function userUpdateDraft(actor: Actor, target: UserView, change: UserChange): RequestDraft {
  return {
    kind: "user_update",
    payload: { id: target.id, ...change },
    summary: {
      email: target.email,
      rolesBefore: roleNames(target.roles),
      rolesAfter: roleNames(change.roles ?? target.roles),
      ...(change.disabled === false && target.disabled ? { reEnable: true } : {}),
    },
    amountMinor: null,
    currency: null,
    rehearse: (inner) => updateStaffUser(inner, actor, target.id, change, requestedGrant(actor.userId)),
  };
}

export function passwordResetDraft(config: Config, actor: Actor, target: UserView): RequestDraft {
  return {
    kind: "user_reset_password",
    payload: { id: target.id },
    summary: { email: target.email },
    amountMinor: null,
    currency: null,
    rehearse: (inner) => resetPassword(inner, config, actor, target.id, requestedGrant(actor.userId)),
  };
}
