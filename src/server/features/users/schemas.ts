/** Request shapes of user management and the own-password change. */
import { z } from "zod";
import { ROLES } from "../../../domain/access.ts";
import { MAX_PASSWORD_LENGTH } from "../../auth/passwords.ts";
import { optionalText } from "../../http/validation.ts";

const rolesSchema = z.array(z.enum(ROLES)).min(1, "Give at least one role").max(ROLES.length)
  .transform((roles) => [...new Set(roles)]);

export const createUserSchema = z.object({
  email: z.string().trim().min(1, "Required").max(255),
  firstName: optionalText(255),
  lastName: optionalText(255),
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
