/**
 * The decider's confirmation: restates what the request will do (the amount and accounts, or the
 * account and roles) and asks for the decision's reason. A refusal (403: one's own request, a grant
 * the requester made, a role not yet confirmed) shows the server's reason here.
 */
import { type FormEvent, useState } from "react";
import { personText } from "../../components/person.tsx";
import type { OneTimePassword } from "../../components/one_time_password_dialog.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { TextAreaField } from "../../components/ui/form.tsx";
import { ApiError } from "../../lib/api.ts";
import { type ApprovalRequest, describeRequest } from "../../lib/approval.ts";
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
      <p className="font-medium text-slate-900">{describeRequest(request)}</p>
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

export function DecisionDialog({ request, decision, onClose, onPassword }: {
  request: ApprovalRequest | null;
  decision: Decision;
  onClose: () => void;
  /** Approving a new user or a password reset: the one-time password, to be shown once. */
  onPassword: (shown: OneTimePassword) => void;
}) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const { toast } = useToast();
  const close = () => {
    setReason("");
    setError(null);
    setRefusal(null);
    onClose();
  };
  const decide = useDecide(
    decision,
    reason,
    (decided) => {
      toast({
        title: decision === "approve" ? "Request approved and executed" : "Request rejected",
        description: describeRequest(decided),
      });
      if (decided.initialPassword) {
        onPassword({ email: decided.summary.email ?? "", password: decided.initialPassword });
      }
      close();
    },
    (failure) =>
      setRefusal(failure instanceof ApiError && failure.status === 403 ? failure.serverMessage : null),
  );
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
      onClose={close}
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
          {refusal && <p role="alert" className="text-sm text-red-700">{refusal}</p>}
          <DialogActions
            onCancel={close}
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
