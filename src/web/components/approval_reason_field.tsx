import { SECOND_ADMINISTRATOR_HINT } from "../lib/dual_control.ts";
import { TextField } from "./ui/form.tsx";

const ABOVE_THRESHOLD_HINT =
  "Needed when your movements today would go above the approval threshold, or the account above its daily outflow limit: a second person must approve the movement";

/** The maker's reason, sent as requestReason; the server asks for it when the action needs a second person. */
export function ApprovalReasonField({ value, onChange, error, hint = ABOVE_THRESHOLD_HINT, required }: {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  /** When the reason is needed, if not only above the threshold. */
  hint?: string;
  /** The action goes to approval, so the reason must be given before it is submitted. */
  required?: boolean;
}) {
  return (
    <TextField
      label="Reason for approval"
      required={required}
      maxLength={1000}
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
      hint={hint}
    />
  );
}

/**
 * An administrator's reason: asked when dual control makes the change a request for a second
 * administrator, or when the server asked for one (dual control came into force meanwhile).
 */
export function AdministrationReasonField({ value, onChange, error, asked }: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  asked: boolean;
}) {
  if (!asked && error === undefined) return null;
  return (
    <ApprovalReasonField value={value} onChange={onChange} error={error} hint={SECOND_ADMINISTRATOR_HINT} />
  );
}
