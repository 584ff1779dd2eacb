/**
 * An institution's status action (Request approval, Suspend, Reactivate), on the registry's rows and on the
 * institution page.
 */
import { type FormEvent, useState } from "react";
import {
  type InstitutionStatus,
  MAX_STATUS_CHANGE_REASON_LENGTH,
  STATUS_ACTIONS,
} from "../../../domain/institution.ts";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { TextAreaField, TextField } from "../../components/ui/form.tsx";
import { serverFieldErrors } from "../../lib/form_input.ts";
import { useMayCall } from "../../lib/auth.ts";
import { useToast } from "../../lib/toast.ts";
import { useChangeStatus, usePendingStatusChanges } from "./api.ts";
import type { Institution } from "./types.ts";
import { DialogActions } from "../../components/dialog_actions.tsx";

/**
 * A status change asks why first and is a four-eyes request: the reason is
 * required here, becomes the request's reason, and reaches the change's audit row at approval.
 */
export function StatusAction({ institution }: { institution: Institution }) {
  if (institution.status === "terminated") return null;
  return <OperatingStatusAction institution={institution} status={institution.status} />;
}

/** The action of an institution still operating; a suspension may end on a date. */
function OperatingStatusAction({ institution, status }: { institution: Institution; status: InstitutionStatus }) {
  const mayChangeStatus = useMayCall("PATCH", "/api/institutions/:id/status");
  const pending = usePendingStatusChanges().has(institution.id);
  const { toast } = useToast();
  const action = STATUS_ACTIONS[status];
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [dates, setDates] = useState({ effectiveFrom: "", until: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const close = () => {
    setOpen(false);
    setReason("");
    setDates({ effectiveFrom: "", until: "" });
    setErrors({});
  };
  const change = useChangeStatus(institution.id, (updated) => {
    close();
    if (updated) toast({ title: action.done, description: `${updated.name} is now ${updated.status}.` });
  }, (error) => setErrors(serverFieldErrors(error)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === "") return setErrors({ reason: "Required" });
    const when = { effectiveFrom: dates.effectiveFrom || undefined, until: dates.until || undefined };
    if (!change.isPending) change.mutate({ status: action.to, reason: reason.trim(), ...when });
  };
  const dateField = (name: keyof typeof dates) => ({
    value: dates[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => setDates({ ...dates, [name]: event.target.value }),
  });
  if (!mayChangeStatus) return null;
  if (pending) return <span className="text-xs font-medium text-amber-800">Approval pending</span>;
  return (
    <>
      <Button
        size="sm"
        variant={action.to === "suspended" ? "outline" : "default"}
        changes
        disabled={change.isPending}
        aria-label={`${action.naming} ${institution.name}`}
        onClick={() => setOpen(true)}
      >
        {action.label}
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title={`${action.naming} ${institution.name}?`}
        description={`The status changes from ${institution.status} to ${action.to} on the date given (at once without one) once a second person with the approver role approves. The reason is kept in the audit trail.`}
      >
        <form onSubmit={submit} noValidate className="space-y-4">
          <TextAreaField
            label="Reason"
            rows={3}
            autoFocus
            required
            maxLength={MAX_STATUS_CHANGE_REASON_LENGTH}
            value={reason}
            error={errors.reason}
            onChange={(event) => {
              setReason(event.target.value);
              setErrors({});
            }}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label="Effective From" type="date" hint="Blank: at once" {...dateField("effectiveFrom")} />
            {action.to === "suspended" && (
              <TextField label="Until" type="date" hint="Blank: until reactivated" {...dateField("until")} />
            )}
          </div>
          <DialogActions
            onCancel={close}
            variant={action.to === "suspended" ? "destructive" : "default"}
            isPending={change.isPending}
            label="Submit for approval"
          />
        </form>
      </Dialog>
    </>
  );
}
