/** Labelled form controls: every input has a visible label and its error is announced. */
import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes, useId } from "react";

const CONTROL = "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus:border-blue-700 focus:outline-none focus:ring-2 focus:ring-blue-700 disabled:opacity-60";

export interface FieldProps {
  label: string;
  error?: string | null;
  hint?: ReactNode;
}

export function Field({ id, label, error, hint, children }: FieldProps & { id: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">{label}</label>
      {children}
      {hint && !error && <p id={`${id}-hint`} className="text-xs text-slate-600">{hint}</p>}
      {error && <p id={`${id}-error`} role="alert" className="text-xs text-red-700">{error}</p>}
    </div>
  );
}

/** The id a control gets, and the ARIA attributes that tie it to its error or hint. */
export function useControl(id: string | undefined, error: string | null | undefined, hint: ReactNode) {
  const generated = useId();
  const fieldId = id ?? generated;
  const describedBy = error ? `${fieldId}-error` : hint ? `${fieldId}-hint` : undefined;
  return { fieldId, aria: { id: fieldId, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy } };
}

export function TextField({ label, error, hint, id, className = "", ...props }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const { fieldId, aria } = useControl(id, error, hint);
  return (
    <Field id={fieldId} label={label} error={error} hint={hint}>
      <input {...aria} className={`${CONTROL} ${className}`} {...props} />
    </Field>
  );
}

export function TextAreaField({ label, error, hint, id, className = "", ...props }: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { fieldId, aria } = useControl(id, error, hint);
  return (
    <Field id={fieldId} label={label} error={error} hint={hint}>
      <textarea {...aria} className={`${CONTROL} ${className}`} {...props} />
    </Field>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField({ label, error, hint, id, options, placeholder, className = "", ...props }:
  FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { options: readonly Option[]; placeholder?: string }) {
  const { fieldId, aria } = useControl(id, error, hint);
  return (
    <Field id={fieldId} label={label} error={error} hint={hint}>
      <select {...aria} className={`${CONTROL} ${className}`} {...props}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
      </select>
    </Field>
  );
}

export const inputClassName = CONTROL;
