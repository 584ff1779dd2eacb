/**
 * Session revocation: a user lists and ends their own sessions; an administrator any user's.
 * Ending a session deletes its row, so the next request with that cookie answers 401. And the
 * current session's expiry, which the screen reads to offer "Stay signed in" before it lapses.
 */
import { type Context, Hono } from "hono";
import { desc, eq, gt } from "drizzle-orm";
import { z } from "zod";
import { sessions, users } from "../../../db/schema.ts";
import { sessionLifetime } from "./sessions.ts";
import { recordAudit } from "../audit/trail.ts";
import { actorOf, type AppDeps, type AppEnv } from "../http/context.ts";
import { AppError, notFound } from "../http/errors.ts";
import { validate } from "../http/validation.ts";
import { sessionResolver } from "./middleware.ts";
import { readSessionToken } from "./session_cookie.ts";

const MAX_SESSIONS_LISTED = 500;
const sidParam = z.object({ sid: z.string().regex(/^[0-9a-f]{64}$/, "Invalid session id") });

export function sessionRoutes(deps: AppDeps) {
  const { db, config } = deps;
  const app = new Hono<AppEnv>();
  const resolver = sessionResolver(deps);

  /** The guard (middleware.ts) does not count GET as activity and counts the POST at once. */
  const expiry = async (c: Context<AppEnv>) => {
    const token = readSessionToken(c, config);
    const session = token && c.get("sessionId") ? await resolver.resolve(token, false) : null;
    if (!session) throw new AppError("forbidden", "Only a signed-in browser session has an expiry");
    return c.json({
      expiresAt: session.expiresAt,
      absoluteExpiresAt: session.absoluteExpiresAt,
      idleTimeoutMinutes: (await sessionLifetime(db, config)).idleMs / 60_000,
    });
  };
  app.get("/auth/session", expiry);
  app.post("/auth/session/extend", expiry);

  app.get("/sessions", async (c) => {
    const user = c.get("user");
    const query = db.read.select({
      sid: sessions.sid,
      userId: sessions.userId,
      email: users.email,
      sess: sessions.sess,
      expire: sessions.expire,
    }).from(sessions).innerJoin(users, eq(users.id, sessions.userId));
    const rows = await (user.roles.includes("administrator")
      ? query.where(gt(sessions.expire, new Date(deps.clock.now()).toISOString()))
      : query.where(eq(sessions.userId, user.id)))
      .orderBy(desc(sessions.expire)).limit(MAX_SESSIONS_LISTED).all();
    return c.json(rows.map((row) => ({
      id: row.sid,
      userId: row.userId,
      email: row.email,
      createdAt: row.sess.createdAt,
      lastSeenAt: row.sess.lastSeenAt,
      ipAddress: row.sess.ipAddress,
      userAgent: row.sess.userAgent,
      expire: row.expire,
      current: row.sid === c.get("sessionId"),
    })));
  });

  app.delete("/sessions/:sid", validate("param", sidParam), async (c) => {
    const user = c.get("user");
    const { sid } = c.req.valid("param");
    await db.transaction(async (tx) => {
      const session = await tx.select({ userId: sessions.userId }).from(sessions).where(eq(sessions.sid, sid)).get();
      if (!session) throw notFound("Session");
      if (session.userId !== user.id && !user.roles.includes("administrator")) {
        throw new AppError("forbidden", "Only an administrator can end another user's session");
      }
      await tx.delete(sessions).where(eq(sessions.sid, sid));
      await recordAudit(tx, actorOf(c, config), {
        entityType: "session",
        entityId: session.userId,
        action: "revoke",
        changes: { before: { sessionOf: session.userId } },
      });
    });
    return c.body(null, 204);
  });

  return app;
}
