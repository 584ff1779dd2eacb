import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { AppDeps, AppEnv } from "../context.ts";
import { resolveSession, SESSION_COOKIE } from "./sessions.ts";

export const UNAUTHORIZED_BODY = { message: "Unauthorized" } as const;

export function unauthorized(c: Context) {
  return c.json(UNAUTHORIZED_BODY, 401);
}

/** Signs the request in from its session cookie, or answers 401 `{"message":"Unauthorized"}`. */
export function requireSession(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get("user")) return next();
    const token = getCookie(c, SESSION_COOKIE);
    if (!token) return unauthorized(c);
    const session = await resolveSession(deps.db, token, deps.config.sessionIdleMinutes);
    if (!session) return unauthorized(c);
    c.set("user", session.user);
    c.set("sessionId", session.sid);
    c.set("apiKeyId", null);
    return next();
  };
}
