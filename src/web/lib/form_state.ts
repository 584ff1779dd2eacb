/**
 * A dialog's form as one object: `set(field)` gives a field's change handler, `bind(field)` the
 * value and onChange of a text or select control, `reset` empties the form.
 */
import { useState } from "react";

type TextKey<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T];

export function useFormState<T extends object>(empty: T) {
  const [form, setForm] = useState<T>(empty);
  const set = <K extends keyof T>(field: K) => (value: T[K]) => setForm((current) => ({ ...current, [field]: value }));
  const bind = (field: TextKey<T>) => ({
    value: form[field] as string,
    onChange: (event: { target: { value: string } }) => set(field)(event.target.value as T[typeof field]),
  });
  return { form, setForm, set, bind, reset: () => setForm(empty) };
}
