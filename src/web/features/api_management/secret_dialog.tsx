/**
 * A secret the server hands out once (an API key, a webhook's signing secret): shown in a read-only
 * field with a copy button, never again once the dialog is closed.
 */
import type { ReactNode } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { TextField } from "../../components/ui/form.tsx";
import { CopyButton } from "./copy_button.tsx";

export function ShownOnceSecretDialog(
  { secret, title, description, fieldLabel, copyLabel, copiedText, onClose, children }: {
    /** Null: the dialog is closed. */
    secret: string | null;
    title: string;
    description: string;
    fieldLabel: string;
    copyLabel: string;
    /** What the "Copied!" notification says; never the secret itself. */
    copiedText: string;
    onClose: () => void;
    /** How to use the secret. */
    children: ReactNode;
  },
) {
  return (
    <Dialog open={secret !== null} onClose={onClose} title={title} description={description}>
      {secret !== null && (
        <div className="space-y-4">
          <div className="flex items-end gap-2">
            <div className="flex-1">
              <TextField
                label={fieldLabel}
                readOnly
                value={secret}
                className="font-mono text-xs"
                onFocus={(event) => event.target.select()}
              />
            </div>
            <CopyButton text={secret} label={copyLabel} toastDescription={copiedText} className="mb-0.5" />
          </div>
          <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
            {children}
          </p>
          <div className="flex justify-end">
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
