/**
 * User changes that give power, as requests for a second administrator once dual control is in
 * force (src/domain/dual_control.ts): each draft rehearses the change now, so that a request that
 * could never execute (the e-mail is taken, the roles conflict) is refused at once.
 */
import { ROLE_LABELS } from "../../../domain/access.ts";
import type { Actor } from "../../audit/trail.ts";
import type { Config } from "../../config.ts";
import { administrationDraft, type RequestDraft } from "../approvals/four_eyes.ts";
import { createStaffUser, type NewStaffUser, resetPassword, updateStaffUser, type UserChange, type UserView } from "./service.ts";

const roleNames = (roles: readonly string[]) => roles.map((role) => ROLE_LABELS[role as keyof typeof ROLE_LABELS]);

export function userCreateDraft(config: Config, actor: Actor, input: NewStaffUser): RequestDraft {
  const summary = {
    email: input.email.trim().toLowerCase(),
    name: [input.firstName, input.lastName].filter(Boolean).join(" ") || null,
    roles: roleNames(input.roles),
  };
  return administrationDraft(
    "user_create",
    actor,
    { payload: input, summary },
    (inner, origin) => createStaffUser(inner, config, actor, input, origin),
  );
}

export function userUpdateDraft(actor: Actor, target: UserView, change: UserChange): RequestDraft {
  const summary = {
    email: target.email,
    rolesBefore: roleNames(target.roles),
    rolesAfter: roleNames(change.roles ?? target.roles),
    ...(change.disabled === false && target.disabled ? { reEnable: true } : {}),
  };
  return administrationDraft(
    "user_update",
    actor,
    { payload: { id: target.id, ...change }, summary },
    (inner, origin) => updateStaffUser(inner, actor, target.id, change, origin),
  );
}

export function passwordResetDraft(config: Config, actor: Actor, target: UserView): RequestDraft {
  return administrationDraft(
    "user_reset_password",
    actor,
    { payload: { id: target.id }, summary: { email: target.email } },
    (inner, origin) => resetPassword(inner, config, actor, target.id, origin),
  );
}
