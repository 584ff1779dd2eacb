/**
 * Failed sign-in throttling, per account and per client address, stored in the database so every
 * app process on the same file sees the same counters.
 */
import { eq, inArray } from "drizzle-orm";
import { loginThrottle } from "../../../db/schema.ts";
import type { Queryable, Tx } from "../db.ts";

export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const LOCKOUT_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
export const addressKey = (ip: string) => `address:${ip}`;

/** The latest lock that is still in force on any of the keys, or null. */
export async function lockedUntil(db: Queryable, keys: string[], now = new Date()): Promise<string | null> {
  if (keys.length === 0) return null;
  const rows = await db.select({ lockedUntil: loginThrottle.lockedUntil }).from(loginThrottle)
    .where(inArray(loginThrottle.key, keys)).all();
  const active = rows.map((row) => row.lockedUntil).filter((until): until is string =>
    until !== null && Date.parse(until) > now.getTime()
  );
  return active.sort().at(-1) ?? null;
}

export async function recordFailure(tx: Tx, key: string, maxFailures: number, now = new Date()) {
  const row = await tx.select().from(loginThrottle).where(eq(loginThrottle.key, key)).get();
  const windowExpired = !row || now.getTime() - Date.parse(row.windowStartedAt) > THROTTLE_WINDOW_MS;
  const failures = windowExpired ? 1 : row.failures + 1;
  const windowStartedAt = windowExpired ? now.toISOString() : row.windowStartedAt;
  const locked = failures >= maxFailures ? new Date(now.getTime() + LOCKOUT_MS).toISOString() : null;
  await tx.insert(loginThrottle).values({ key, failures, windowStartedAt, lockedUntil: locked })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: { failures, windowStartedAt, lockedUntil: locked },
    });
}

export async function clearFailures(tx: Tx, key: string) {
  await tx.delete(loginThrottle).where(eq(loginThrottle.key, key));
}
