/**
 * Failed sign-in back-off (src/domain/sign_in_throttle.ts), per account, client address and known
 * browser, stored in the database so every app process on the same file sees the same counters. In
 * a row of `login_throttle`, `window_started_at` holds the time of the last failure, `locked_until`
 * when the next attempt is allowed (kept for inspection; the rule recomputes it) and
 * `ticket_used_at` when a waiting ticket last went through the key's wait.
 *
 * A password attempt is let through inside a write transaction, which every process takes in turn,
 * and counted there as a failure before the password is checked, so two attempts never pass through
 * one gap. A refusal is first found on the read connection: a flood of refused attempts never queues
 * for the write lock. Every time here is the app's clock (topology/clock.ts), passed in, so that
 * failures counted through any node of a replicated topology share the primary's time scale.
 */
import { eq, inArray } from "drizzle-orm";
import { loginThrottle } from "../../../db/schema.ts";
import {
  ACCOUNT_BACKOFF,
  ADDRESS_BACKOFF,
  afterFailure,
  afterRightPassword,
  backoffDelayMs,
  type BackoffRule,
  type BackoffState,
  currentFailures,
  decideAttempt,
  type KeyState,
  nextAttemptAtMs,
  type WaitTicket,
} from "../../domain/sign_in_throttle.ts";
import type { Database, Queryable, Tx } from "../db/database.ts";

export interface ThrottleKey {
  key: string;
  rule: BackoffRule;
}

export const accountKey = (email: string): ThrottleKey => ({
  key: `account:${email.trim().toLowerCase()}`,
  rule: ACCOUNT_BACKOFF,
});
/** A browser the account's owner signed in from before (device_cookie.ts): counted apart from the account. */
export const deviceKey = (deviceId: string): ThrottleKey => ({
  key: `device:${deviceId}`,
  rule: ACCOUNT_BACKOFF,
});
export const addressKey = (ip: string): ThrottleKey => ({ key: `address:${ip}`, rule: ADDRESS_BACKOFF });
/** Wrong second-factor codes from browsers that never signed in as the user: apart from the password's keys. */
export const secondFactorKey = (userId: string): ThrottleKey => ({
  key: `second-factor:${userId}`,
  rule: ACCOUNT_BACKOFF,
});

/** Refused until `untilMs`; with `newTicketFromMs`, the browser is given a ticket valid from then. */
export interface Refusal {
  untilMs: number;
  newTicketFromMs: number | null;
}

const isoOf = (ms: number) => new Date(ms).toISOString();

const stateOf = (row: typeof loginThrottle.$inferSelect): BackoffState => ({
  failures: row.failures,
  lastFailureMs: Date.parse(row.windowStartedAt),
  ticketUsedMs: row.ticketUsedAt === null ? null : Date.parse(row.ticketUsedAt),
});

/** The keys' states, in the order given (null for a key with no row). */
export async function readKeyStates(db: Queryable, keys: readonly ThrottleKey[]): Promise<KeyState[]> {
  if (keys.length === 0) return [];
  const rows = await db.select().from(loginThrottle).where(inArray(loginThrottle.key, keys.map((k) => k.key)))
    .all();
  return keys.map(({ key, rule }) => {
    const row = rows.find((candidate) => candidate.key === key);
    return { rule, state: row ? stateOf(row) : null };
  });
}

async function writeState(tx: Tx, { key, rule }: ThrottleKey, state: BackoffState) {
  const values = {
    failures: state.failures,
    windowStartedAt: isoOf(state.lastFailureMs),
    lockedUntil: isoOf(state.lastFailureMs + backoffDelayMs(rule, state.failures)),
    ticketUsedAt: state.ticketUsedMs === null ? null : isoOf(state.ticketUsedMs),
  };
  await tx.insert(loginThrottle).values({ key, ...values })
    .onConflictDoUpdate({ target: loginThrottle.key, set: values });
}

/**
 * Lets a password attempt through the keys' back-off, counting it as a failure until
 * `handBackFailure` says the password was right; or says until when it is refused.
 */
export async function admitAttempt(
  db: Database,
  keys: readonly ThrottleKey[],
  ticket: WaitTicket | null,
  clock: () => number,
): Promise<Refusal | null> {
  const seen = decideAttempt(await readKeyStates(db.read, keys), ticket, clock());
  if (!seen.allowed) return { untilMs: seen.untilMs, newTicketFromMs: seen.newTicketFromMs };
  return await db.transaction(async (tx) => {
    const decision = decideAttempt(await readKeyStates(tx, keys), ticket, clock());
    if (!decision.allowed) return { untilMs: decision.untilMs, newTicketFromMs: decision.newTicketFromMs };
    for (const [i, key] of keys.entries()) await writeState(tx, key, decision.states[i]);
    return null;
  });
}

/** The password let through by `admitAttempt` was right: the failure it was counted as is handed back. */
export async function handBackFailure(tx: Tx, keys: readonly ThrottleKey[], nowMs: number) {
  const states = await readKeyStates(tx, keys);
  for (const [i, key] of keys.entries()) {
    const { state } = states[i];
    if (state) await writeState(tx, key, afterRightPassword(key.rule, state, nowMs));
  }
}

/** Failures in a row on the key as of `nowMs`. */
export async function failuresInARow(db: Queryable, key: ThrottleKey, nowMs: number): Promise<number> {
  const [{ state }] = await readKeyStates(db, [key]);
  return currentFailures(key.rule, state, nowMs);
}

/** When the key next allows an attempt, or null when it allows one now. */
export async function backoffUntilMs(
  db: Queryable,
  key: ThrottleKey,
  nowMs: number,
): Promise<number | null> {
  const [{ state }] = await readKeyStates(db, [key]);
  return nextAttemptAtMs(key.rule, state, nowMs);
}

export async function recordFailure(tx: Tx, key: ThrottleKey, nowMs: number) {
  const [{ state }] = await readKeyStates(tx, [key]);
  await writeState(tx, key, afterFailure(key.rule, state, nowMs));
}

export async function clearFailures(tx: Tx, { key }: ThrottleKey) {
  await tx.delete(loginThrottle).where(eq(loginThrottle.key, key));
}
