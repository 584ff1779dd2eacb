/**
 * "Terminate" on the institution page: the institution and its own routing codes and BICs end on a
 * date, optionally succeeded by another institution; their deletion is announced at once. A request
 * for a second person, like every status change (PATCH /api/institutions/:id/status).
 */
import { type FormEvent, useState } from "react";
import { MAX_STATUS_CHANGE_REASON_LENGTH } from "../../../domain/institution.ts";
import { DialogActions } from "../../components/dialog_actions.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { SelectField, TextAreaField, TextField } from "../../components/ui/form.tsx";
import { useMayCall } from "../../lib/auth.ts";
import { serverFieldErrors } from "../../lib/form_input.ts";
import { useChangeStatus, useInstitutionOptions, usePendingStatusChanges } from "./api.ts";
import type { Institution } from "./types.ts";

const EMPTY = { effectiveFrom: "", successorId: "", reason: "" };

export function TerminateAction({ institution }: { institution: Institution }) {
  const mayChangeStatus = useMayCall("PATCH", "/api/institutions/:id/status");
  const pending = usePendingStatusChanges().has(institution.id);
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const options = useInstitutionOptions(open);
  const close = () => {
    setOpen(false);
    setForm(EMPTY);
    setErrors({});
  };
  const change = useChangeStatus(institution.id, close, (error) => setErrors(serverFieldErrors(error)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.reason.trim() === "") return setErrors({ reason: "Required" });
    const reason = form.reason.trim();
    change.mutate({
      status: "terminated",
      reason,
      effectiveFrom: form.effectiveFrom || undefined,
      successorId: form.successorId || undefined,
    });
  };
  if (!mayChangeStatus || pending || institution.status === "terminated") return null;
  const successors = (options.data ?? []).filter((other) => other.id !== institution.id)
    .map((other) => ({ value: other.id, label: other.name }));
  const field = (name: keyof typeof EMPTY) => ({
    value: form[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });
  return (
    <>
      <Button size="sm" variant="outline" changes onClick={() => setOpen(true)} aria-label={`Terminate ${institution.name}`}>
        Terminate
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title={`Terminate ${institution.name}?`}
        description="The institution and its routing codes and BICs end on the date given (at once without one) once a second person with the approver role approves; their deletion is announced at once. Termination is final."
      >
        <form onSubmit={submit} noValidate className="space-y-4">
          <TextField label="Effective From" type="date" hint="Blank: at once" {...field("effectiveFrom")} />
          <SelectField label="Successor" placeholder="No successor" options={successors} {...field("successorId")} />
          <TextAreaField label="Reason" rows={3} required maxLength={MAX_STATUS_CHANGE_REASON_LENGTH} {...field("reason")} />
          <DialogActions onCancel={close} variant="destructive" isPending={change.isPending} label="Submit for approval" />
        </form>
      </Dialog>
    </>
  );
}
