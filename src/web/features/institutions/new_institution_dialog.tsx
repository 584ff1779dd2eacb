/**
 * The New Institution dialog (spec 5): opened from the header's New menu, the dashboard and the
 * institutions screen's empty state through `newInstitutionDialogOpenAtom`; rendered once app-wide.
 */
import { useAtom } from "jotai";
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
import { MAX_LEI_INPUT_LENGTH } from "../../../domain/lei.ts";
import { SelectField, TextAreaField, TextField } from "../../components/ui/form.tsx";
import { SwitchField } from "../../components/ui/switch.tsx";
import { fieldErrors, requiredEmail, requiredText } from "../../lib/form_validation.ts";
import { serverFieldErrors } from "../../lib/form_input.ts";
import { titleCase } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { newInstitutionDialogOpenAtom } from "../../lib/ui_state.ts";
import { useRegisterInstitution } from "./api.ts";
import { BranchesField } from "./branches_field.tsx";
import { FormDialog } from "../../components/form_dialog.tsx";
import { type FormBinding, useDialogForm } from "../../lib/form_state.ts";

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
  lei: string;
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
  lei: "",
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
  // Checked by the server (ISO 17442 check digits); blank means none.
  lei: pipe(string().check(trim(), maxLength(MAX_LEI_INPUT_LENGTH)), transform((value: string) => value || null)),
});
type InstitutionInput = output<typeof institutionForm>;

/** Spec 5: the number of branches falls back to 1 when it is not a number. */
export function branchesFromInput(text: string): number {
  const value = Number(text.trim());
  return text.trim() === "" || !Number.isFinite(value) ? DEFAULT_NUMBER_OF_BRANCHES : value;
}

const typeOptions = INSTITUTION_TYPES.map((value) => ({ value, label: titleCase(value) }));
const membershipOptions = SWIFT_MEMBERSHIP_TYPES.map((value) => ({ value, label: titleCase(value) }));

type Fields = FormBinding<FormState>;

function IdentityFields({ bind }: Pick<Fields, "bind">) {
  return (
    <>
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Institution Name"
        required
        maxLength={MAX_INSTITUTION_NAME_LENGTH}
        autoComplete="organization"
        {...bind("name")}
      />
      <SelectField
        label="Institution Type"
        required
        placeholder="Select a type"
        options={typeOptions}
        {...bind("type")}
      />
      <TextField
        label="Registration Number"
        required
        maxLength={MAX_REGISTRATION_NUMBER_LENGTH}
        autoComplete="off"
        {...bind("registrationNumber")}
      />
      <TextField
        label="License Number"
        maxLength={MAX_LICENSE_NUMBER_LENGTH}
        autoComplete="off"
        hint="Optional"
        {...bind("licenseNumber")}
      />
      <TextField
        label="LEI"
        maxLength={MAX_LEI_INPUT_LENGTH}
        autoComplete="off"
        hint="Optional: Legal Entity Identifier, 20 characters (ISO 17442)"
        {...bind("lei")}
      />
    </div>
    <TextAreaField
      label="Address"
      required
      rows={2}
      maxLength={MAX_ADDRESS_LENGTH}
      autoComplete="street-address"
      {...bind("address")}
    />
    </>
  );
}

function ContactFields({ form, bind, set }: Pick<Fields, "form" | "bind" | "set">) {
  return (
    <>
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Phone Number"
        required
        type="tel"
        maxLength={MAX_PHONE_NUMBER_LENGTH}
        autoComplete="tel"
        {...bind("phoneNumber")}
      />
      <TextField
        label="Email Address"
        required
        type="email"
        maxLength={MAX_EMAIL_ADDRESS_LENGTH}
        autoComplete="email"
        {...bind("emailAddress")}
      />
      <BranchesField {...bind("numberOfBranches")} />
    </div>
    <SwitchField
      label="SWIFT Participant"
      checked={form.swiftParticipant}
      onChange={set("swiftParticipant")}
    />
    {form.swiftParticipant && (
      <SelectField
        label="SWIFT Membership Type"
        placeholder="Select a membership type"
        options={membershipOptions}
        {...bind("swiftMembershipType")}
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
  const fields = useDialogForm(EMPTY_FORM, () => setOpen(false));
  const { form, setErrors, close } = fields;
  const { toast } = useToast();

  const register = useRegisterInstitution<InstitutionInput & { status: string }>(() => {
    toast({ title: "Institution registered successfully" });
    close();
  }, (error) => setErrors(serverFieldErrors(error)));

  const submit = () => {
    const parsed = parseInstitution(form);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    register.mutate({ ...parsed.data, status: INITIAL_INSTITUTION_STATUS });
  };

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
      <IdentityFields {...fields} />
      <ContactFields {...fields} />
    </FormDialog>
  );
}
