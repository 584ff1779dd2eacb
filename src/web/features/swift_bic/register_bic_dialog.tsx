/** "Register BIC Code": the BIC is checked as it is typed with the same ISO 9362 rules the server applies. */
import { InstitutionSelectField } from "../../components/institution_select.tsx";
import { type FormEvent, useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { asciiUpperCase } from "../../../domain/ascii.ts";
import {
  BIC_LENGTH_WITH_BRANCH,
  type BicParts,
  PRIMARY_OFFICE_BRANCH_CODE,
  validateBic,
} from "../../../domain/bic.ts";
import { titleCase } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { useRegisterBic } from "./api.ts";
import { MEMBERSHIP_TYPES } from "./types.ts";

interface RegisterInput {
  institutionId: string;
  bicCode: string;
  membershipType: string;
  validFrom: string;
  validUntil: string;
}

const EMPTY: RegisterInput = {
  institutionId: "",
  bicCode: "",
  membershipType: "",
  validFrom: "",
  validUntil: "",
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

export function RegisterBicDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form, setForm] = useState<RegisterInput>(EMPTY);
  const { toast } = useToast();

  const close = () => {
    setForm(EMPTY);
    onClose();
  };

  const register = useRegisterBic((record) => {
    toast({ title: "BIC code registered", description: `${record.bicCode} is now registered` });
    close();
  });

  const bic = form.bicCode.length > 0 ? validateBic(form.bicCode) : null;
  const canSubmit = form.institutionId !== "" && bic !== null && bic.ok && !register.isPending;
  const set = (field: keyof RegisterInput) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSubmit) {
      register.mutate({ ...form, validFrom: form.validFrom || null, validUntil: form.validUntil || null });
    }
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Register BIC Code"
      description="Bank, country, location and branch codes are taken from the BIC (ISO 9362)."
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        <InstitutionSelectField open={open} value={form.institutionId} onChange={set("institutionId")} />
        <TextField
          label="BIC Code"
          required
          maxLength={BIC_LENGTH_WITH_BRANCH}
          autoComplete="off"
          spellCheck={false}
          value={form.bicCode}
          onChange={(event) => set("bicCode")(asciiUpperCase(event.target.value).trim())}
          placeholder="NWBKGB2L"
          className="font-mono"
          error={bic !== null && !bic.ok ? bic.error.message : null}
          hint={bic !== null && bic.ok ? describeBic(bic.value) : "8 or 11 characters"}
        />
        <SelectField
          label="Membership Type"
          value={form.membershipType}
          onChange={(event) => set("membershipType")(event.target.value)}
          placeholder="Standard"
          options={MEMBERSHIP_OPTIONS}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Valid From"
            type="date"
            value={form.validFrom}
            onChange={(event) => set("validFrom")(event.target.value)}
            hint="Blank: from now"
          />
          <TextField
            label="Valid Until"
            type="date"
            value={form.validUntil}
            onChange={(event) => set("validUntil")(event.target.value)}
            hint="Blank: indefinite"
          />
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={close}>Cancel</Button>
          <Button type="submit" disabled={!canSubmit}>
            {register.isPending ? "Registering…" : "Register BIC"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
