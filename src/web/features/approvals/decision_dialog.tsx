/** The approver's confirmation: restates the amount and accounts and asks for the decision's reason. */
import { type FormEvent, useState } from "react";
import { personText } from "../../components/person.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { TextAreaField } from "../../components/ui/form.tsx";
import type { ApprovalRequest } from "../../lib/approval.ts";
import { formatCurrency } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { type Decision, useDecide } from "./api.ts";
import { RequestFigures } from "./request_figures.tsx";
import { DialogActions } from "../../components/dialog_actions.tsx";

function DecisionSummary({ request }: { request: ApprovalRequest }) {
  return (
    <div
      className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm"
      data-testid="decision-summary"
    >
      <p className="font-medium text-slate-900">{request.summary.description}</p>
      {request.amount && (
        <p className="mt-1 text-slate-800">
          Amount: <strong>{formatCurrency(request.amount, request.currency ?? "USD")}</strong>
        </p>
      )}
      <div className="mt-1">
        <RequestFigures request={request} />
      </div>
      <p className="mt-1 text-xs text-slate-700">
        Requested by {personText(request.requestedByName, request.requestedByEmail)}: “{request.requestReason}”
      </p>
    </div>
  );
}

export function DecisionDialog({ request, decision, onClose }: {
  request: ApprovalRequest | null;
  decision: Decision;
  onClose: () => void;
}) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const { toast } = useToast();
  const decide = useDecide(decision, reason, (decided) => {
    toast({
      title: decision === "approve" ? "Request approved and executed" : "Request rejected",
      description: decided.summary.description,
    });
    setReason("");
    onClose();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!request || decide.isPending) return;
    if (!reason.trim()) {
      setError("Give a reason for the decision");
      return;
    }
    decide.mutate(request.id);
  };
  const verb = decision === "approve" ? "Approve" : "Reject";
  return (
    <Dialog
      open={request !== null}
      onClose={onClose}
      title={`${verb} this request?`}
      description={decision === "approve"
        ? "Approving executes it now, in your name, after checking every condition again."
        : "Rejecting ends the request; nothing moves."}
    >
      {request && (
        <form onSubmit={submit} className="space-y-4">
          <DecisionSummary request={request} />
          <TextAreaField
            label="Reason for the decision"
            required
            maxLength={1000}
            value={reason}
            error={error}
            onChange={(event) => {
              setReason(event.target.value);
              setError(null);
            }}
          />
          <DialogActions
            onCancel={onClose}
            variant={decision === "approve" ? "default" : "destructive"}
            isPending={decide.isPending}
            label={`Confirm ${verb.toLowerCase()}`}
            pendingLabel="Working…"
          />
        </form>
      )}
    </Dialog>
  );
}
