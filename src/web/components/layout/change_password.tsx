/**
 * The signed-in user's own password change: from the account menu at any time, and as the only
 * screen while an initial or reset password is still in use. Loaded on demand: the dialog library
 * stays out of the initial download.
 */
import { useChangePassword } from "../../features/session/api.ts";
import { SignInStepIndicator } from "../../features/session/sign_in_steps.tsx";
import type { SignInStep } from "../../../domain/first_sign_in.ts";
import type { FormEvent } from "react";
import { ApiError } from "../../lib/api.ts";
import { useToast } from "../../lib/toast.ts";
import { handleMutationError } from "../../lib/unauthorized.ts";
import { Button } from "../ui/button.tsx";
import { Dialog } from "../ui/dialog.tsx";
import { TextField } from "../ui/form.tsx";
import { useFormState } from "../../lib/form_state.ts";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../../domain/password_policy.ts";
const NO_PASSWORDS = { currentPassword: "", newPassword: "", repeat: "" };

/** A required password input; the browser's password manager fills it by its autoComplete. */
function PasswordField(props: {
  label: string;
  autoComplete: "current-password" | "new-password";
  value: string;
  error: string | undefined;
  onChange: (event: { target: { value: string } }) => void;
  minLength?: number;
  maxLength?: number;
  hint?: string;
}) {
  return <TextField type="password" required {...props} />;
}

export function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  // A message stays until the next submission answers it.
  const { form, setForm, setErrors, bind } = useFormState(NO_PASSWORDS, { recheck: (_field, _value, shown) => shown });
  const { currentPassword, newPassword, repeat } = form;
  const { toast } = useToast();
  const change = useChangePassword(() => {
    toast({ title: "Password changed", description: "Your other sessions have ended." });
    setForm(NO_PASSWORDS);
    onDone();
  }, (error) => {
    if (error instanceof ApiError && error.status === 400) {
      setErrors(JSON.parse(error.bodyText).fields ?? {});
      return;
    }
    handleMutationError(error, toast, "Failed to change the password");
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (newPassword !== repeat) {
      setErrors({ repeat: "The two new passwords differ" });
      return;
    }
    if (!change.isPending) change.mutate({ currentPassword, newPassword });
  };
  return (
    <form onSubmit={submit} className="space-y-4">
      <PasswordField label="Current password" autoComplete="current-password" {...bind("currentPassword")} />
      <PasswordField
        label="New password"
        autoComplete="new-password"
        minLength={MIN_PASSWORD_LENGTH}
        maxLength={MAX_PASSWORD_LENGTH}
        hint={`At least ${MIN_PASSWORD_LENGTH} characters, hard to guess, without your e-mail address, your name or the console's name`}
        {...bind("newPassword")}
      />
      <PasswordField label="Repeat the new password" autoComplete="new-password" {...bind("repeat")} />
      <div className="flex justify-end">
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? "Changing…" : "Change password"}
        </Button>
      </div>
    </form>
  );
}

/** The account menu's password change dialog; loaded on first open (account_menu.tsx). */
export default function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Change password">
      <ChangePasswordForm onDone={onClose} />
    </Dialog>
  );
}

/** Shown instead of the console until the initial password is replaced. */
export function ForcedPasswordChange({ email, steps }: { email: string; steps?: readonly SignInStep[] }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6">
      <div className="rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-2xl font-semibold text-slate-900">Choose your password</h1>
        {steps && <SignInStepIndicator steps={steps} current="new_password" />}
        <p className="mt-3 text-sm text-slate-600">
          {email} is signed in with a one-time password. Replace it with your own before you go on.
        </p>
        <div className="mt-6">
          <ChangePasswordForm onDone={() => {}} />
        </div>
        <a href="/api/logout" className="mt-4 block text-center text-sm text-blue-800 underline">Sign out</a>
      </div>
    </main>
  );
}
