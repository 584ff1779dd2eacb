/** The "Stay signed in" offer itself (stay_signed_in.tsx decides when it is due). */
import { formatCountdown, type SessionExpiry } from "../../../domain/session_expiry.ts";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";

export default function StaySignedInDialog(
  { expiry, now, extending, onStay }: { expiry: SessionExpiry; now: number; extending: boolean; onStay: () => void },
) {
  return (
    <Dialog
      open
      onClose={onStay}
      title="Your session is about to end"
      description="You have been inactive for a while. For security, you will be signed out automatically."
    >
      <p className="text-sm text-slate-800" role="timer" aria-live="off">
        Signing out in{" "}
        <span className="font-semibold" data-testid="session-countdown">
          {formatCountdown(expiry.expiresAtMs - now)}
        </span>
      </p>
      <div className="mt-6 flex justify-end gap-3">
        <form method="post" action="/api/logout" noValidate>
          <Button type="submit" variant="outline">Sign Out</Button>
        </form>
        <Button onClick={onStay} disabled={extending}>Stay signed in</Button>
      </div>
    </Dialog>
  );
}
