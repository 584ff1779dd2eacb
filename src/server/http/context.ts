/** Types shared by every route: the dependencies a feature receives and the per-request variables. */
import type { Context } from "hono";
import type { Role } from "../../domain/access.ts";
import type { Actor } from "../audit/trail.ts";
import { clientAddress } from "./client_address.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { Secrets } from "../secrets.ts";
import type { Clock } from "../topology/clock.ts";

/** What a verified forwarding node says about the request's client. */
export interface ForwardedClient {
  region: string;
  address: string | null;
  https: boolean;
}

export interface SessionUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  /** The spec's coarse label (users.role); what the user may do is decided by `roles`. */
  role: "admin" | "operator";
  roles: readonly Role[];
  /** An initial or reset password is still in use: only the password change is open. */
  mustChangePassword: boolean;
}

export interface AppEnv {
  Variables: {
    user: SessionUser;
    sessionId: string | null;
    /** Set when the caller authenticated with an API key instead of a session. */
    apiKeyId: string | null;
    /** Set at headquarters for a request a regional node forwarded with a verified node token. */
    forwardedClient: ForwardedClient | undefined;
  };
}

export interface AppDeps {
  db: Database;
  config: Config;
  secrets: Secrets;
  /**
   * The time sessions and windows are computed with: the primary's on a replicated node, the node's
   * own when standalone (topology/clock.ts).
   */
  clock: Clock;
}

/** The client address: the socket's peer, or behind trusted proxies (TRUST_PROXY) the one they name. */
export function clientIp(c: Context, config: Config): string | null {
  // A regional node's word about its client, from a request whose node token verified.
  const forwarded = (c as Context<AppEnv>).get("forwardedClient");
  if (forwarded !== undefined) return forwarded.address;
  const info = (c.env as { remoteAddr?: { hostname?: string } } | undefined)?.remoteAddr;
  return clientAddress(info?.hostname ?? null, c.req.header("x-forwarded-for"), config.trustProxy);
}

/** Whether the client reached the console over https (itself, or the regional node it came through). */
export function requestIsHttps(c: Context): boolean {
  const forwarded = (c as Context<AppEnv>).get("forwardedClient");
  if (forwarded !== undefined) return forwarded.https;
  return new URL(c.req.url).protocol === "https:";
}

export function actorOf(c: Context<AppEnv>, config: Config): Actor {
  return {
    userId: c.get("user").id,
    ipAddress: clientIp(c, config),
    userAgent: c.req.header("user-agent") ?? null,
  };
}
