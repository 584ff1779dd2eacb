/**
 * The public API's plumbing, one instance per app (createApp): the request log, the key
 * authentication, the response envelope and the hourly limits. Mount order in app.ts matters:
 * logRequests first (it sees every /api response, errors included), then envelope, then
 * authenticateKeys and limitKeyRequests before any route.
 */
import type { MiddlewareHandler } from "hono";
import type { AppDeps } from "../http/context.ts";
import { envelopeKeyResponses } from "./envelope.ts";
import type { ApiAccessEnv } from "./env.ts";
import { authenticateApiKeys } from "./key_auth.ts";
import { ApiKeyResolver } from "./keys.ts";
import { limitKeyRequests } from "./rate_limit.ts";
import { RequestLog } from "./request_log.ts";
import { KeyUsageStore, RegionalKeyUsageStore } from "./usage_store.ts";

export interface ApiAccess {
  requestLog: RequestLog;
  logRequests: MiddlewareHandler<ApiAccessEnv>;
  envelope: MiddlewareHandler<ApiAccessEnv>;
  authenticateKeys: MiddlewareHandler<ApiAccessEnv>;
  limitKeyRequests: MiddlewareHandler<ApiAccessEnv>;
}

export function createApiAccess(deps: AppDeps): ApiAccess {
  const requestLog = new RequestLog(deps.db, deps.config, deps.clock);
  return {
    requestLog,
    logRequests: requestLog.middleware,
    envelope: envelopeKeyResponses,
    authenticateKeys: authenticateApiKeys(new ApiKeyResolver(deps.db, deps.clock)),
    limitKeyRequests: limitKeyRequests(
      deps.config.role === "regional"
        ? new RegionalKeyUsageStore(deps.db, deps.clock.now)
        : new KeyUsageStore(deps.db, deps.clock.now),
      deps.clock,
    ),
  };
}

export type { ApiAccessEnv } from "./env.ts";
export type { RequestLog } from "./request_log.ts";
