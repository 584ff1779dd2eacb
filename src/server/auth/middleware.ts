import type { Context, MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "../http/context.ts";
import { AppError } from "../http/errors.ts";
import { readSessionToken } from "./session_cookie.ts";
import { SessionResolver } from "./sessions.ts";

export const UNAUTHORIZED_BODY = { message: "Unauthorized" } as const;

export function unauthorized(c: Context) {
  return c.json(UNAUTHORIZED_BODY, 401);
}

const resolvers = new WeakMap<AppDeps, SessionResolver>();

/** One resolver (and so one session cache) per app, shared by the guard and the sign-in routes. */
export function sessionResolver(deps: AppDeps): SessionResolver {
  let resolver = resolvers.get(deps);
  if (!resolver) {
    resolver = new SessionResolver(deps.db, deps.config, deps.clock);
    resolvers.set(deps, resolver);
  }
  return resolver;
}

/** Reading how long the session has left is not activity; "Stay signed in" is, at once. */
const SESSION_STATUS_PATH = "/api/auth/session";
const STAY_SIGNED_IN_PATH = "/api/auth/session/extend";

const SECOND_FACTOR_NEEDED = {
  verify:
    "A second factor is required: enter the code from your authenticator app at /api/login/second-factor",
  enrol: "A second factor is required: enrol an authenticator app at /api/login/second-factor",
} as const;

/**
 * Signs the request in from its session cookie, or answers 401 `{"message":"Unauthorized"}`.
 * A caller already signed in by an API key (src/server/api_access, documented endpoints only)
 * passes; a request that presents `Authorization: Bearer` is never signed in by a cookie instead.
 * A session that still owes its second factor answers 403 naming it, on every call.
 */
export function requireSession(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const sessions = sessionResolver(deps);
  return async (c, next) => {
    if (c.get("user")) return next();
    if (/^Bearer\b/i.test(c.req.header("authorization") ?? "")) return unauthorized(c);
    const token = readSessionToken(c, deps.config);
    if (!token) return unauthorized(c);
    const extend = c.req.path === STAY_SIGNED_IN_PATH ? "now" : c.req.path !== SESSION_STATUS_PATH;
    const session = await sessions.resolve(token, extend);
    if (!session) return unauthorized(c);
    if (session.secondFactor) {
      throw new AppError("forbidden", SECOND_FACTOR_NEEDED[session.secondFactor], {
        extra: { needed: session.secondFactor === "enrol" ? "second_factor_enrolment" : "second_factor" },
      });
    }
    c.set("user", session.user);
    c.set("sessionId", session.sid);
    c.set("apiKeyId", null);
    return next();
  };
}
