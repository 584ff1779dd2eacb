/**
 * "Require multi-factor authentication" is the one Security setting the server enforces, so unlike
 * the rest of this screen it is read from and saved to the server, at once, by administrators.
 */
import { SwitchField } from "../../components/ui/switch.tsx";
import { useToast } from "../../lib/toast.ts";
import { useSaveSignInSettings, useSignInSettings } from "./api.ts";

export function MfaRequiredSwitch() {
  const { toast } = useToast();
  const { data } = useSignInSettings();
  const save = useSaveSignInSettings((settings) =>
    toast({
      title: "Sign-in Setting Saved",
      description: settings.mfaRequired
        ? "Every user now signs in with an authenticator code."
        : "Administrators still sign in with an authenticator code; other users need not.",
    })
  );
  return (
    <div>
      <SwitchField
        label="Require multi-factor authentication"
        checked={data?.mfaRequired ?? true}
        onChange={(value) => save.mutate(value)}
      />
      <p className="mt-1 text-xs text-slate-600">
        Saved on the server at once and enforced at sign-in for every user; administrators always need a
        second factor.
        {data && !data.mfaEnforced &&
          " This server runs with REQUIRE_MFA=0, so no second factor is asked for."}
      </p>
    </div>
  );
}
