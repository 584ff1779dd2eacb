/**
 * How wrong second-factor codes are limited. A code is asked for only once the password is right, so
 * whoever sends codes knows the password, and the six digits are all that is left: guessing them is
 * bounded three ways on top of the back-off. A pending sign-in ends at its fifth wrong code (the
 * password is asked again); an account takes at most ten wrong codes an hour; and codes for one
 * account are judged one at a time: a code that reached the server before the previous wrong code
 * was judged is refused unjudged, so a burst of parallel codes gets a single guess.
 */

export const WRONG_CODES_PER_SIGN_IN = 5;
export const WRONG_CODES_PER_HOUR = 10;
export const WRONG_CODE_WINDOW_MS = 60 * 60_000;
/** Retry-After for a code refused because it was sent while another was being judged. */
export const PARALLEL_CODE_RETRY_MS = 1_000;

export interface CodeAttemptFacts {
  /** When the request reached the server, and when it is decided (fractions of a millisecond). */
  arrivedAtMs: number;
  nowMs: number;
  /** When a code for this account was last judged wrong, or null. */
  lastWrongCodeMs: number | null;
  wrongCodesThisSignIn: number;
  /** When the wrong codes counted against this browser's hourly limit were judged. */
  wrongCodesRecentMs: readonly number[];
  /** The back-off's next allowed attempt, or null when it allows one now. */
  backoffUntilMs: number | null;
}

export type CodeVerdict =
  | { kind: "judge" }
  /** The pending sign-in has had its wrong codes: the password must be entered again. */
  | { kind: "password_again" }
  | { kind: "wait"; reason: "hourly_limit" | "parallel" | "backoff"; untilMs: number };

export function codeVerdict(facts: CodeAttemptFacts): CodeVerdict {
  const { nowMs } = facts;
  if (facts.wrongCodesThisSignIn >= WRONG_CODES_PER_SIGN_IN) return { kind: "password_again" };
  const recent = facts.wrongCodesRecentMs.filter((ms) => nowMs - ms < WRONG_CODE_WINDOW_MS).sort((a, b) =>
    a - b
  );
  if (recent.length >= WRONG_CODES_PER_HOUR) {
    // The next code is judged once the oldest of the last ten is an hour old.
    const untilMs = recent[recent.length - WRONG_CODES_PER_HOUR] + WRONG_CODE_WINDOW_MS;
    return { kind: "wait", reason: "hourly_limit", untilMs };
  }
  if (facts.lastWrongCodeMs !== null && facts.lastWrongCodeMs > facts.arrivedAtMs) {
    const untilMs = Math.max(nowMs + PARALLEL_CODE_RETRY_MS, facts.backoffUntilMs ?? 0);
    return { kind: "wait", reason: "parallel", untilMs };
  }
  if (facts.backoffUntilMs !== null && facts.backoffUntilMs > nowMs) {
    return { kind: "wait", reason: "backoff", untilMs: facts.backoffUntilMs };
  }
  return { kind: "judge" };
}

/** Whether a pending sign-in with this many wrong codes (the one just judged included) ends. */
export const signInEndsAfter = (wrongCodesThisSignIn: number) =>
  wrongCodesThisSignIn >= WRONG_CODES_PER_SIGN_IN;

/** Whether the wrong code just judged is the one that reaches the hourly limit (administrators are told). */
export const reachesHourlyLimit = (wrongCodesRecent: number) => wrongCodesRecent === WRONG_CODES_PER_HOUR;
