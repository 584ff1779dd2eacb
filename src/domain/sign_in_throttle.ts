/**
 * Exponential back-off for failed sign-ins, without lock-out, and the waiting ticket that bounds how
 * long other people's failures can keep an account's owner out.
 *
 * Each key (an account, a client address, a browser that signed in before) keeps a count of failures
 * in a row; after a few free failures every further one doubles the wait before the next attempt, up
 * to a cap. An attempt counts as a failure the moment it is let through, before its password is
 * checked, and the count is handed back when the password is right: so parallel attempts cannot all
 * slip through one gap.
 *
 * The cap alone bounds nothing for the owner: whoever asks first once a wait ends is judged, and a
 * guesser sending every 250 ms always asks before an owner who comes back after Retry-After, so each
 * of the guesser's failures starts a new wait under the owner's feet. Hence the ticket: a browser
 * refused during a wait is given one, valid from the end of that wait, and with it the browser is let
 * through however the wait has moved since, as long as no ticket went through the same key in the
 * last 30 s. Guessing stays bounded (one attempt when each wait ends, one more per 30 s on a ticket),
 * and an owner is held back at most once, unless someone else spends the key's ticket turn first.
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

/** A key lets at most one attempt on a ticket through its wait in this long. */
export const TICKET_INTERVAL_MS = 30_000;
/** A ticket is good for this long once valid; a browser coming back later is given a new one. */
export const TICKET_LIFETIME_MS = 15 * 60_000;

/** Failures in a row on an account at which administrators are told it is under attack. */
export const ATTACK_ALERT_FAILURES = 10;
/** An account is reported under attack at most once in this long (per factor). */
export const ATTACK_ALERT_WINDOW_MS = 60 * 60_000;

export interface BackoffState {
  failures: number;
  lastFailureMs: number;
  /** When a ticket last let an attempt through this key's wait, or null. */
  ticketUsedMs: number | null;
}

/** What a waiting browser holds: the time its wait ended when it was refused. */
export interface WaitTicket {
  validFromMs: number;
}

export interface KeyState {
  rule: BackoffRule;
  state: BackoffState | null;
}

export type AttemptDecision =
  /** Let through: the keys' states with the attempt counted as a failure, in the order given. */
  | { allowed: true; states: BackoffState[] }
  /** Refused until `untilMs`; `newTicketFromMs` set when the browser is to be given a ticket. */
  | { allowed: false; untilMs: number; newTicketFromMs: number | null };

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
  return {
    failures: currentFailures(rule, state, nowMs) + 1,
    lastFailureMs: nowMs,
    ticketUsedMs: state?.ticketUsedMs ?? null,
  };
}

/** The state once an attempt counted when let through turned out right: its failure handed back. */
export function afterRightPassword(rule: BackoffRule, state: BackoffState, nowMs: number): BackoffState {
  return { ...state, failures: Math.max(0, currentFailures(rule, state, nowMs) - 1) };
}

export function ticketUsable(ticket: WaitTicket, nowMs: number): boolean {
  return ticket.validFromMs <= nowMs && nowMs < ticket.validFromMs + TICKET_LIFETIME_MS;
}

/**
 * Whether an attempt is let through now. It is when every key allows one, each either not waiting
 * or, for a browser holding a usable ticket, with no ticket through that key in the last 30 s. A
 * refused browser without a usable ticket is given one, valid when the longest wait ends.
 */
export function decideAttempt(
  keys: readonly KeyState[],
  ticket: WaitTicket | null,
  nowMs: number,
): AttemptDecision {
  const waits = keys.map(({ rule, state }) => nextAttemptAtMs(rule, state, nowMs));
  const usable = ticket !== null && ticketUsable(ticket, nowMs);
  const passAt = keys.map(({ state }, i) => {
    const wait = waits[i];
    if (wait === null) return nowMs;
    const ticketUsedMs = state?.ticketUsedMs ?? null;
    if (!usable) return wait;
    if (ticketUsedMs === null || nowMs - ticketUsedMs >= TICKET_INTERVAL_MS) return nowMs;
    return Math.min(wait, ticketUsedMs + TICKET_INTERVAL_MS);
  });
  const untilMs = Math.max(nowMs, ...passAt);
  if (untilMs === nowMs) {
    const states = keys.map(({ rule, state }, i) => {
      const counted = afterFailure(rule, state, nowMs);
      return waits[i] === null ? counted : { ...counted, ticketUsedMs: nowMs };
    });
    return { allowed: true, states };
  }
  if (usable) return { allowed: false, untilMs, newTicketFromMs: null };
  // A ticket not valid yet keeps its promise: the browser is told to come back when it becomes valid.
  const pending = ticket !== null && ticket.validFromMs > nowMs;
  if (pending) return { allowed: false, untilMs: ticket.validFromMs, newTicketFromMs: null };
  return { allowed: false, untilMs, newTicketFromMs: untilMs };
}

/** Retry-After in whole seconds, never 0 (a client reading 0 would retry at once and be refused again). */
export function retryAfterSeconds(untilMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
}
