import { TextField } from "./ui/form.tsx";

const ABOVE_THRESHOLD_HINT =
  "Needed when your movements today would go above the approval threshold, or the account above its daily outflow limit: a second person must approve the movement";

/** The maker's reason, sent as requestReason; the server asks for it when the action needs a second person. */
export function ApprovalReasonField({ value, onChange, error, hint = ABOVE_THRESHOLD_HINT }: {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  /** When the reason is needed, if not only above the threshold. */
  hint?: string;
}) {
  return (
    <TextField
      label="Reason for approval"
      maxLength={1000}
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
      hint={hint}
    />
  );
}
