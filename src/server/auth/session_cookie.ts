/**
 * The session cookie. Served over https (or with COOKIE_SECURE=1 behind a TLS-terminating proxy)
 * it is `__Host-cbr_session`: Secure, Path=/ and no Domain, so neither plain http nor a sibling
 * subdomain can set or overwrite it. Over plain http (development, loopback tests) it is
 * `cbr_session`, because browsers refuse a Secure cookie there.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Config } from "../config.ts";

const SESSION_COOKIE = "cbr_session";

const secure = (c: Context, config: Config) => config.secureCookies || new URL(c.req.url).protocol === "https:";

export function readSessionToken(c: Context, config: Config): string | undefined {
  return secure(c, config) ? getCookie(c, SESSION_COOKIE, "host") : getCookie(c, SESSION_COOKIE);
}

export function writeSessionCookie(c: Context, config: Config, token: string): void {
  if (secure(c, config)) {
    setCookie(c, SESSION_COOKIE, token, { prefix: "host", httpOnly: true, sameSite: "Lax", secure: true, path: "/" });
  } else {
    setCookie(c, SESSION_COOKIE, token, { httpOnly: true, sameSite: "Lax", path: "/" });
  }
}

export function clearSessionCookie(c: Context, config: Config): void {
  if (secure(c, config)) deleteCookie(c, SESSION_COOKIE, { prefix: "host", secure: true, path: "/" });
  else deleteCookie(c, SESSION_COOKIE, { path: "/" });
}
