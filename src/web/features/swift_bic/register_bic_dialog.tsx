/** "Register BIC Code": the BIC is checked as it is typed with the same ISO 9362 rules the server applies. */
import { InstitutionSelectField } from "../../components/institution_select.tsx";
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { type BicParts, PRIMARY_OFFICE_BRANCH_CODE, validateBic } from "../../../domain/bic.ts";
import { titleCase } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { useRegisterBic } from "./api.ts";
import { MEMBERSHIP_TYPES } from "./types.ts";
import { type FormBinding, useDialogForm } from "../../lib/form_state.ts";
import { BicField } from "../../components/bic_field.tsx";
import { FormDialog } from "../../components/form_dialog.tsx";
import { EFFECTIVE_DATE_HINT } from "../../components/code_lifecycle.tsx";

interface RegisterInput {
  institutionId: string;
  bicCode: string;
  membershipType: string;
  validFrom: string;
  validUntil: string;
  /** Empty: in force at once; a date: registered inactive and in force from then. */
  effectiveFrom: string;
}

const EMPTY: RegisterInput = {
  institutionId: "",
  bicCode: "",
  membershipType: "",
  validFrom: "",
  validUntil: "",
  effectiveFrom: "",
};

const MEMBERSHIP_OPTIONS = MEMBERSHIP_TYPES.map((type) => ({ value: type, label: titleCase(type) }));

function describeBic(parts: BicParts): string {
  const branch = parts.branchCode ?? PRIMARY_OFFICE_BRANCH_CODE;
  const flags = [
    parts.isPrimaryOffice ? "primary office" : null,
    parts.isTestBic ? "test BIC" : null,
    parts.isPassive ? "passive participant" : null,
    parts.isReverseBilling ? "reverse billing" : null,
  ].filter(Boolean).join(", ");
  return `Valid BIC: bank ${parts.bankCode}, country ${parts.countryCode}, location ${parts.locationCode}, branch ${branch}${
    flags ? ` (${flags})` : ""
  }`;
}

function ValidityFields({ bind }: Pick<FormBinding<RegisterInput>, "bind">) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField label="Valid From" type="date" {...bind("validFrom")} hint="Blank: from now" />
      <TextField label="Valid Until" type="date" {...bind("validUntil")} hint="Blank: indefinite" />
      <TextField label="Effective date" type="date" {...bind("effectiveFrom")} hint={EFFECTIVE_DATE_HINT} />
    </div>
  );
}

export function RegisterBicDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { form, set, bind, close } = useDialogForm<RegisterInput>(EMPTY, onClose);
  const { toast } = useToast();

  const register = useRegisterBic((record) => {
    toast({ title: "BIC code registered", description: `${record.bicCode} is now registered` });
    close();
  });

  const bic = form.bicCode.length > 0 ? validateBic(form.bicCode) : null;
  const canSubmit = form.institutionId !== "" && bic !== null && bic.ok && !register.isPending;
  const submit = () =>
    register.mutate({
      ...form,
      validFrom: form.validFrom || null,
      validUntil: form.validUntil || null,
      effectiveFrom: form.effectiveFrom || null,
    });

  return (
    <FormDialog
      open={open}
      onClose={close}
      title="Register BIC Code"
      description="Bank, country, location and branch codes are taken from the BIC (ISO 9362)."
      onSubmit={submit}
      submitLabel="Register BIC"
      pendingLabel="Registering…"
      isPending={register.isPending}
      canSubmit={canSubmit}
    >
      <InstitutionSelectField open={open} value={form.institutionId} onChange={set("institutionId")} />
      <BicField
        label="BIC Code"
        required
        value={form.bicCode}
        onValue={set("bicCode")}
        placeholder="NWBKGB2L"
        bic={bic}
        hint={bic !== null && bic.ok ? describeBic(bic.value) : "8 or 11 characters"}
      />
      <SelectField
        label="Membership Type"
        {...bind("membershipType")}
        placeholder="Standard"
        options={MEMBERSHIP_OPTIONS}
      />
      <ValidityFields bind={bind} />
    </FormDialog>
  );
}
