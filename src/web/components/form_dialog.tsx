/** A dialog that holds one form: its fields, then Cancel and a submit button that names the work while it runs. */
import type { FormEvent, ReactNode } from "react";
import { asciiUpperCase } from "../../domain/ascii.ts";
import { BIC_LENGTH_WITH_BRANCH, type BicResult } from "../../domain/bic.ts";
import { Button } from "./ui/button.tsx";
import { Dialog } from "./ui/dialog.tsx";
import { TextField } from "./ui/form.tsx";

export function FormDialog(
  { open, onClose, title, description, wide, onSubmit, submitLabel, pendingLabel, isPending, canSubmit, footerClassName, children }:
    {
      open: boolean;
      onClose: () => void;
      title: string;
      description?: string;
      wide?: boolean;
      onSubmit: (event: FormEvent) => void;
      submitLabel: string;
      pendingLabel: string;
      isPending: boolean;
      /** Without it, the button waits only for a submission under way. */
      canSubmit?: boolean;
      footerClassName?: string;
      children: ReactNode;
    },
) {
  return (
    <Dialog open={open} onClose={onClose} wide={wide} title={title} description={description}>
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        {children}
        <div className={footerClassName ?? "flex justify-end gap-2"}>
          <Button variant="outline" onClick={onClose}>Cancel</Button>
          <Button type="submit" disabled={!(canSubmit ?? !isPending)}>
            {isPending ? pendingLabel : submitLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** A BIC, typed in capitals without spaces; the check's message is its error. */
export function BicField({ label, value, onValue, bic, hint = "8 or 11 characters", required, placeholder }: {
  label: string;
  value: string;
  onValue: (value: string) => void;
  /** validateBic's answer for the value, or null while it is empty. */
  bic: BicResult | null;
  hint?: ReactNode;
  required?: boolean;
  placeholder?: string;
}) {
  return (
    <TextField
      label={label}
      required={required}
      maxLength={BIC_LENGTH_WITH_BRANCH}
      autoComplete="off"
      spellCheck={false}
      value={value}
      onChange={(event) => onValue(asciiUpperCase(event.target.value).trim())}
      placeholder={placeholder}
      className="font-mono"
      error={bic !== null && !bic.ok ? bic.error.message : null}
      hint={hint}
    />
  );
}
