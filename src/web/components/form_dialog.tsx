/** A dialog that holds one form: its fields, then Cancel and a submit button that names the work while it runs. */
import type { FormEvent, ReactNode } from "react";
import { Button } from "./ui/button.tsx";
import { Dialog } from "./ui/dialog.tsx";

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
