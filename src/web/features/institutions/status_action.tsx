/**
 * An institution's status action (Approve, Suspend, Reactivate), on the registry's rows and on the
 * institution page.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { MAX_STATUS_CHANGE_REASON_LENGTH, STATUS_ACTIONS } from "../../../domain/institution.ts";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { TextAreaField } from "../../components/ui/form.tsx";
import { apiJson } from "../../lib/api.ts";
import { useToast } from "../../lib/toast.ts";
import { handleMutationError } from "../../lib/unauthorized.ts";
import { type Institution, INSTITUTIONS_KEY, REGISTRY_QUERY_KEYS } from "./types.ts";

/**
 * A row's status action (Approve, Suspend, Reactivate). It asks why first (issue 23): the reason is
 * required here and travels with the change into its audit row.
 */
export function StatusAction({ institution }: { institution: Institution }) {
  const queryClient = useQueryClient();
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
  const change = useMutation({
    mutationFn: () =>
      apiJson<Institution>("PATCH", `${INSTITUTIONS_KEY}/${encodeURIComponent(institution.id)}/status`, {
        status: action.to,
        reason: reason.trim(),
      }),
    onSuccess: (updated) => {
      toast({ title: action.done, description: `${updated.name} is now ${updated.status}.` });
      for (const queryKey of REGISTRY_QUERY_KEYS) queryClient.invalidateQueries({ queryKey });
      close();
    },
    onError: (error) => handleMutationError(error, toast, "Failed to update institution status"),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === "") return setError("Required");
    if (!change.isPending) change.mutate();
  };
  return (
    <>
      <Button
        size="sm"
        variant={action.to === "suspended" ? "outline" : "default"}
        disabled={change.isPending}
        aria-label={`${action.label} ${institution.name}`}
        onClick={() => setOpen(true)}
      >
        {action.label}
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title={`${action.label} ${institution.name}`}
        description={`The status changes from ${institution.status} to ${action.to}. The reason is kept in the audit trail.`}
      >
        <form onSubmit={submit} noValidate className="space-y-4">
          <TextAreaField
            label="Reason"
            rows={3}
            autoFocus
            maxLength={MAX_STATUS_CHANGE_REASON_LENGTH}
            value={reason}
            error={error}
            onChange={(event) => {
              setReason(event.target.value);
              setError(null);
            }}
          />
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={close}>Cancel</Button>
            <Button
              type="submit"
              variant={action.to === "suspended" ? "destructive" : "default"}
              disabled={change.isPending}
            >
              {action.label}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
