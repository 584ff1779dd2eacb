/** Types shared by every route: the dependencies a feature receives and the per-request variables. */
import type { Context } from "hono";
import type { Actor } from "./audit.ts";
import { clientAddress } from "./client_address.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db.ts";
import type { Secrets } from "./secrets.ts";

export interface SessionUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  role: "admin" | "operator";
}

export interface AppEnv {
  Variables: {
    user: SessionUser;
    sessionId: string | null;
    /** Set when the caller authenticated with an API key instead of a session. */
    apiKeyId: string | null;
  };
}

export interface AppDeps {
  db: Database;
  config: Config;
  secrets: Secrets;
}

/** The client address: the socket's peer, or behind trusted proxies (TRUST_PROXY) the one they name. */
export function clientIp(c: Context, config: Config): string | null {
  const info = (c.env as { remoteAddr?: { hostname?: string } } | undefined)?.remoteAddr;
  return clientAddress(info?.hostname ?? null, c.req.header("x-forwarded-for"), config.trustProxy);
}

export function actorOf(c: Context<AppEnv>, config: Config): Actor {
  return {
    userId: c.get("user").id,
    ipAddress: clientIp(c, config),
    userAgent: c.req.header("user-agent") ?? null,
  };
}
