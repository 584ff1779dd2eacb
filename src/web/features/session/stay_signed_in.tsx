/**
 * Two minutes before the idle timeout ends the session, offers "Stay signed in". The expiry is read
 * from GET /api/auth/session, which does not itself count as activity; the button posts
 * /api/auth/session/extend, which does. Every other API call also keeps the session alive, so the
 * expiry is read again every POLL_INTERVAL_MS rather than assumed.
 */
import { lazy, Suspense, useEffect, useState } from "react";
import { offerStaySignedIn, type SessionExpiry } from "../../../domain/session_expiry.ts";
import { apiJson } from "../../lib/api.ts";
import { showToast } from "../../lib/toast.ts";
import { redirectToLogin } from "../../lib/unauthorized.ts";

// The dialog (and the dialog library) loads only when the offer is due, not with every screen.
const StaySignedInDialog = lazy(() => import("./stay_signed_in_dialog.tsx"));

const POLL_INTERVAL_MS = 30_000;
const TICK_MS = 1_000;

interface SessionStatus {
  expiresAt: string;
  absoluteExpiresAt: string;
}

const toExpiry = (status: SessionStatus): SessionExpiry => ({
  expiresAtMs: Date.parse(status.expiresAt),
  absoluteExpiresAtMs: Date.parse(status.absoluteExpiresAt),
});

export function StaySignedIn() {
  const [expiry, setExpiry] = useState<SessionExpiry | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [extending, setExtending] = useState(false);

  useEffect(() => {
    let cancelled = false;
    const poll = () =>
      apiJson<SessionStatus>("GET", "/api/auth/session")
        .then((status) => !cancelled && setExpiry(toExpiry(status)))
        .catch(() => {
          // Signed out or offline: the screen's own calls report that.
        });
    poll();
    const timer = setInterval(poll, POLL_INTERVAL_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, []);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    if (expiry && now >= Math.min(expiry.expiresAtMs, expiry.absoluteExpiresAtMs)) redirectToLogin(showToast);
  }, [expiry, now]);

  const open = expiry !== null && offerStaySignedIn(expiry, now);
  const stay = async () => {
    setExtending(true);
    try {
      setExpiry(toExpiry(await apiJson<SessionStatus>("POST", "/api/auth/session/extend", {})));
    } catch {
      redirectToLogin(showToast);
    } finally {
      setExtending(false);
    }
  };

  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <StaySignedInDialog expiry={expiry} now={now} extending={extending} onStay={stay} />
    </Suspense>
  );
}
