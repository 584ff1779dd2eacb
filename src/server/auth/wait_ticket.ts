/**
 * Waiting tickets (src/domain/sign_in_throttle.ts): a browser refused during a back-off wait gets a
 * cookie naming the e-mail it tried and the time its wait ends, signed with the server's key. Coming
 * back with it once the wait is over, the browser is let through even if someone else's failures have
 * started a new wait since. The cookie carries no state of its own to protect: forging one needs the
 * key, and copying one gains nothing, because each key lets one ticket through per 30 s whoever holds
 * it.
 */
import type { Context } from "hono";
import { TICKET_LIFETIME_MS, type WaitTicket } from "../../domain/sign_in_throttle.ts";
import type { Config } from "../config.ts";
import type { Secrets } from "../secrets.ts";
import { readSignedCookie, type SignedCookie, writeSignedCookie } from "./signed_cookie.ts";

const WAIT_TICKET_COOKIE: SignedCookie = { name: "cbr_wait", purpose: "wait-ticket", maxLength: 100 };

/** The ticket this browser holds for `email`, or null (none, another e-mail's, or not genuine). */
export function readWaitTicket(
  c: Context,
  config: Config,
  secrets: Secrets,
  email: string,
): WaitTicket | null {
  const from = readSignedCookie(c, config, secrets, WAIT_TICKET_COOKIE, email);
  return from !== null && /^\d{1,15}$/.test(from) ? { validFromMs: Number(from) } : null;
}

export function issueWaitTicket(
  c: Context,
  config: Config,
  secrets: Secrets,
  email: string,
  validFromMs: number,
  nowMs: number,
): void {
  writeSignedCookie(c, config, secrets, WAIT_TICKET_COOKIE, {
    email,
    payload: String(validFromMs),
    maxAgeSeconds: Math.ceil((validFromMs + TICKET_LIFETIME_MS - nowMs) / 1000),
  });
}
