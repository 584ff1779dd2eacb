/**
 * Waiting tickets (src/domain/sign_in_throttle.ts): a browser refused during a back-off wait gets a
 * cookie naming the e-mail it tried and the time its wait ends, signed with the server's key. Coming
 * back with it once the wait is over, the browser is let through even if someone else's failures have
 * started a new wait since. The cookie carries no state of its own to protect: forging one needs the
 * key, and copying one gains nothing, because each key lets one ticket through per 30 s whoever holds
 * it.
 */
import type { Context } from "hono";
import { timingSafeEqual } from "node:crypto";
import { TICKET_LIFETIME_MS, type WaitTicket } from "../../domain/sign_in_throttle.ts";
import type { Config } from "../config.ts";
import type { Secrets } from "../secrets.ts";
import { readCookie, writeCookie } from "./session_cookie.ts";

const WAIT_TICKET_COOKIE = "cbr_wait";
const MAX_COOKIE_LENGTH = 100;

const signature = (secrets: Secrets, email: string, validFromMs: number) =>
  secrets.fingerprint(`wait-ticket:${email.toLowerCase()}:${validFromMs}`);

/** The ticket this browser holds for `email`, or null (none, another e-mail's, or not genuine). */
export function readWaitTicket(
  c: Context,
  config: Config,
  secrets: Secrets,
  email: string,
): WaitTicket | null {
  const value = readCookie(c, config, WAIT_TICKET_COOKIE);
  if (!value || value.length > MAX_COOKIE_LENGTH) return null;
  const [from, mac] = value.split(".");
  if (!/^\d{1,15}$/.test(from ?? "") || !mac) return null;
  const validFromMs = Number(from);
  const expected = signature(secrets, email, validFromMs);
  if (mac.length !== expected.length) return null;
  const genuine = timingSafeEqual(new TextEncoder().encode(mac), new TextEncoder().encode(expected));
  return genuine ? { validFromMs } : null;
}

export function issueWaitTicket(
  c: Context,
  config: Config,
  secrets: Secrets,
  email: string,
  validFromMs: number,
  nowMs = Date.now(),
): void {
  const value = `${validFromMs}.${signature(secrets, email, validFromMs)}`;
  const maxAge = Math.ceil((validFromMs + TICKET_LIFETIME_MS - nowMs) / 1000);
  writeCookie(c, config, WAIT_TICKET_COOKIE, value, { sameSite: "Strict", maxAge });
}
