/** A dialog's form as one object: `set(field)` gives the field's change handler, `reset` empties it. */
import { useState } from "react";

export function useFormState<T extends object>(empty: T) {
  const [form, setForm] = useState<T>(empty);
  const set = <K extends keyof T>(field: K) => (value: T[K]) => setForm((current) => ({ ...current, [field]: value }));
  return { form, setForm, set, reset: () => setForm(empty) };
}
