/**
 * Server-side sessions. The cookie holds a random token; the `sessions` row is keyed by its
 * SHA-256, so a copy of the database does not hand out live sessions. Sessions end after the idle
 * timeout, on sign-out, when the row is deleted (revocation), or when the user is disabled.
 */
import { createHash } from "node:crypto";
import { eq, lt, sql } from "drizzle-orm";
import { type SessionData, sessions } from "../../../db/schema.ts";
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

/**
 * Runs on every signed-in request, so it is one statement prepared once, read afresh each time:
 * a sign-out, revocation or disabled user in any process applies to the very next request.
 */
const RESOLVE_SESSION_SQL =
  `SELECT s.sess, u.id, u.email, u.first_name, u.last_name, u.profile_image_url, u.role
  FROM sessions s JOIN users u ON u.id = s.user_id
  WHERE s.sid = ? AND s.expire > ? AND u.disabled_at IS NULL`;

interface SessionRow {
  [column: string]: unknown;
  sess: string;
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  role: string;
}

export async function resolveSession(
  db: Database,
  token: string,
  idleMinutes: number,
): Promise<ResolvedSession | null> {
  const sid = hashToken(token);
  const now = new Date();
  const row = await db.statements.get<SessionRow>(RESOLVE_SESSION_SQL, [sid, now.toISOString()]);
  if (!row) return null;
  const sess = JSON.parse(row.sess) as SessionData;
  if (now.getTime() - Date.parse(sess.lastSeenAt) >= SESSION_TOUCH_INTERVAL_MS) {
    await db.transaction((tx) =>
      tx.update(sessions).set({
        sess: { ...sess, lastSeenAt: now.toISOString() },
        expire: new Date(now.getTime() + idleMinutes * 60_000).toISOString(),
      }).where(eq(sessions.sid, sid))
    );
  }
  return {
    sid,
    user: {
      id: row.id,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      profileImageUrl: row.profile_image_url,
      role: row.role === "operator" ? "operator" : "admin",
    },
  };
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
