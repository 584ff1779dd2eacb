/** The signed-in user's own password change. */
import { useQueryClient } from "@tanstack/react-query";
import { apiJson, AUTH_USER_KEY } from "../../lib/api.ts";
import { useApiMutation } from "../../lib/mutation.ts";

/** Failures are the caller's: a 400 names the fields to correct. */
export function useChangePassword(onChanged: () => void, onError: (error: Error) => void) {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) =>
      apiJson<void>("POST", "/api/auth/password", body),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: [AUTH_USER_KEY] });
      onChanged();
    },
    onError,
  });
}
