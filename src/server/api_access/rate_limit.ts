/**
 * Hourly limits of the public API per key and documented endpoint (spec 7), with hono-rate-limiter
 * over the shared database counters of KeyUsageStore (RegionalKeyUsageStore on a regional node). Windows are clock hours (UTC); every
 * response to a key carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds
 * until the window ends, IETF draft 6), and a refusal adds Retry-After.
 */
import type { MiddlewareHandler } from "hono";
import { rateLimiter, type Store } from "hono-rate-limiter";
import { endpointId, RATE_LIMIT_WINDOW_MS } from "../../domain/public_api.ts";
import type { ApiAccessEnv } from "./env.ts";
import { usageBucket } from "./usage_store.ts";

export function limitKeyRequests(store: Store<ApiAccessEnv>): MiddlewareHandler<ApiAccessEnv> {
  const limiter = rateLimiter<ApiAccessEnv>({
    windowMs: RATE_LIMIT_WINDOW_MS,
    standardHeaders: "draft-6",
    store,
    keyGenerator: (c) => usageBucket(c.get("apiKeyId")!, endpointId(c.get("apiEndpoint")!)),
    limit: (c) => c.get("apiEndpoint")!.limitPerHour,
    handler: (c) => {
      const endpoint = c.get("apiEndpoint")!;
      return c.json({
        message: `Rate limit exceeded: ${endpoint.limitPerHour} requests per hour for ${
          endpointId(endpoint)
        }`,
        code: "rate_limited",
        limitPerHour: endpoint.limitPerHour,
      }, 429);
    },
  });
  // Session requests pass straight on: the limiter's own skip() costs them two awaits each.
  return (c, next) => c.get("apiKeyId") && c.get("apiEndpoint") ? limiter(c, next) : next();
}
