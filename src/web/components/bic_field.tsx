import type { ReactNode } from "react";
import { asciiUpperCase } from "../../domain/ascii.ts";
import { BIC_LENGTH_WITH_BRANCH, type BicResult } from "../../domain/bic.ts";
import { TextField } from "./ui/form.tsx";

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
