/**
 * Server-side sessions. The cookie holds a random token; the `sessions` row is keyed by its
 * SHA-256, so a copy of the database does not hand out live sessions. Sessions end after the idle
 * timeout, at their absolute lifetime however busy, on sign-out, when the row is deleted
 * (revocation, a new sign-in in the same browser), or when the user is disabled.
 */
import { createHash } from "node:crypto";
import { eq, lt, sql } from "drizzle-orm";
import { type SecondFactorStage, type SessionData, sessions } from "../../../db/schema.ts";
import { EpochCache, type Epochs } from "../db/change_epochs.ts";
import { effectiveIdleMinutes } from "../../domain/system_settings.ts";
import { readSystemSettings } from "../settings/system_settings.ts";
import { isRole } from "../../domain/access.ts";
import type { SessionUser } from "../http/context.ts";
import type { Database, Tx } from "../db/database.ts";
import type { Clock } from "../topology/clock.ts";

const TOKEN_BYTES = 32;
/** Time to give the second factor after the password; the pending session then ends. */
export const PENDING_SECOND_FACTOR_MS = 10 * 60_000;
/** Sliding expiry is written at most this often per session, not on every request. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(TOKEN_BYTES));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export interface SessionLifetime {
  idleMs: number;
  absoluteMs: number;
}

/** The host's lifetimes (SESSION_IDLE_MINUTES is the ceiling of the administrators' idle timeout). */
export type SessionLimits = { sessionIdleMinutes: number; sessionAbsoluteHours: number };

/**
 * The lifetime a session has now: the idle timeout of the System Settings, capped by the host's
 * SESSION_IDLE_MINUTES (effectiveIdleMinutes), and the host's absolute lifetime. A caller that has
 * just read the epochs passes them.
 */
export async function sessionLifetime(db: Database, limits: SessionLimits, epochs?: Epochs): Promise<SessionLifetime> {
  const settings = await readSystemSettings(db, epochs);
  return {
    idleMs: effectiveIdleMinutes(settings.sessionTimeout, limits.sessionIdleMinutes) * 60_000,
    absoluteMs: limits.sessionAbsoluteHours * 3_600_000,
  };
}

/** The idle expiry after activity at `nowMs`, never past the absolute end of the session. */
const expiryAfter = (lifetime: SessionLifetime, createdMs: number, nowMs: number) =>
  Math.min(nowMs + lifetime.idleMs, createdMs + lifetime.absoluteMs);

/** A new session row, its expiries counted from `nowMs` (the clock's time: topology/clock.ts). */
export async function createSession(
  tx: Tx,
  userId: string,
  lifetime: SessionLifetime,
  nowMs: number,
  meta: {
    ipAddress: string | null;
    userAgent: string | null;
    signedInWith?: "oidc";
    secondFactorDone?: SecondFactorStage;
  },
  secondFactor?: SecondFactorStage,
): Promise<{ token: string; sid: string }> {
  const token = newToken();
  const sid = hashToken(token);
  const sess: SessionData = {
    userId,
    createdAt: isoOf(nowMs),
    lastSeenAt: isoOf(nowMs),
    ipAddress: meta.ipAddress,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
    ...(secondFactor ? { secondFactor } : {}),
    ...(meta.signedInWith ? { signedInWith: meta.signedInWith } : {}),
    ...(meta.secondFactorDone ? { secondFactorDone: meta.secondFactorDone } : {}),
  };
  const idleExpiryMs = expiryAfter(lifetime, nowMs, nowMs);
  await tx.insert(sessions).values({
    sid,
    sess,
    userId,
    expire: isoOf(secondFactor ? Math.min(nowMs + PENDING_SECOND_FACTOR_MS, idleExpiryMs) : idleExpiryMs),
  });
  await tx.delete(sessions).where(lt(sessions.expire, isoOf(nowMs)));
  return { token, sid };
}

export interface ResolvedSession {
  sid: string;
  user: SessionUser;
  /** Set while the password is verified but the second factor is still owed. */
  secondFactor: SecondFactorStage | null;
  /** What the second factor asked at the sign-in that made this session, if anything. */
  secondFactorDone: SecondFactorStage | null;
  /** When the session ends if unused from now on, and when it ends regardless. */
  expiresAt: string;
  absoluteExpiresAt: string;
}

/** Signed-in sessions kept in memory by token; past this the oldest is forgotten (and re-read). */
export const MAX_CACHED_SESSIONS = 10_000;

/** The row query of a session not in memory (or no longer current there): one statement prepared once. */
const RESOLVE_SESSION_SQL =
  `SELECT s.sess, s.expire, u.id, u.email, u.first_name, u.last_name, u.profile_image_url, u.role,
    (SELECT group_concat(r.role) FROM user_roles r WHERE r.user_id = u.id) AS roles,
    coalesce(c.must_change_password, 0) AS must_change_password
  FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN user_credentials c ON c.user_id = u.id
  WHERE s.sid = ? AND s.expire > ? AND u.disabled_at IS NULL`;

/** The sliding expiry's write: one statement, in one batch (no round trip held open on a replica). */
const TOUCH_SESSION_SQL = "UPDATE sessions SET sess = ?, expire = ? WHERE sid = ?";

interface SessionRow {
  [column: string]: unknown;
  sess: string;
  expire: string;
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  role: string;
  roles: string | null;
  must_change_password: number;
}

interface LiveSession {
  resolved: ResolvedSession;
  sess: SessionData;
  lastSeenMs: number;
  expireMs: number;
}

/**
 * Runs on every signed-in request. A session read once is answered from memory while the auth epoch
 * (db/change_epochs.ts) has not moved and its expiry has not passed; the epoch is read after the
 * request arrived, so a sign-out, revocation or disabled user in any process applies to the very
 * next request. The cache is keyed by the token itself: hashing it costs more than the lookup, and
 * the process holds the token while it serves the request anyway.
 */
export class SessionResolver {
  readonly #db: Database;
  readonly #limits: SessionLimits;
  /** Every node reads and writes expiries on the primary's time scale, so they mean one instant. */
  readonly #clock: Pick<Clock, "now">;
  readonly #cache = new EpochCache<string, LiveSession>(MAX_CACHED_SESSIONS);

  constructor(db: Database, limits: SessionLimits, clock: Pick<Clock, "now">) {
    this.#db = db;
    this.#limits = limits;
    this.#clock = clock;
  }

  /**
   * The live session behind `token`. With `extend` false the request does not count as activity
   * (the screen asking how long is left must not itself keep the session alive); with "now" it
   * counts at once rather than at most once per SESSION_TOUCH_INTERVAL_MS ("Stay signed in").
   */
  async resolve(token: string, extend: boolean | "now" = true): Promise<ResolvedSession | null> {
    const epochs = await this.#db.epochs.fresh();
    const lifetime = await sessionLifetime(this.#db, this.#limits, epochs);
    const nowMs = this.#clock.now();
    let live = this.#cache.get(token, epochs.auth);
    if (live === undefined || nowMs >= live.expireMs) {
      live = await this.#read(token, nowMs, lifetime);
      if (live === undefined) {
        this.#cache.delete(token);
        return null;
      }
      this.#cache.set(token, live, epochs.auth);
    }
    // An idle timeout shortened since the last activity holds at once, not from the next one on.
    const idleEndMs = live.lastSeenMs + lifetime.idleMs;
    if (nowMs >= idleEndMs) {
      this.#cache.delete(token);
      return null;
    }
    const active = extend === "now" || (extend && nowMs - live.lastSeenMs >= SESSION_TOUCH_INTERVAL_MS);
    // A session still owing its second factor is not kept alive by the calls it is refused.
    if (active && live.resolved.secondFactor === null) {
      const touched = this.#touch(live, nowMs, lifetime);
      // On a replica the touch is a write over the WAN: the request does not wait for it, and a
      // primary that cannot be reached only leaves the session's expiry where it was.
      if (this.#db.writesLocal) await touched;
      else touched.catch(() => {});
    }
    return idleEndMs < live.expireMs ? { ...live.resolved, expiresAt: isoOf(idleEndMs) } : live.resolved;
  }

  async #read(token: string, nowMs: number, lifetime: SessionLifetime): Promise<LiveSession | undefined> {
    const sid = hashToken(token);
    const row = await this.#db.statements.get<SessionRow>(RESOLVE_SESSION_SQL, [sid, isoOf(nowMs)]);
    if (!row) return undefined;
    const sess = JSON.parse(row.sess) as SessionData;
    const absoluteEndMs = Date.parse(sess.createdAt) + lifetime.absoluteMs;
    // The row's expiry never passes the absolute end, but a lifetime shortened since sign-in must hold too.
    if (!(absoluteEndMs > nowMs)) return undefined;
    const expireMs = Math.min(Date.parse(row.expire), absoluteEndMs);
    return {
      resolved: {
        sid,
        secondFactor: sess.secondFactor ?? null,
        secondFactorDone: sess.secondFactorDone ?? null,
        expiresAt: isoOf(expireMs),
        absoluteExpiresAt: isoOf(absoluteEndMs),
        user: {
          id: row.id,
          email: row.email,
          firstName: row.first_name,
          lastName: row.last_name,
          profileImageUrl: row.profile_image_url,
          role: row.role === "operator" ? "operator" : "admin",
          roles: (row.roles ?? "").split(",").filter(isRole),
          // A provider sign-in never asks for the local password, so its pending change does not hold it back.
          mustChangePassword: row.must_change_password === 1 && sess.signedInWith !== "oidc",
        },
      },
      sess,
      lastSeenMs: Date.parse(sess.lastSeenAt),
      expireMs,
    };
  }

  /** Sliding expiry up to the absolute end, written at most once per SESSION_TOUCH_INTERVAL_MS unless asked. */
  async #touch(live: LiveSession, nowMs: number, lifetime: SessionLifetime): Promise<void> {
    const sess: SessionData = { ...live.sess, lastSeenAt: isoOf(nowMs) };
    const expireMs = expiryAfter(lifetime, Date.parse(live.sess.createdAt), nowMs);
    await this.#db.writeBatch([{ sql: TOUCH_SESSION_SQL, args: [JSON.stringify(sess), isoOf(expireMs), live.resolved.sid] }]);
    live.sess = sess;
    live.lastSeenMs = nowMs;
    live.expireMs = expireMs;
    live.resolved = { ...live.resolved, expiresAt: isoOf(expireMs) };
  }
}

const isoOf = (ms: number) => new Date(ms).toISOString();

export async function destroySession(tx: Tx, sid: string): Promise<string | null> {
  const row = await tx.delete(sessions).where(eq(sessions.sid, sid)).returning({ userId: sessions.userId })
    .get();
  return row?.userId ?? null;
}

export async function countSessions(db: Database): Promise<number> {
  const row = await db.read.get<{ n: number }>(sql`SELECT count(*) AS n FROM sessions`);
  return row?.n ?? 0;
}
