/** A card operation's form: its fields in two columns, then a submit button, shown only to those allowed, that names the work while it runs. */
import type { ReactNode } from "react";
import { Button } from "../../components/ui/button.tsx";
import { IfAllowed } from "../../components/if_allowed.tsx";

export function CardActionForm(
  { path, onSubmit, isPending, disabled, submitLabel, pendingLabel, children }: {
    /** The API route the button is allowed for. */
    path: string;
    onSubmit: () => void;
    isPending: boolean;
    /** Without it, the button waits only for a submission under way. */
    disabled?: boolean;
    submitLabel: string;
    pendingLabel: string;
    children: ReactNode;
  },
) {
  return (
    <form
      noValidate
      className="grid gap-4 sm:grid-cols-2"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <div className="flex items-end justify-end sm:col-span-2">
        <IfAllowed method="POST" path={path}>
          <Button type="submit" disabled={disabled ?? isPending}>{isPending ? pendingLabel : submitLabel}</Button>
        </IfAllowed>
      </div>
    </form>
  );
}
