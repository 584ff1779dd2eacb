import { Field, Label, Switch as HeadlessSwitch } from "@headlessui/react";

export function SwitchField({ label, checked, onChange, disabled }: {
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <Field className="flex items-center gap-3" disabled={disabled}>
      <HeadlessSwitch
        checked={checked}
        onChange={onChange}
        disabled={disabled}
        className="group relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-slate-300 transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700 focus-visible:ring-offset-2 data-[checked]:bg-blue-800 data-[disabled]:opacity-60"
      >
        <span className="inline-block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform group-data-[checked]:translate-x-5" />
      </HeadlessSwitch>
      <Label className="text-sm font-medium text-slate-800">{label}</Label>
    </Field>
  );
}
