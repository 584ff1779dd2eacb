import { TextField } from "./ui/form.tsx";

/** The maker's reason, sent as requestReason; the server asks for it only above the approval threshold. */
export function ApprovalReasonField({ value, onChange, error }: {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
}) {
  return (
    <TextField
      label="Reason for approval"
      maxLength={1000}
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
      hint="Needed above the approval threshold: a second person must approve the movement"
    />
  );
}
