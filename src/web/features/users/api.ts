/** The staff accounts' data: the list, creation, roles, disabling and password resets. */
import { useQuery } from "@tanstack/react-query";
import type { Role } from "../../../domain/access.ts";
import { apiJson } from "../../lib/api.ts";
import { useApiMutation } from "../../lib/mutation.ts";
import type { UserView as StaffUser } from "../../../server/features/users/service.ts";

export type { StaffUser };

const USERS_KEY = "/api/users";

export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  roles: Role[];
}

export const useStaffUsers = () => useQuery<StaffUser[]>({ queryKey: [USERS_KEY] });

export const useCreateUser = (
  onCreated: (created: { user: StaffUser; initialPassword: string }) => void,
  onError: (error: Error) => void,
) =>
  useApiMutation({
    mutationFn: (input: NewUser) =>
      apiJson<{ user: StaffUser; initialPassword: string }>("POST", USERS_KEY, input),
    invalidates: [USERS_KEY],
    onSuccess: onCreated,
    onError,
  });

export const useSetRoles = (onSaved: (updated: StaffUser) => void) =>
  useApiMutation({
    mutationFn: ({ id, roles }: { id: string | undefined; roles: Role[] }) =>
      apiJson<StaffUser>("PATCH", `${USERS_KEY}/${id}`, { roles }),
    invalidates: [USERS_KEY],
    errorTitle: "Failed to change the roles",
    onSuccess: onSaved,
  });

export const useToggleUser = (onToggled: (updated: StaffUser) => void) =>
  useApiMutation({
    mutationFn: (user: StaffUser) =>
      apiJson<StaffUser>("PATCH", `${USERS_KEY}/${user.id}`, { disabled: !user.disabled }),
    invalidates: [USERS_KEY],
    errorTitle: "Failed to change the user",
    onSuccess: onToggled,
  });

export const useResetPassword = (onReset: (shown: { email: string; password: string }) => void) =>
  useApiMutation({
    mutationFn: (user: StaffUser) =>
      apiJson<{ initialPassword: string }>("POST", `${USERS_KEY}/${user.id}/reset-password`).then((r) => ({
        email: user.email,
        password: r.initialPassword,
      })),
    errorTitle: "Failed to reset the password",
    onSuccess: onReset,
  });
