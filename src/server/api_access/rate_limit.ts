/**
 * Hourly limits of the public API per key and documented endpoint (spec 7), with hono-rate-limiter
 * over the shared database counters of KeyUsageStore (RegionalKeyUsageStore on a regional node). Windows are clock hours (UTC); every
 * response to a key carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds
 * until the window ends, IETF draft 6), and a refusal adds Retry-After.
 *
 * The stores' windows are hours of the app's clock (the primary's on a replicated node:
 * topology/clock.ts), so a key's hour starts and ends at the same instant at every node.
 */
import type { Context, MiddlewareHandler } from "hono";
import { type ClientRateLimitInfo, rateLimiter, type Store } from "hono-rate-limiter";
import { endpointId, RATE_LIMIT_WINDOW_MS } from "../../domain/public_api.ts";
import type { Clock } from "../topology/clock.ts";
import type { ApiAccessEnv } from "./env.ts";
import { usageBucket } from "./usage_store.ts";

/**
 * hono-rate-limiter counts RateLimit-Reset and Retry-After down from the node's own clock
 * (Date.now()): the store's window ends, on the app clock's scale, are handed to it on the node's.
 */
function onNodeClock(store: Store<ApiAccessEnv>, clock: Pick<Clock, "now">): Store<ApiAccessEnv> {
  const shifted = (info: ClientRateLimitInfo): ClientRateLimitInfo =>
    info.resetTime === undefined
      ? info
      : { ...info, resetTime: new Date(info.resetTime.getTime() + Date.now() - clock.now()) };
  return {
    localKeys: store.localKeys,
    init: (options) => store.init?.(options),
    get: async (key) => {
      const info = await store.get?.(key);
      return info === undefined ? undefined : shifted(info);
    },
    increment: async (key) => shifted(await store.increment(key)),
    decrement: (key) => store.decrement(key),
    resetKey: (key) => store.resetKey(key),
  };
}

/** A key's limit on an endpoint: the documented one, or the key's own when that is lower. */
function limitOf(c: Context<ApiAccessEnv>): number {
  const documented = c.get("apiEndpoint")!.limitPerHour;
  const own = c.get("apiKeyLimitPerHour");
  return own == null ? documented : Math.min(documented, own);
}

export function limitKeyRequests(
  store: Store<ApiAccessEnv>,
  clock: Pick<Clock, "now">,
): MiddlewareHandler<ApiAccessEnv> {
  const limiter = rateLimiter<ApiAccessEnv>({
    windowMs: RATE_LIMIT_WINDOW_MS,
    standardHeaders: "draft-6",
    store: onNodeClock(store, clock),
    keyGenerator: (c) => usageBucket(c.get("apiKeyId")!, endpointId(c.get("apiEndpoint")!)),
    limit: limitOf,
    handler: (c) => {
      const endpoint = c.get("apiEndpoint")!;
      const limitPerHour = limitOf(c);
      return c.json({
        message: `Rate limit exceeded: ${limitPerHour} requests per hour for ${endpointId(endpoint)}`,
        code: "rate_limited",
        limitPerHour,
      }, 429);
    },
  });
  // Session requests pass straight on: the limiter's own skip() costs them two awaits each.
  return (c, next) => c.get("apiKeyId") && c.get("apiEndpoint") ? limiter(c, next) : next();
}
