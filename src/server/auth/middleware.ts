import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { AppDeps, AppEnv } from "../context.ts";
import { SESSION_COOKIE, SessionResolver } from "./sessions.ts";

export const UNAUTHORIZED_BODY = { message: "Unauthorized" } as const;

export function unauthorized(c: Context) {
  return c.json(UNAUTHORIZED_BODY, 401);
}

/**
 * Signs the request in from its session cookie, or answers 401 `{"message":"Unauthorized"}`.
 * A caller already signed in by an API key (src/server/api_access, documented endpoints only)
 * passes; a request that presents `Authorization: Bearer` is never signed in by a cookie instead.
 */
export function requireSession(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const sessions = new SessionResolver(deps.db, deps.config.sessionIdleMinutes);
  return async (c, next) => {
    if (c.get("user")) return next();
    if (/^Bearer\b/i.test(c.req.header("authorization") ?? "")) return unauthorized(c);
    const token = getCookie(c, SESSION_COOKIE);
    if (!token) return unauthorized(c);
    const session = await sessions.resolve(token);
    if (!session) return unauthorized(c);
    c.set("user", session.user);
    c.set("sessionId", session.sid);
    c.set("apiKeyId", null);
    return next();
  };
}
