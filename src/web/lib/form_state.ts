/**
 * A dialog's form as one object: `set(field)` gives a field's change handler, `bind(field)` the
 * value, onChange and error of a text or select control, `reset` empties the form and its errors,
 * `close` resets and then closes the dialog. Editing a field clears its error, or re-checks it.
 */
import { useState } from "react";

type TextKey<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T];

/** A message per field; a field without a message is valid. */
export type FormErrors = Partial<Record<string, string>>;

export interface FormOptions<T> {
  /** Dependent fields a change brings along, e.g. a choice that no longer fits. */
  adjust?: (next: T, field: keyof T, current: T) => T;
  /** The message a field that shows an error has after an edit; without it, the edit clears the error. */
  recheck?: <K extends keyof T>(field: K, value: T[K], shown: string) => string | undefined;
  /** Runs whenever the form changes, by an edit or a reset, for state kept beside the form. */
  onChange?: () => void;
}

export function useFormState<T extends object>(empty: T, options: FormOptions<T> = {}) {
  const [form, setForm] = useState<T>(empty);
  const [errors, setErrors] = useState<FormErrors>({});
  const set = <K extends keyof T>(field: K) => (value: T[K]) => {
    setForm((current) => {
      const next = { ...current, [field]: value };
      return options.adjust ? options.adjust(next, field, current) : next;
    });
    setErrors(({ [field as string]: shown, ...rest }) => {
      const message = shown && options.recheck ? options.recheck(field, value, shown) : undefined;
      return message ? { ...rest, [field]: message } : rest;
    });
    options.onChange?.();
  };
  const bind = (field: TextKey<T>) => ({
    value: form[field] as string,
    onChange: (event: { target: { value: string } }) => set(field)(event.target.value as T[typeof field]),
    error: errors[field as string],
  });
  const reset = () => {
    setForm(empty);
    setErrors({});
    options.onChange?.();
  };
  return { form, setForm, errors, setErrors, set, bind, reset };
}

/** A form inside a dialog: closing it, by Cancel or after a success, always starts the next one empty. */
export function useDialogForm<T extends object>(empty: T, onClose: () => void, options: FormOptions<T> = {}) {
  const state = useFormState(empty, options);
  const close = () => {
    state.reset();
    onClose();
  };
  return { ...state, close };
}

/** What a group of fields receives from its dialog's form. */
export type FormBinding<T extends object> = ReturnType<typeof useFormState<T>>;
