/**
 * The Users screen's dialogs: a new user, an account's roles, and the confirmation of a password
 * reset or a re-enabling. Once dual control is in force, each change that gives power asks for a
 * reason and becomes a request for a second administrator (a 202, said in a toast).
 */
import { AdministrationReasonField } from "../../components/approval_reason_field.tsx";
import { FormDialog } from "../../components/form_dialog.tsx";
import type { OneTimePassword } from "../../components/one_time_password_dialog.tsx";
import { TextField } from "../../components/ui/form.tsx";
import { type Role, ROLE_LABELS } from "../../../domain/access.ts";
import { grantsPower } from "../../../domain/dual_control.ts";
import { useDualControlInForce, useDualControlRecheck } from "../../lib/dual_control.ts";
import { serverFieldErrors } from "../../lib/form_input.ts";
import { type FormErrors, useDialogForm } from "../../lib/form_state.ts";
import { useToast } from "../../lib/toast.ts";
import { handleMutationError } from "../../lib/unauthorized.ts";
import { type StaffUser, useCreateUser, useResetPassword, useSetRoles, useToggleUser } from "./api.ts";
import { RoleChecklist, rolesProblem } from "./role_checklist.tsx";

const SUBMIT_FOR_APPROVAL = "Submit for approval";

/** The server's messages beside the fields they name, anything else in a toast. */
function useErrorReport(title: string) {
  const recheck = useDualControlRecheck();
  const { toast } = useToast();
  return (error: Error, fields: readonly string[], setErrors: (errors: FormErrors) => void) => {
    recheck(error);
    const named = serverFieldErrors(error);
    const shown = Object.fromEntries(Object.entries(named).filter(([field]) => fields.includes(field)));
    if (Object.keys(shown).length > 0) setErrors(shown);
    else handleMutationError(error, toast, title);
  };
}

interface UserForm {
  email: string;
  firstName: string;
  lastName: string;
  roles: Role[];
  requestReason: string;
}

const EMPTY_USER: UserForm = {
  email: "",
  firstName: "",
  lastName: "",
  roles: ["operator"],
  requestReason: "",
};

export function CreateUserDialog({ open, onClose, onCreated }: {
  open: boolean;
  onClose: () => void;
  onCreated: (shown: OneTimePassword) => void;
}) {
  const inForce = useDualControlInForce();
  const { form, errors, setErrors, set, bind, close } = useDialogForm(EMPTY_USER, onClose);
  const report = useErrorReport("Failed to create the user");
  const create = useCreateUser((created) => {
    close();
    if (created) onCreated({ email: created.user.email, password: created.initialPassword });
  }, (error) => report(error, Object.keys(EMPTY_USER), setErrors));
  const submit = () => {
    const problem = rolesProblem(form.roles);
    if (problem) return setErrors({ roles: problem });
    create.mutate(form);
  };
  return (
    <FormDialog
      open={open}
      onClose={close}
      title="New user"
      description={inForce
        ? "A request: the user is made, with a one-time password, once a second administrator approves it."
        : "The user gets a one-time password."}
      onSubmit={submit}
      submitLabel={inForce ? SUBMIT_FOR_APPROVAL : "Create user"}
      pendingLabel="Sending…"
      isPending={create.isPending}
    >
      <TextField label="E-mail address" type="email" required maxLength={255} {...bind("email")} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="First name" maxLength={255} {...bind("firstName")} />
        <TextField label="Last name" maxLength={255} {...bind("lastName")} />
      </div>
      <RoleChecklist roles={form.roles} onChange={set("roles")} error={errors.roles} />
      <AdministrationReasonField
        value={form.requestReason}
        onChange={set("requestReason")}
        error={errors.requestReason}
        asked={inForce}
      />
    </FormDialog>
  );
}

interface RolesForm {
  /** Null until the administrator ticks something: the account's roles as they are. */
  roles: Role[] | null;
  requestReason: string;
}

export function RolesDialog({ user, onClose }: { user: StaffUser | null; onClose: () => void }) {
  const inForce = useDualControlInForce();
  const { toast } = useToast();
  const { form, errors, setErrors, set, close } = useDialogForm<RolesForm>(
    { roles: null, requestReason: "" },
    onClose,
  );
  const report = useErrorReport("Failed to change the roles");
  const roles = form.roles ?? user?.roles ?? [];
  // Taking a role away acts at once; adding one is a request under dual control.
  const asked = inForce && user !== null && grantsPower(user, { roles });
  const save = useSetRoles((updated) => {
    if (updated) {
      toast({
        title: "Roles changed",
        description: `${updated.email}: ${updated.roles.map((r) => ROLE_LABELS[r]).join(", ")}`,
      });
    }
    close();
  }, (error) => report(error, ["roles", "requestReason"], setErrors));
  return (
    <FormDialog
      open={user !== null}
      onClose={close}
      title={`Roles of ${user?.email ?? ""}`}
      description={asked
        ? "Adding a role is a request that a second administrator approves."
        : "A change applies to the user's very next request."}
      onSubmit={() => user && save.mutate({ id: user.id, roles, requestReason: form.requestReason })}
      submitLabel={asked ? SUBMIT_FOR_APPROVAL : "Save roles"}
      pendingLabel="Saving…"
      isPending={save.isPending}
      canSubmit={!save.isPending && rolesProblem(roles) === null}
    >
      <RoleChecklist
        roles={roles}
        onChange={set("roles")}
        error={errors.roles ?? (roles.length === 0 ? "Give at least one role" : undefined)}
      />
      <AdministrationReasonField
        value={form.requestReason}
        onChange={set("requestReason")}
        error={errors.requestReason}
        asked={asked}
      />
    </FormDialog>
  );
}

/** A change to one account that needs a confirmation: a new one-time password, or re-enabling. */
export interface AccountChange {
  user: StaffUser;
  action: "reset" | "enable";
}

const CHANGE_TEXTS = {
  reset: {
    title: (email: string) => `Reset the password of ${email}?`,
    description: "The user gets a new one-time password, shown once to the administrator who makes it take " +
      "effect; their sessions end.",
    label: "Reset password",
  },
  enable: {
    title: (email: string) => `Re-enable ${email}?`,
    description: "The user can sign in again, with the roles the account holds.",
    label: "Re-enable",
  },
} as const;

export function AccountChangeDialog({ change, onClose, onPassword }: {
  change: AccountChange | null;
  onClose: () => void;
  onPassword: (shown: OneTimePassword) => void;
}) {
  const inForce = useDualControlInForce();
  const { toast } = useToast();
  const { form, errors, setErrors, set, close } = useDialogForm({ requestReason: "" }, onClose);
  const report = useErrorReport("Failed to change the user");
  const onError = (error: Error) => report(error, ["requestReason"], setErrors);
  const reset = useResetPassword((shown) => {
    close();
    if (shown) onPassword(shown);
  }, onError);
  const enable = useToggleUser((updated) => {
    close();
    if (updated) toast({ title: "User re-enabled", description: updated.email });
  }, onError);
  const mutation = change?.action === "reset" ? reset : enable;
  const texts = CHANGE_TEXTS[change?.action ?? "reset"];
  return (
    <FormDialog
      open={change !== null}
      onClose={close}
      title={texts.title(change?.user.email ?? "")}
      description={texts.description}
      onSubmit={() => change && mutation.mutate({ user: change.user, requestReason: form.requestReason })}
      submitLabel={inForce ? SUBMIT_FOR_APPROVAL : texts.label}
      pendingLabel="Working…"
      isPending={mutation.isPending}
    >
      <AdministrationReasonField
        value={form.requestReason}
        onChange={set("requestReason")}
        error={errors.requestReason}
        asked={inForce}
      />
    </FormDialog>
  );
}
