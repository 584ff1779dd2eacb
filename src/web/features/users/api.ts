/**
 * The staff accounts' data: the list, creation, roles, disabling and password resets, and the
 * confirmation of roles one administrator granted alone. Once dual control is in force, a change
 * that gives power answers 202 with a request for a second administrator (useApprovableMutation).
 */
import { type QueryClient, useQuery } from "@tanstack/react-query";
import type { Role } from "../../../domain/access.ts";
import { apiJson } from "../../lib/api.ts";
import { type PendingApproval, withRequestReason } from "../../lib/approval.ts";
import { DUAL_CONTROL_KEY } from "../../lib/dual_control.ts";
import { invalidateAll, useApiMutation, useApprovableMutation } from "../../lib/mutation.ts";
import type { UserView as StaffUser } from "../../../server/features/users/service.ts";
import type { OneTimePassword } from "../../components/one_time_password_dialog.tsx";

export type { StaffUser };

const USERS_KEY = "/api/users";

/** A change to the staff may change who is an active administrator, hence the banner. */
const refreshStaff = (queryClient: QueryClient) => invalidateAll(queryClient, [USERS_KEY, DUAL_CONTROL_KEY]);

export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  roles: Role[];
  requestReason: string;
}

export const useStaffUsers = () => useQuery<StaffUser[]>({ queryKey: [USERS_KEY] });

export const useCreateUser = (
  onDone: (created: { user: StaffUser; initialPassword: string } | null) => void,
  onError: (error: Error) => void,
) =>
  useApprovableMutation({
    mutationFn: ({ requestReason, ...input }: NewUser) =>
      apiJson<{ user: StaffUser; initialPassword: string } | PendingApproval>(
        "POST",
        USERS_KEY,
        withRequestReason({ ...input }, requestReason),
      ),
    onDone,
    onError,
    refresh: refreshStaff,
  });

export const useSetRoles = (onDone: (updated: StaffUser | null) => void, onError: (error: Error) => void) =>
  useApprovableMutation({
    mutationFn: ({ id, roles, requestReason }: { id: string; roles: Role[]; requestReason: string }) =>
      apiJson<StaffUser | PendingApproval>(
        "PATCH",
        `${USERS_KEY}/${id}`,
        withRequestReason({ roles }, requestReason),
      ),
    onDone,
    onError,
    refresh: refreshStaff,
  });

/** Disabling acts at once; re-enabling gives power back, so under dual control it is a request. */
export const useToggleUser = (onDone: (updated: StaffUser | null) => void, onError: (error: Error) => void) =>
  useApprovableMutation({
    mutationFn: ({ user, requestReason }: { user: StaffUser; requestReason: string }) =>
      apiJson<StaffUser | PendingApproval>(
        "PATCH",
        `${USERS_KEY}/${user.id}`,
        withRequestReason({ disabled: !user.disabled }, requestReason),
      ),
    onDone,
    onError,
    refresh: refreshStaff,
  });

export const useResetPassword = (
  onDone: (shown: OneTimePassword | null) => void,
  onError: (error: Error) => void,
) =>
  useApprovableMutation({
    mutationFn: async ({ user, requestReason }: { user: StaffUser; requestReason: string }) => {
      const answer = await apiJson<{ initialPassword: string } | PendingApproval>(
        "POST",
        `${USERS_KEY}/${user.id}/reset-password`,
        withRequestReason({}, requestReason),
      );
      return "initialPassword" in answer ? { email: user.email, password: answer.initialPassword } : answer;
    },
    onDone,
    onError,
    refresh: refreshStaff,
  });

export const useConfirmRoles = (onConfirmed: (confirmed: StaffUser) => void) =>
  useApiMutation({
    mutationFn: (user: StaffUser) => apiJson<StaffUser>("POST", `${USERS_KEY}/${user.id}/confirm-roles`),
    invalidates: [USERS_KEY, DUAL_CONTROL_KEY],
    errorTitle: "Roles not confirmed",
    onSuccess: onConfirmed,
  });
