/**
 * Server-side sessions. The cookie holds a random token; the `sessions` row is keyed by its
 * SHA-256, so a copy of the database does not hand out live sessions. Sessions end after the idle
 * timeout, on sign-out, when the row is deleted (revocation), or when the user is disabled.
 */
import { createHash } from "node:crypto";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { type SessionData, sessions, users } from "../../../db/schema.ts";
import type { SessionUser } from "../context.ts";
import type { Database, Tx } from "../db.ts";

export const SESSION_COOKIE = "cbr_session";
const TOKEN_BYTES = 32;
/** Sliding expiry is written at most this often per session, not on every request. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(TOKEN_BYTES));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export async function createSession(
  tx: Tx,
  userId: string,
  idleMinutes: number,
  meta: { ipAddress: string | null; userAgent: string | null },
): Promise<{ token: string; sid: string }> {
  const token = newToken();
  const sid = hashToken(token);
  const now = new Date();
  const sess: SessionData = {
    userId,
    createdAt: now.toISOString(),
    lastSeenAt: now.toISOString(),
    ipAddress: meta.ipAddress,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
  };
  await tx.insert(sessions).values({
    sid,
    sess,
    userId,
    expire: new Date(now.getTime() + idleMinutes * 60_000).toISOString(),
  });
  await tx.delete(sessions).where(lt(sessions.expire, now.toISOString()));
  return { token, sid };
}

export interface ResolvedSession {
  sid: string;
  user: SessionUser;
}

export async function resolveSession(
  db: Database,
  token: string,
  idleMinutes: number,
): Promise<ResolvedSession | null> {
  const sid = hashToken(token);
  const now = new Date();
  const row = await db.read.select({
    sid: sessions.sid,
    sess: sessions.sess,
    id: users.id,
    email: users.email,
    firstName: users.firstName,
    lastName: users.lastName,
    profileImageUrl: users.profileImageUrl,
    role: users.role,
  }).from(sessions).innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.sid, sid), gt(sessions.expire, now.toISOString()), isNull(users.disabledAt)))
    .get();
  if (!row) return null;
  if (now.getTime() - Date.parse(row.sess.lastSeenAt) >= SESSION_TOUCH_INTERVAL_MS) {
    const sess = { ...row.sess, lastSeenAt: now.toISOString() };
    await db.transaction((tx) =>
      tx.update(sessions).set({
        sess,
        expire: new Date(now.getTime() + idleMinutes * 60_000).toISOString(),
      }).where(eq(sessions.sid, sid))
    );
  }
  const { sid: _sid, sess: _sess, ...user } = row;
  return { sid, user };
}

export async function destroySession(tx: Tx, sid: string): Promise<string | null> {
  const row = await tx.delete(sessions).where(eq(sessions.sid, sid)).returning({ userId: sessions.userId })
    .get();
  return row?.userId ?? null;
}

export async function countSessions(db: Database): Promise<number> {
  const row = await db.read.get<{ n: number }>(sql`SELECT count(*) AS n FROM sessions`);
  return row?.n ?? 0;
}
