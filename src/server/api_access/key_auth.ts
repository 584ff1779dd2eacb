/**
 * Authentication by API key: `Authorization: Bearer <key>` admits a caller to the documented
 * endpoints only. Unknown, revoked and expired keys answer 401; a live key on any other route 403.
 * A request that presents a key is judged by the key alone, never by a session cookie riding along.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { SYSTEM_USER_ID } from "../../../db/schema.ts";
import { type DocumentedEndpoint, findDocumentedEndpoint } from "../../domain/public_api.ts";
import type { SessionUser } from "../http/context.ts";
import { AppError } from "../http/errors.ts";
import type { ApiAccessEnv } from "./env.ts";
import { type ApiKeyIdentity, type ApiKeyResolver, bearerToken } from "./keys.ts";

export const keyUnauthorized = () => new AppError("unauthorized", "Unauthorized");

/** The documented endpoint of the route Hono will dispatch this request to, if it is one. */
export function documentedEndpointOf(c: Context): DocumentedEndpoint | undefined {
  const method = c.req.method === "HEAD" ? "GET" : c.req.method;
  // Middleware is registered for ALL methods; the first route of the request's own method answers.
  const route = matchedRoutes(c).find((candidate) => candidate.method === method);
  return route ? findDocumentedEndpoint(method, route.path) : undefined;
}

/**
 * The user a key acts as. Handlers of the documented endpoints only read, but anything recorded on
 * a key's behalf is attributed to the administrator who created the key; the auditor role alone
 * keeps every route that changes something closed to keys.
 */
function keyUser(identity: ApiKeyIdentity): SessionUser {
  return {
    id: identity.createdBy ?? SYSTEM_USER_ID,
    email: `api-key:${identity.keyPrefix}`,
    firstName: identity.name,
    lastName: null,
    profileImageUrl: null,
    role: "operator",
    roles: ["auditor"],
    mustChangePassword: false,
  };
}

export function authenticateApiKeys(resolver: ApiKeyResolver): MiddlewareHandler<ApiAccessEnv> {
  return async (c, next) => {
    const token = bearerToken(c.req.header("authorization"));
    if (token === undefined) return next();
    const identity = await resolver.resolve(token);
    if (!identity) throw keyUnauthorized();
    const endpoint = documentedEndpointOf(c);
    if (!endpoint) {
      // The cached identity does not prove the key is still live: a revoked key gets 401, not 403.
      if (!(await resolver.isLive(identity.id))) throw keyUnauthorized();
      // Recorded for the request log: which key tried a route it may not call.
      c.set("apiKeyId", identity.id);
      throw new AppError("forbidden", "API keys can only call the documented endpoints");
    }
    c.set("user", keyUser(identity));
    c.set("sessionId", null);
    c.set("apiKeyId", identity.id);
    c.set("apiEndpoint", endpoint);
    c.set("apiKeyLimitPerHour", identity.limitPerHour);
    await next();
  };
}
