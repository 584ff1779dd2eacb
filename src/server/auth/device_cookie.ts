/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser in
 * which a user has completed a sign-in gets a cookie naming that user, signed with the server's
 * key. Its later attempts for that user are counted under the device, not under the account, so
 * however many failures others send for the account, the owner's own browser is never held back by
 * them; only its own failures slow it down.
 */
import type { Context } from "hono";
import type { Config } from "../config.ts";
import type { Secrets } from "../secrets.ts";
import { readSignedCookie, type SignedCookie, writeSignedCookie } from "./signed_cookie.ts";

const DEVICE_COOKIE: SignedCookie = { name: "cbr_device", purpose: "device-cookie", maxLength: 200 };
const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 3600;
const NONCE_BYTES = 16;

/** The device's id when the browser holds a genuine device cookie for `email`, else null. */
export function knownDevice(c: Context, config: Config, secrets: Secrets, email: string): string | null {
  return readSignedCookie(c, config, secrets, DEVICE_COOKIE, email);
}

export function issueDeviceCookie(c: Context, config: Config, secrets: Secrets, email: string): void {
  const bytes = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const nonce = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  writeSignedCookie(c, config, secrets, DEVICE_COOKIE, {
    email,
    payload: nonce,
    maxAgeSeconds: DEVICE_COOKIE_MAX_AGE_SECONDS,
  });
}
