/**
 * A dialog's closing row: Cancel, then the button that does the work and names it while it runs;
 * that button is a change, disabled while the node's changes are paused.
 */
import type { ReactNode } from "react";
import { Button, type ButtonProps } from "./ui/button.tsx";

export function DialogActions(
  { onCancel, label, pendingLabel, isPending, disabled, variant, onConfirm, className = "flex justify-end gap-2" }: {
    onCancel: () => void;
    label: ReactNode;
    /** Shown while the work runs; without it the label stays. */
    pendingLabel?: string;
    isPending: boolean;
    /** Without it, the button waits only for the work under way. */
    disabled?: boolean;
    variant?: ButtonProps["variant"];
    /** A plain button that runs this; without it the button submits its form. */
    onConfirm?: () => void;
    className?: string;
  },
) {
  return (
    <div className={className}>
      <Button variant="outline" changes={false} onClick={onCancel}>Cancel</Button>
      <Button
        type={onConfirm ? "button" : "submit"}
        variant={variant}
        changes
        disabled={disabled ?? isPending}
        onClick={onConfirm}
      >
        {isPending && pendingLabel ? pendingLabel : label}
      </Button>
    </div>
  );
}
