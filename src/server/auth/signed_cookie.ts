/**
 * Cookies of the form `<payload>.<mac>`, bound to one e-mail address and one purpose by the
 * server's key: the device cookie and the waiting ticket. Forging one needs the key; the payload
 * itself is not secret.
 */
import type { Context } from "hono";
import { timingSafeEqual } from "node:crypto";
import type { Config } from "../config.ts";
import type { Secrets } from "../secrets.ts";
import { readCookie, writeCookie } from "./session_cookie.ts";

export interface SignedCookie {
  name: string;
  /** Keeps one kind of cookie from passing for another. */
  purpose: string;
  maxLength: number;
}

const macOf = (secrets: Secrets, cookie: SignedCookie, email: string, payload: string) =>
  secrets.fingerprint(`${cookie.purpose}:${email.toLowerCase()}:${payload}`);

/** The payload of a genuine cookie for `email`, or null (none, too long, another e-mail's, or forged). */
export function readSignedCookie(
  c: Context,
  config: Config,
  secrets: Secrets,
  cookie: SignedCookie,
  email: string,
): string | null {
  const value = readCookie(c, config, cookie.name);
  if (!value || value.length > cookie.maxLength) return null;
  const [payload, mac] = value.split(".");
  if (!payload || !mac) return null;
  const expected = macOf(secrets, cookie, email, payload);
  if (mac.length !== expected.length) return null;
  return timingSafeEqual(new TextEncoder().encode(mac), new TextEncoder().encode(expected)) ? payload : null;
}

export function writeSignedCookie(
  c: Context,
  config: Config,
  secrets: Secrets,
  cookie: SignedCookie,
  signed: { email: string; payload: string; maxAgeSeconds: number },
): void {
  const value = `${signed.payload}.${macOf(secrets, cookie, signed.email, signed.payload)}`;
  writeCookie(c, config, cookie.name, value, { sameSite: "Strict", maxAge: signed.maxAgeSeconds });
}
