/**
 * Exponential back-off for failed sign-ins, without lock-out. Each key (an account, a client
 * address) keeps a count of failures in a row; after a few free failures every further one doubles
 * the wait before the next attempt, up to a cap. The cap is what bounds how long the real user can
 * be kept out by someone else's failures: attempts refused while waiting are not failures, so a
 * flood of them neither extends the wait nor raises the count beyond what the cap allows.
 */

export interface BackoffRule {
  /** Failures in a row answered with no wait at all. */
  freeFailures: number;
  /** The wait after the first failure past the free ones; doubled by each further failure. */
  firstDelayMs: number;
  /** No wait is ever longer than this. */
  maxDelayMs: number;
  /** A count untouched for this long starts again from zero. */
  forgetAfterMs: number;
}

/** Per account: three free tries (typos), then 1 s, 2 s, 4 s … capped at 30 s. */
export const ACCOUNT_BACKOFF: BackoffRule = {
  freeFailures: 3,
  firstDelayMs: 1_000,
  maxDelayMs: 30_000,
  forgetAfterMs: 15 * 60_000,
};

/** Per client address: ten free tries (several people behind one address), then the same doubling. */
export const ADDRESS_BACKOFF: BackoffRule = {
  freeFailures: 10,
  firstDelayMs: 1_000,
  maxDelayMs: 30_000,
  forgetAfterMs: 15 * 60_000,
};

export interface BackoffState {
  failures: number;
  lastFailureMs: number;
}

/** The wait that `failures` failures in a row impose after the last of them. */
export function backoffDelayMs(rule: BackoffRule, failures: number): number {
  const past = failures - rule.freeFailures;
  if (past <= 0) return 0;
  // 2^30 already exceeds any cap in milliseconds; bounding the exponent keeps the number finite.
  return Math.min(rule.maxDelayMs, rule.firstDelayMs * 2 ** Math.min(past - 1, 30));
}

/** The count to carry on from at `nowMs`: zero once the last failure is old enough to forget. */
export function currentFailures(rule: BackoffRule, state: BackoffState | null, nowMs: number): number {
  if (!state) return 0;
  return nowMs - state.lastFailureMs >= rule.forgetAfterMs ? 0 : state.failures;
}

/** When the next attempt is allowed, or null when it is allowed now. */
export function nextAttemptAtMs(rule: BackoffRule, state: BackoffState | null, nowMs: number): number | null {
  if (!state) return null;
  const at = state.lastFailureMs + backoffDelayMs(rule, currentFailures(rule, state, nowMs));
  return at > nowMs ? at : null;
}

/** The state after one more failure at `nowMs`. */
export function afterFailure(rule: BackoffRule, state: BackoffState | null, nowMs: number): BackoffState {
  return { failures: currentFailures(rule, state, nowMs) + 1, lastFailureMs: nowMs };
}

/** Retry-After in whole seconds, never 0 (a client reading 0 would retry at once and be refused again). */
export function retryAfterSeconds(untilMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
}
