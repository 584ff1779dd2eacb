/**
 * An institution's status action (Request approval, Suspend, Reactivate), on the registry's rows and on the
 * institution page.
 */
import { type FormEvent, useState } from "react";
import { MAX_STATUS_CHANGE_REASON_LENGTH, STATUS_ACTIONS } from "../../../domain/institution.ts";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { TextAreaField } from "../../components/ui/form.tsx";
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
  const mayChangeStatus = useMayCall("PATCH", "/api/institutions/:id/status");
  const pending = usePendingStatusChanges().has(institution.id);
  const { toast } = useToast();
  const action = STATUS_ACTIONS[institution.status];
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setOpen(false);
    setReason("");
    setError(null);
  };
  const change = useChangeStatus(institution.id, (updated) => {
    close();
    if (updated) toast({ title: action.done, description: `${updated.name} is now ${updated.status}.` });
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === "") return setError("Required");
    if (!change.isPending) change.mutate({ status: action.to, reason: reason.trim() });
  };
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
        description={`The status changes from ${institution.status} to ${action.to} once a second person with the approver role approves. The reason is kept in the audit trail.`}
      >
        <form onSubmit={submit} noValidate className="space-y-4">
          <TextAreaField
            label="Reason"
            rows={3}
            autoFocus
            required
            maxLength={MAX_STATUS_CHANGE_REASON_LENGTH}
            value={reason}
            error={error}
            onChange={(event) => {
              setReason(event.target.value);
              setError(null);
            }}
          />
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
