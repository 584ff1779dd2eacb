/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser in
 * which a user has completed a sign-in gets a cookie naming that user, signed with the server's
 * key. Its later attempts for that user are counted under the device, not under the account, so
 * however many failures others send for the account, the owner's own browser is never held back by
 * them; only its own failures slow it down.
 */
import type { Context } from "hono";
import { timingSafeEqual } from "node:crypto";
import type { Config } from "../config.ts";
import type { Secrets } from "../secrets.ts";
import { readCookie, writeCookie } from "./session_cookie.ts";

const DEVICE_COOKIE = "cbr_device";
const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 3600;
const NONCE_BYTES = 16;
const MAX_COOKIE_LENGTH = 200;

const signature = (secrets: Secrets, email: string, nonce: string) =>
  secrets.fingerprint(`device-cookie:${email.toLowerCase()}:${nonce}`);

/** The device's id when the browser holds a genuine device cookie for `email`, else null. */
export function knownDevice(c: Context, config: Config, secrets: Secrets, email: string): string | null {
  const value = readCookie(c, config, DEVICE_COOKIE);
  if (!value || value.length > MAX_COOKIE_LENGTH) return null;
  const [nonce, mac] = value.split(".");
  if (!nonce || !mac) return null;
  const expected = signature(secrets, email, nonce);
  if (mac.length !== expected.length) return null;
  return timingSafeEqual(new TextEncoder().encode(mac), new TextEncoder().encode(expected)) ? nonce : null;
}

export function issueDeviceCookie(c: Context, config: Config, secrets: Secrets, email: string): void {
  const bytes = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const nonce = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  const value = `${nonce}.${signature(secrets, email, nonce)}`;
  writeCookie(c, config, DEVICE_COOKIE, value, { sameSite: "Strict", maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS });
}
