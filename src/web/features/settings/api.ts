/** The one setting of this screen kept on the server: whether every user signs in with a second factor. */
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../lib/api.ts";
import { useApiMutation } from "../../lib/mutation.ts";
import type { SignInSettings } from "../../../server/auth/settings_routes.ts";

export type { SignInSettings };

const SIGN_IN_SETTINGS_KEY = "/api/auth/sign-in-settings";

export const useSignInSettings = () => useQuery<SignInSettings>({ queryKey: [SIGN_IN_SETTINGS_KEY] });

export const useSaveSignInSettings = (onSaved: (settings: SignInSettings) => void) =>
  useApiMutation({
    mutationFn: (mfaRequired: boolean) => apiJson<SignInSettings>("PUT", SIGN_IN_SETTINGS_KEY, { mfaRequired }),
    storesAs: SIGN_IN_SETTINGS_KEY,
    errorTitle: "Sign-in setting not saved",
    onSuccess: onSaved,
  });
