/**
 * A dialog that holds one form: its fields, then Cancel and a submit button that names the work while it runs.
 * The page never reloads on submit, and `onSubmit` runs only while the button is enabled: never while
 * changes are paused (the submit button is a change).
 */
import type { FormEvent, ReactNode } from "react";
import { Button } from "./ui/button.tsx";
import { useChangesPaused } from "../lib/changes_paused.ts";
import { Dialog } from "./ui/dialog.tsx";

export function FormDialog(
  { open, onClose, title, description, wide, onSubmit, submitLabel, pendingLabel, isPending, canSubmit, footerClassName, children }:
    {
      open: boolean;
      onClose: () => void;
      title: string;
      description?: string;
      wide?: boolean;
      onSubmit: () => void;
      submitLabel: string;
      pendingLabel: string;
      isPending: boolean;
      /** Without it, the button waits only for a submission under way. */
      canSubmit?: boolean;
      footerClassName?: string;
      children: ReactNode;
    },
) {
  const paused = useChangesPaused() !== null;
  const enabled = !paused && (canSubmit ?? !isPending);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (enabled) onSubmit();
  };
  return (
    <Dialog open={open} onClose={onClose} wide={wide} title={title} description={description}>
      <form onSubmit={submit} className="space-y-4" noValidate>
        {children}
        <div className={footerClassName ?? "flex justify-end gap-2"}>
          <Button variant="outline" changes={false} onClick={onClose}>Cancel</Button>
          <Button type="submit" changes disabled={!enabled}>
            {isPending ? pendingLabel : submitLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
