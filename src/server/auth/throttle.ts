/**
 * Failed sign-in back-off (src/domain/sign_in_throttle.ts), per account and per client address,
 * stored in the database so every app process on the same file sees the same counters. In a row of
 * `login_throttle`, `window_started_at` holds the time of the last failure and `locked_until` when
 * the next attempt is allowed (kept for inspection; the rule recomputes it).
 */
import { eq, inArray } from "drizzle-orm";
import { loginThrottle } from "../../../db/schema.ts";
import {
  ACCOUNT_BACKOFF,
  ADDRESS_BACKOFF,
  afterFailure,
  backoffDelayMs,
  type BackoffRule,
  type BackoffState,
  nextAttemptAtMs,
} from "../../domain/sign_in_throttle.ts";
import type { Queryable, Tx } from "../db/database.ts";

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

const stateOf = (row: { failures: number; windowStartedAt: string }): BackoffState => ({
  failures: row.failures,
  lastFailureMs: Date.parse(row.windowStartedAt),
});

/** The latest time any of the keys allows its next attempt, or null when all allow one now. */
export async function throttledUntilMs(
  db: Queryable,
  keys: ThrottleKey[],
  nowMs = Date.now(),
): Promise<number | null> {
  if (keys.length === 0) return null;
  const rows = await db.select().from(loginThrottle).where(inArray(loginThrottle.key, keys.map((k) => k.key)))
    .all();
  let until: number | null = null;
  for (const { key, rule } of keys) {
    const row = rows.find((candidate) => candidate.key === key);
    const at = row ? nextAttemptAtMs(rule, stateOf(row), nowMs) : null;
    if (at !== null && (until === null || at > until)) until = at;
  }
  return until;
}

export async function recordFailure(tx: Tx, { key, rule }: ThrottleKey, nowMs = Date.now()) {
  const row = await tx.select().from(loginThrottle).where(eq(loginThrottle.key, key)).get();
  const next = afterFailure(rule, row ? stateOf(row) : null, nowMs);
  const values = {
    failures: next.failures,
    windowStartedAt: new Date(nowMs).toISOString(),
    lockedUntil: new Date(nowMs + backoffDelayMs(rule, next.failures)).toISOString(),
  };
  await tx.insert(loginThrottle).values({ key, ...values })
    .onConflictDoUpdate({ target: loginThrottle.key, set: values });
}

export async function clearFailures(tx: Tx, { key }: ThrottleKey) {
  await tx.delete(loginThrottle).where(eq(loginThrottle.key, key));
}
