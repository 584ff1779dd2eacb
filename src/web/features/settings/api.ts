/** The one setting of this screen kept on the server: whether every user signs in with a second factor. */
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../lib/api.ts";
import { useApiMutation } from "../../lib/mutation.ts";

const SIGN_IN_SETTINGS_KEY = "/api/auth/sign-in-settings";

export interface SignInSettings {
  mfaRequired: boolean;
  mfaEnforced: boolean;
}

export const useSignInSettings = () => useQuery<SignInSettings>({ queryKey: [SIGN_IN_SETTINGS_KEY] });

export const useSaveSignInSettings = (onSaved: (settings: SignInSettings) => void) =>
  useApiMutation({
    mutationFn: (mfaRequired: boolean) => apiJson<SignInSettings>("PUT", SIGN_IN_SETTINGS_KEY, { mfaRequired }),
    storesAs: SIGN_IN_SETTINGS_KEY,
    errorTitle: "Sign-in setting not saved",
    onSuccess: onSaved,
  });
