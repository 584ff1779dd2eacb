/**
 * The New Institution dialog (spec 5): opened from the header, the dashboard, the institutions
 * screen and its empty state through `newInstitutionDialogOpenAtom`; rendered once app-wide.
 */
import { useAtom } from "jotai";
import { type FormEvent, useState } from "react";
import {
  boolean,
  enum as zEnum,
  gte,
  int,
  lte,
  maxLength,
  nullable,
  object,
  type output,
  pipe,
  safeParse,
  string,
  transform,
  trim,
} from "zod/mini";
import {
  DEFAULT_NUMBER_OF_BRANCHES,
  INITIAL_INSTITUTION_STATUS,
  INSTITUTION_TYPES,
  MAX_ADDRESS_LENGTH,
  MAX_EMAIL_ADDRESS_LENGTH,
  MAX_INSTITUTION_NAME_LENGTH,
  MAX_LICENSE_NUMBER_LENGTH,
  MAX_NUMBER_OF_BRANCHES,
  MAX_PHONE_NUMBER_LENGTH,
  MAX_REGISTRATION_NUMBER_LENGTH,
  MIN_NUMBER_OF_BRANCHES,
  SWIFT_MEMBERSHIP_TYPES,
} from "../../../domain/institution.ts";
import { SelectField, TextAreaField, TextField } from "../../components/ui/form.tsx";
import { SwitchField } from "../../components/ui/switch.tsx";
import { fieldErrors, requiredEmail, requiredText } from "../../lib/form_validation.ts";
import { serverFieldErrors } from "../../lib/form_input.ts";
import { titleCase } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { newInstitutionDialogOpenAtom } from "../../lib/ui_state.ts";
import { useRegisterInstitution } from "./api.ts";
import { FormDialog } from "../../components/form_dialog.tsx";

interface FormState {
  name: string;
  type: string;
  registrationNumber: string;
  licenseNumber: string;
  address: string;
  phoneNumber: string;
  emailAddress: string;
  numberOfBranches: string;
  swiftParticipant: boolean;
  swiftMembershipType: string;
}

const EMPTY_FORM: FormState = {
  name: "",
  type: "",
  registrationNumber: "",
  licenseNumber: "",
  address: "",
  phoneNumber: "",
  emailAddress: "",
  numberOfBranches: String(DEFAULT_NUMBER_OF_BRANCHES),
  swiftParticipant: false,
  swiftMembershipType: "",
};

const choice = <const T extends readonly [string, ...string[]]>(values: T) =>
  zEnum(values, { error: (issue) => (issue.input === "" ? "Required" : undefined) });

const institutionForm = object({
  name: requiredText(MAX_INSTITUTION_NAME_LENGTH),
  type: choice(INSTITUTION_TYPES),
  registrationNumber: requiredText(MAX_REGISTRATION_NUMBER_LENGTH),
  licenseNumber: pipe(
    string().check(trim(), maxLength(MAX_LICENSE_NUMBER_LENGTH)),
    transform((value: string) => value || null),
  ),
  address: requiredText(MAX_ADDRESS_LENGTH),
  phoneNumber: requiredText(MAX_PHONE_NUMBER_LENGTH),
  emailAddress: requiredEmail(MAX_EMAIL_ADDRESS_LENGTH),
  numberOfBranches: int().check(gte(MIN_NUMBER_OF_BRANCHES), lte(MAX_NUMBER_OF_BRANCHES)),
  swiftParticipant: boolean(),
  swiftMembershipType: nullable(choice(SWIFT_MEMBERSHIP_TYPES)),
});
type InstitutionInput = output<typeof institutionForm>;

/** Spec 5: the number of branches falls back to 1 when it is not a number. */
export function branchesFromInput(text: string): number {
  const value = Number(text.trim());
  return text.trim() === "" || !Number.isFinite(value) ? DEFAULT_NUMBER_OF_BRANCHES : value;
}

const typeOptions = INSTITUTION_TYPES.map((value) => ({ value, label: titleCase(value) }));
const membershipOptions = SWIFT_MEMBERSHIP_TYPES.map((value) => ({ value, label: titleCase(value) }));

type TextBinding = (field: Exclude<keyof FormState, "swiftParticipant">) => {
  value: string;
  error: string | undefined;
  onChange: (event: { target: { value: string } }) => void;
};

function IdentityFields({ text }: { text: TextBinding }) {
  return (
    <>
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Institution Name"
        required
        maxLength={MAX_INSTITUTION_NAME_LENGTH}
        autoComplete="organization"
        {...text("name")}
      />
      <SelectField
        label="Institution Type"
        required
        placeholder="Select a type"
        options={typeOptions}
        {...text("type")}
      />
      <TextField
        label="Registration Number"
        required
        maxLength={MAX_REGISTRATION_NUMBER_LENGTH}
        autoComplete="off"
        {...text("registrationNumber")}
      />
      <TextField
        label="License Number"
        maxLength={MAX_LICENSE_NUMBER_LENGTH}
        autoComplete="off"
        hint="Optional"
        {...text("licenseNumber")}
      />
    </div>
    <TextAreaField
      label="Address"
      required
      rows={2}
      maxLength={MAX_ADDRESS_LENGTH}
      autoComplete="street-address"
      {...text("address")}
    />
    </>
  );
}

function ContactFields({ form, text, set }: {
  form: FormState;
  text: TextBinding;
  set: <K extends keyof FormState>(field: K, value: FormState[K]) => void;
}) {
  return (
    <>
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Phone Number"
        required
        type="tel"
        maxLength={MAX_PHONE_NUMBER_LENGTH}
        autoComplete="tel"
        {...text("phoneNumber")}
      />
      <TextField
        label="Email Address"
        required
        type="email"
        maxLength={MAX_EMAIL_ADDRESS_LENGTH}
        autoComplete="email"
        {...text("emailAddress")}
      />
      <TextField
        label="Number of Branches"
        type="number"
        min={MIN_NUMBER_OF_BRANCHES}
        step={1}
        inputMode="numeric"
        {...text("numberOfBranches")}
      />
    </div>
    <SwitchField
      label="SWIFT Participant"
      checked={form.swiftParticipant}
      onChange={(value) => set("swiftParticipant", value)}
    />
    {form.swiftParticipant && (
      <SelectField
        label="SWIFT Membership Type"
        placeholder="Select a membership type"
        options={membershipOptions}
        {...text("swiftMembershipType")}
      />
    )}
    </>
  );
}

/** The form checked by the server's rules: the institution to send, or the message per field. */
function parseInstitution(form: FormState) {
  return safeParse(institutionForm, {
    ...form,
    numberOfBranches: branchesFromInput(form.numberOfBranches),
    swiftMembershipType: form.swiftParticipant && form.swiftMembershipType !== "" ? form.swiftMembershipType : null,
  });
}

export default function NewInstitutionDialog() {
  const [open, setOpen] = useAtom(newInstitutionDialogOpenAtom);
  const [form, setForm] = useState<FormState>(EMPTY_FORM);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { toast } = useToast();

  const close = () => {
    setOpen(false);
    setForm(EMPTY_FORM);
    setErrors({});
  };

  const register = useRegisterInstitution<InstitutionInput & { status: string }>(() => {
    toast({ title: "Institution registered successfully" });
    close();
  }, (error) => setErrors(serverFieldErrors(error)));

  const set = <K extends keyof FormState>(field: K, value: FormState[K]) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors(({ [field]: _cleared, ...rest }) => rest);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseInstitution(form);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    register.mutate({ ...parsed.data, status: INITIAL_INSTITUTION_STATUS });
  };

  const text: TextBinding = (field) => ({
    value: form[field],
    error: errors[field],
    onChange: (event) => set(field, event.target.value),
  });

  return (
    <FormDialog
      open={open}
      onClose={close}
      wide
      title="Register New Institution"
      description="New institutions start as pending until they are approved."
      onSubmit={submit}
      submitLabel="Register Institution"
      pendingLabel="Registering…"
      isPending={register.isPending}
      footerClassName="flex justify-end gap-2 pt-2"
    >
      <IdentityFields text={text} />
      <ContactFields form={form} text={text} set={set} />
    </FormDialog>
  );
}
