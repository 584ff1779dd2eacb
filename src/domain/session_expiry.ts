/** When the screen offers "Stay signed in": shortly before the idle timeout ends a session. */

/** How long before the idle timeout the offer appears. */
export const STAY_SIGNED_IN_NOTICE_MS = 2 * 60_000;

export interface SessionExpiry {
  expiresAtMs: number;
  absoluteExpiresAtMs: number;
}

/**
 * True within the notice period of an idle expiry that activity could still push back; at the
 * absolute end nothing can extend the session, so there is nothing to offer.
 */
export function offerStaySignedIn(expiry: SessionExpiry, nowMs: number): boolean {
  const left = expiry.expiresAtMs - nowMs;
  return left > 0 && left <= STAY_SIGNED_IN_NOTICE_MS && expiry.expiresAtMs < expiry.absoluteExpiresAtMs;
}

/** "m:ss" for a countdown. */
export function formatCountdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
