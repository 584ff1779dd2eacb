/**
 * Mutations of a regional node run at headquarters (docs/deployment.md).
 *
 * A regional node reads its replica and forwards every request that changes something to the
 * headquarters console, which executes it against the primary next door: one round trip over the
 * WAN, however many statements the change needs, and every decision taken on the primary (a money
 * movement's guarded UPDATE, an idempotency key, the audit chain). Headquarters answers exactly as
 * it would its own users; the regional node passes that answer on.
 *
 * Read-your-writes: once a forwarded change has been answered, the node pulls the primary's new
 * frames, and the next request of the same session waits for that sync, so it sees its change.
 *
 * Headquarters trusts what a forwarding node says about its client (address, https) only from a
 * request that carries a token signed by the key the primary itself trusts (NODES_PUBLIC_KEY_FILE).
 */
import type { Context, MiddlewareHandler } from "hono";
import { importSPKI, jwtVerify } from "jose";
import { readSessionToken, SESSION_COOKIE_NAMES } from "../auth/session_cookie.ts";
import { BoundedMap } from "../bounded_map.ts";
import type { Config } from "../config.ts";
import type { AppDeps, AppEnv } from "../http/context.ts";
import type { AppError } from "../http/errors.ts";
import { isForwardedRequest } from "./placement.ts";
import {
  CHANGE_DEADLINE_MS,
  DEADLINE_HEADER,
  deadlinePassedError,
  FORWARD_MARGIN_MS,
  outcomeUnknownError,
  withDeadline,
} from "./deadline.ts";
import { type HeadquartersLink, isConnectionRefused } from "./headquarters_link.ts";
import { changesPausedError, type ReplicaSync } from "./replication.ts";

/**
 * How long a read waits for the sync that carries its session's last change; past it the read is
 * served from the replica as it is, with STALE_READ_HEADER, and the screens say so.
 */
export const READ_YOUR_WRITES_WAIT_MS = 1_000;
/** Set on a read served before the sync that carries the session's last change. */
export const STALE_READ_HEADER = "x-console-stale-read";
/** Sessions with a sync outstanding; more than this many at once and the oldest stop waiting. */
const MAX_PENDING_SESSIONS = 10_000;
/** Verified node tokens kept, so that a token is checked once and not on every forwarded request. */
const MAX_TRUSTED_TOKENS = 64;

export const NODE_TOKEN_HEADER = "x-console-node-token";
export const CLIENT_ADDRESS_HEADER = "x-console-client-address";
export const CLIENT_HTTPS_HEADER = "x-console-client-https";
export const REGION_HEADER = "x-console-region";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Not passed on: hop-by-hop headers, and what the regional node has already checked or sets itself. */
const DROPPED_REQUEST_HEADERS = [
  "host",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "origin",
  "sec-fetch-site",
  "x-forwarded-for",
  NODE_TOKEN_HEADER,
  CLIENT_ADDRESS_HEADER,
  CLIENT_HTTPS_HEADER,
  REGION_HEADER,
  DEADLINE_HEADER,
];
/** fetch() has already decoded the body, so its encoding and length no longer hold. */
const DROPPED_RESPONSE_HEADERS = [
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-encoding",
  "content-length",
];

/**
 * The regional node's front door for /api, behind the body limit and the cross-site guard (which
 * apply here, where the browser's origin is known): changes (and headquarters-only reads) go to
 * headquarters; other reads wait for their session's outstanding sync and are served here.
 */
export function forwardToHeadquarters(
  deps: AppDeps,
  link: HeadquartersLink,
  clientAddress: (c: Context) => string | null,
): MiddlewareHandler<AppEnv> {
  const replication = deps.config.replication!;
  const replica = deps.db.replica!;
  const headquartersUrl = replication.headquartersUrl!;
  const pending = new BoundedMap<string, Promise<void>>(MAX_PENDING_SESSIONS);

  /** Waits (boundedly) for the sync carrying the session's last change; false if it did not come. */
  const awaitOwnWrites = async (c: Context): Promise<boolean> => {
    const token = readSessionToken(c, deps.config);
    const sync = token === undefined ? undefined : pending.get(token);
    if (sync === undefined) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const synced = await Promise.race([
      sync.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READ_YOUR_WRITES_WAIT_MS))),
    ]);
    clearTimeout(timer);
    if (synced && pending.get(token!) === sync) pending.delete(token!);
    return synced;
  };

  const forward = async (c: Context<AppEnv>): Promise<Response> => {
    const safe = SAFE_METHODS.has(c.req.method);
    // Known down: refused at once, and truly not done, since nothing was sent.
    if (!link.reachable) return answerError(c, changesPausedError(replica.status().lastSyncAt));
    const incoming = new URL(c.req.url);
    const body = safe ? undefined : await c.req.arrayBuffer();
    const headers = forwardedHeaders(c, deps, clientAddress(c));
    headers.set(DEADLINE_HEADER, String(deps.clock.now() + CHANGE_DEADLINE_MS));
    const answer = await send(`${headquartersUrl}${incoming.pathname}${incoming.search}`, {
      method: c.req.method,
      headers,
      body,
      redirect: "manual",
    }, link);
    if (!(answer instanceof Response)) {
      return answerError(c, safe || answer.refused ? changesPausedError(replica.status().lastSyncAt) : outcomeUnknownError());
    }
    link.succeeded();
    // Only an answer that may carry a change needs a sync before its session reads again.
    if (answer.status < 400) {
      markSessionsPending(readSessionToken(c, deps.config), answer, replica, pending);
    }
    const outgoing = new Headers(answer.headers);
    for (const name of DROPPED_RESPONSE_HEADERS) outgoing.delete(name);
    return new Response(answer.body, {
      status: answer.status,
      statusText: answer.statusText,
      headers: outgoing,
    });
  };

  return async (c, next) => {
    if (isForwardedRequest(c)) return forward(c);
    const fresh = await awaitOwnWrites(c);
    await next();
    if (!fresh) c.header(STALE_READ_HEADER, "1");
  };
}

/**
 * One request to headquarters, given until the deadline less the way back. A refused connection
 * carried nothing; anything else may have reached headquarters, where the change may run until its
 * deadline: its client must then not be told it was not done.
 */
async function send(url: string, init: RequestInit, link: HeadquartersLink): Promise<Response | { refused: boolean }> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(CHANGE_DEADLINE_MS - FORWARD_MARGIN_MS) });
  } catch (error) {
    const refused = isConnectionRefused(error);
    link.failed(refused);
    return { refused };
  }
}

function answerError(c: Context, error: AppError): Response {
  return c.json(error.toBody(), error.status);
}

/** The request's headers as headquarters takes them: the node's token and what it says of its client. */
function forwardedHeaders(c: Context<AppEnv>, deps: AppDeps, address: string | null): Headers {
  const replication = deps.config.replication!;
  const headers = new Headers(c.req.raw.headers);
  for (const name of DROPPED_REQUEST_HEADERS) headers.delete(name);
  headers.set(NODE_TOKEN_HEADER, replication.authToken);
  headers.set(REGION_HEADER, replication.region);
  const https = new URL(c.req.url).protocol === "https:" || deps.config.secureCookies;
  headers.set(CLIENT_HTTPS_HEADER, https ? "1" : "0");
  if (address !== null) headers.set(CLIENT_ADDRESS_HEADER, address);
  return headers;
}

/**
 * The change is committed at the primary: a sync that starts now carries it. The session that made
 * it (or, for a sign-in, the session it opened) reads after that sync.
 */
function markSessionsPending(
  current: string | undefined,
  answer: Response,
  replica: ReplicaSync,
  pending: BoundedMap<string, Promise<void>>,
) {
  const sync = replica.syncNow().catch(() => {});
  const tokens = new Set<string>();
  if (current) tokens.add(current);
  for (const cookie of answer.headers.getSetCookie()) {
    const [pair] = cookie.split(";");
    const eq = pair.indexOf("=");
    if (eq > 0 && SESSION_COOKIE_NAMES.includes(pair.slice(0, eq).trim()) && eq < pair.length - 1) {
      tokens.add(decodeURIComponent(pair.slice(eq + 1).trim()));
    }
  }
  for (const token of tokens) pending.set(token, sync);
}

/**
 * Headquarters: every change runs under a deadline (deadline.ts): a forwarded one under the deadline
 * its node sent (on the primary's clock), which it refuses to start once passed; its own under
 * CHANGE_DEADLINE_MS from arrival.
 */
export function changeDeadlines(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    let deadlineMs = Date.now() + CHANGE_DEADLINE_MS;
    // Believed from anyone: a deadline can only make headquarters refuse the sender's own request.
    const sent = Number(c.req.header(DEADLINE_HEADER));
    if (Number.isFinite(sent) && sent > 0) {
      deadlineMs = Math.min(deadlineMs, Date.now() + (sent - deps.clock.now()));
      if (deadlineMs <= Date.now()) return answerError(c, deadlinePassedError());
    }
    await withDeadline(deadlineMs, () => next());
  };
}

/**
 * Headquarters: takes a forwarding node's word about its client from requests whose node token
 * verifies against NODES_PUBLIC_KEY_FILE; without that file, or with a token that does not verify,
 * the forwarded headers are ignored (the request is served as the node's own).
 */
export async function trustForwardingNodes(config: Config): Promise<MiddlewareHandler<AppEnv>> {
  const keyFile = config.replication?.nodesPublicKeyFile ?? null;
  const key = keyFile === null ? null : await importSPKI(await Deno.readTextFile(keyFile), "EdDSA");
  const verified = new BoundedMap<string, boolean>(MAX_TRUSTED_TOKENS);
  const isTrusted = async (token: string) => {
    let ok = verified.get(token);
    if (ok === undefined) {
      ok = key !== null && await jwtVerify(token, key).then(() => true, () => false);
      verified.set(token, ok);
    }
    return ok;
  };
  return async (c, next) => {
    const token = c.req.header(NODE_TOKEN_HEADER);
    if (token !== undefined && await isTrusted(token)) {
      c.set("forwardedClient", {
        region: c.req.header(REGION_HEADER)?.slice(0, 32) ?? "unknown",
        address: c.req.header(CLIENT_ADDRESS_HEADER)?.slice(0, 45) ?? null,
        https: c.req.header(CLIENT_HTTPS_HEADER) === "1",
      });
    }
    return next();
  };
}
