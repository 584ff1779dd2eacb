/**
 * "Require multi-factor authentication" is the one Security setting the server enforces, so unlike
 * the rest of this screen it is read from and saved to the server, at once, by administrators; once
 * dual control is in force, a change is a request that a second administrator approves, with a reason.
 */
import { useState } from "react";
import { AdministrationReasonField } from "../../components/approval_reason_field.tsx";
import { FormDialog } from "../../components/form_dialog.tsx";
import { SwitchField } from "../../components/ui/switch.tsx";
import { useDualControlInForce, useDualControlRecheck } from "../../lib/dual_control.ts";
import { serverFieldErrors } from "../../lib/form_input.ts";
import { useToast } from "../../lib/toast.ts";
import { useSaveSignInSettings, useSignInSettings } from "./api.ts";

export function MfaRequiredSwitch() {
  const { toast } = useToast();
  const { data } = useSignInSettings();
  const inForce = useDualControlInForce();
  const recheck = useDualControlRecheck();
  // The value asked for while its reason is being given; the switch keeps showing the stored value.
  const [requested, setRequested] = useState<boolean | null>(null);
  const [requestReason, setRequestReason] = useState("");
  const [reasonError, setReasonError] = useState<string | undefined>(undefined);
  const close = () => {
    setRequested(null);
    setRequestReason("");
    setReasonError(undefined);
  };
  const save = useSaveSignInSettings((settings) => {
    close();
    if (!settings) return;
    toast({
      title: "Sign-in Setting Saved",
      description: settings.mfaRequired
        ? "Every user now signs in with an authenticator code."
        : "Administrators still sign in with an authenticator code; other users need not.",
    });
  }, (error) => {
    recheck(error);
    setReasonError(serverFieldErrors(error).requestReason);
  });
  const change = (mfaRequired: boolean) =>
    inForce ? setRequested(mfaRequired) : save.mutate({ mfaRequired, requestReason: "" });
  return (
    <div>
      <SwitchField
        label="Require multi-factor authentication"
        checked={data?.mfaRequired ?? true}
        onChange={change}
      />
      <p className="mt-1 text-xs text-slate-600">
        Saved on the server and enforced at sign-in for every user; administrators always need a second
        factor.
        {inForce && " Under dual control a change takes effect once a second administrator approves it."}
        {data && !data.mfaEnforced &&
          " This server runs with REQUIRE_MFA=0, so no second factor is asked for."}
      </p>
      <FormDialog
        open={requested !== null}
        onClose={close}
        title={requested
          ? "Require a second factor of every user?"
          : "Stop requiring a second factor of every user?"}
        description="A request: the setting changes once a second administrator approves it."
        onSubmit={() => requested !== null && save.mutate({ mfaRequired: requested, requestReason })}
        submitLabel="Submit for approval"
        pendingLabel="Sending…"
        isPending={save.isPending}
      >
        <AdministrationReasonField
          value={requestReason}
          onChange={setRequestReason}
          error={reasonError}
          asked
        />
      </FormDialog>
    </div>
  );
}
