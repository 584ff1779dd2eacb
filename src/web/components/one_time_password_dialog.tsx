/**
 * A one-time password, shown once to the administrator who made it take effect (a new user, a
 * reset): the server hands it out in that one answer and keeps only its hash.
 */
import { Button } from "./ui/button.tsx";
import { Dialog } from "./ui/dialog.tsx";
import { TextField } from "./ui/form.tsx";

export interface OneTimePassword {
  email: string;
  password: string;
}

export function OneTimePasswordDialog(
  { shown, onClose }: { shown: OneTimePassword | null; onClose: () => void },
) {
  return (
    <Dialog
      open={shown !== null}
      onClose={onClose}
      title="One-time password"
      description="Give this password to the user through a safe channel. It is shown only now; the user must replace it at the first sign-in."
    >
      {shown && (
        <div className="space-y-4">
          <TextField
            label={`Initial password for ${shown.email}`}
            readOnly
            value={shown.password}
            className="font-mono"
            onFocus={(event) => event.target.select()}
          />
          <div className="flex justify-end">
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
