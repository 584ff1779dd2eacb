/** Prepare the next edition: its effective date and why; a second person with the approver role publishes it. */
import { useEffect, useState } from "react";
import { FormDialog } from "../../components/form_dialog.tsx";
import { TextField } from "../../components/ui/form.tsx";
import { usePrepareEdition } from "./api.ts";

const MAX_REASON_LENGTH = 1000;

export function PrepareEditionDialog(
  { open, onClose, defaultDate }: { open: boolean; onClose: () => void; defaultDate: string },
) {
  const [effectiveDate, setEffectiveDate] = useState(defaultDate);
  const [reason, setReason] = useState("");
  useEffect(() => {
    if (open) {
      setEffectiveDate(defaultDate);
      setReason("");
    }
  }, [open, defaultDate]);
  const prepare = usePrepareEdition(onClose);
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="Prepare edition"
      description="The edition publishes every record in force at its effective date. It is published when an approver approves the request."
      onSubmit={() => prepare.mutate({ effectiveDate, reason })}
      submitLabel="Request publication"
      pendingLabel="Requesting…"
      isPending={prepare.isPending}
      canSubmit={!prepare.isPending && effectiveDate !== "" && reason.trim() !== ""}
    >
      <TextField
        label="Effective date"
        type="date"
        required
        value={effectiveDate}
        onChange={(event) => setEffectiveDate(event.target.value)}
      />
      <TextField
        label="Reason"
        required
        maxLength={MAX_REASON_LENGTH}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        hint="Why this edition is published now (the approver reads it)"
      />
    </FormDialog>
  );
}
