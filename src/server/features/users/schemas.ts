/** Request shapes of user management and the own-password change. */
import { z } from "zod";
import { ROLES } from "../../../domain/access.ts";
import { MAX_EMAIL_LENGTH, MAX_PERSON_NAME_LENGTH, personName } from "../../../domain/staff_identity.ts";
import { checkStaffEmail } from "../../auth/identity.ts";
import { MAX_PASSWORD_LENGTH } from "../../auth/passwords.ts";
import { resultValue } from "../../http/validation.ts";

const rolesSchema = z.array(z.enum(ROLES)).min(1, "Give at least one role").max(ROLES.length)
  .transform((roles) => [...new Set(roles)]);

/** Trimmed and lower-cased; hidden characters, non-ASCII before the @ and bad shapes refused by name. */
const staffEmailSchema = z.string().max(MAX_EMAIL_LENGTH * 2, `At most ${MAX_EMAIL_LENGTH} characters`)
  .transform((email, ctx) => resultValue(checkStaffEmail(email), ctx));
/** Blank is none; control and bidi characters refused by name and position. */
const personNameSchema = (field: string) =>
  z.string().max(MAX_PERSON_NAME_LENGTH * 2, `At most ${MAX_PERSON_NAME_LENGTH} characters`).nullish()
    .transform((name, ctx) => resultValue(personName(name, field), ctx));

export const createUserSchema = z.object({
  email: staffEmailSchema,
  firstName: personNameSchema("firstName"),
  lastName: personNameSchema("lastName"),
  roles: rolesSchema,
});

export const updateUserSchema = z.object({
  roles: rolesSchema.optional(),
  disabled: z.boolean().optional(),
}).refine((body) => body.roles !== undefined || body.disabled !== undefined, {
  message: "Give roles or disabled",
  path: ["body"],
});

export const userIdParam = z.object({ id: z.string().uuid("Invalid user id") });

export const changePasswordSchema = z.object({
  currentPassword: z.string().min(1, "Required").max(MAX_PASSWORD_LENGTH),
  newPassword: z.string().min(1, "Required").max(MAX_PASSWORD_LENGTH),
});
