/**
 * "Edit details" on the institution page: name, contact, licence, branches and LEI, at once or from
 * an effective date. Every edit is a request that a second person approves (PATCH /api/institutions/:id);
 * only the fields that differ from the record shown are sent.
 */
import { useState } from "react";
import {
  MAX_ADDRESS_LENGTH,
  MAX_EMAIL_ADDRESS_LENGTH,
  MAX_INSTITUTION_NAME_LENGTH,
  MAX_LICENSE_NUMBER_LENGTH,
  MAX_PHONE_NUMBER_LENGTH,
  MAX_STATUS_CHANGE_REASON_LENGTH,
} from "../../../domain/institution.ts";
import { MAX_LEI_INPUT_LENGTH } from "../../../domain/lei.ts";
import { FormDialog } from "../../components/form_dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { TextAreaField, TextField } from "../../components/ui/form.tsx";
import { useMayCall } from "../../lib/auth.ts";
import { serverFieldErrors } from "../../lib/form_input.ts";
import { useDialogForm } from "../../lib/form_state.ts";
import { useEditInstitution } from "./api.ts";
import { BranchesField } from "./branches_field.tsx";
import type { Institution } from "./types.ts";

interface DetailsForm {
  name: string;
  address: string;
  phoneNumber: string;
  emailAddress: string;
  licenseNumber: string;
  numberOfBranches: string;
  lei: string;
  effectiveFrom: string;
  reason: string;
}

const formOf = (institution: Institution): DetailsForm => ({
  name: institution.name,
  address: institution.address,
  phoneNumber: institution.phoneNumber,
  emailAddress: institution.emailAddress,
  licenseNumber: institution.licenseNumber ?? "",
  numberOfBranches: String(institution.numberOfBranches),
  lei: institution.lei ?? "",
  effectiveFrom: "",
  reason: "",
});

/** The fields that differ from the record: a cleared optional one is sent as blank, which clears it. */
function changedFields(form: DetailsForm, institution: Institution): Record<string, unknown> {
  const before = formOf(institution);
  const body: Record<string, unknown> = {};
  for (const field of ["name", "address", "phoneNumber", "emailAddress", "licenseNumber", "lei"] as const) {
    if (form[field].trim() !== before[field]) body[field] = form[field].trim();
  }
  if (form.numberOfBranches.trim() !== before.numberOfBranches) body.numberOfBranches = Number(form.numberOfBranches);
  return body;
}

export function EditDetailsAction({ institution }: { institution: Institution }) {
  const mayEdit = useMayCall("PATCH", "/api/institutions/:id");
  const [open, setOpen] = useState(false);
  const { form, bind, errors, setErrors, close, setForm } = useDialogForm(formOf(institution), () => setOpen(false));
  const edit = useEditInstitution(institution.id, close, (error) => setErrors(serverFieldErrors(error)));
  const submit = () => {
    const body = changedFields(form, institution);
    const missing: Record<string, string> = {};
    if (Object.keys(body).length === 0) missing.name = "Change at least one field";
    if (form.reason.trim() === "") missing.reason = "Required";
    if (Object.keys(missing).length > 0) return setErrors(missing);
    const reason = form.reason.trim();
    const effectiveFrom = form.effectiveFrom || undefined;
    edit.mutate({ ...body, effectiveFrom, reason, requestReason: reason });
  };
  if (!mayEdit || institution.status === "terminated") return null;
  return (
    <>
      <Button size="sm" variant="outline" changes onClick={() => {
          setForm(formOf(institution));
          setOpen(true);
        }}>
        Edit details
      </Button>
      <FormDialog
        open={open}
        onClose={close}
        wide
        title={`Edit details of ${institution.name}`}
        description="The change takes effect on the date given (at once without one) after a second person with the approver role approves it."
        onSubmit={submit}
        submitLabel="Submit for approval"
        pendingLabel="Submitting…"
        isPending={edit.isPending}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Institution Name" required maxLength={MAX_INSTITUTION_NAME_LENGTH} {...bind("name")} />
          <TextField label="LEI" maxLength={MAX_LEI_INPUT_LENGTH} hint="20 characters (ISO 17442); blank for none" {...bind("lei")} />
          <TextField label="Phone Number" type="tel" maxLength={MAX_PHONE_NUMBER_LENGTH} {...bind("phoneNumber")} />
          <TextField label="Email Address" type="email" maxLength={MAX_EMAIL_ADDRESS_LENGTH} {...bind("emailAddress")} />
          <TextField label="License Number" maxLength={MAX_LICENSE_NUMBER_LENGTH} hint="Optional" {...bind("licenseNumber")} />
          <BranchesField {...bind("numberOfBranches")} />
        </div>
        <TextAreaField label="Address" rows={2} maxLength={MAX_ADDRESS_LENGTH} {...bind("address")} />
        <TextField label="Effective From" type="date" hint="Blank: at once" {...bind("effectiveFrom")} />
        <TextAreaField label="Reason" rows={2} required maxLength={MAX_STATUS_CHANGE_REASON_LENGTH} {...bind("reason")} />
        {errors.requestReason && <p className="text-sm text-red-700">{errors.requestReason}</p>}
      </FormDialog>
    </>
  );
}
