/**
 * The console's cookies (the session, the device cookie, the single sign-on flow). Served over
 * https (or with COOKIE_SECURE=1 behind a TLS-terminating proxy) each one is `__Host-` prefixed:
 * Secure, Path=/ and no Domain, so neither plain http nor a sibling subdomain can set or overwrite
 * it, and only that name is read. Over plain http (development, loopback tests) the bare name is
 * used, because browsers refuse a Secure cookie there.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { CookieOptions } from "hono/utils/cookie";
import type { Config } from "../config.ts";
import { requestIsHttps } from "../http/context.ts";

export const SESSION_COOKIE = "cbr_session";
/** The names a session cookie goes by: plain over http, `__Host-` prefixed over https. */
export const SESSION_COOKIE_NAMES: readonly string[] = [SESSION_COOKIE, `__Host-${SESSION_COOKIE}`];

/**
 * Whether this console is served over https, so its cookies are Secure and `__Host-` prefixed
 * (for a request a regional node forwarded: whether its client reached that node over https).
 */
const servedOverHttps = (c: Context, config: Config) => config.secureCookies || requestIsHttps(c);

export function readCookie(c: Context, config: Config, name: string): string | undefined {
  return servedOverHttps(c, config) ? getCookie(c, name, "host") : getCookie(c, name);
}

/** An HttpOnly cookie for the whole console (Path=/), with the options given. */
export function writeCookie(
  c: Context,
  config: Config,
  name: string,
  value: string,
  options: Pick<CookieOptions, "sameSite" | "maxAge">,
): void {
  const common = { ...options, httpOnly: true, path: "/" };
  if (servedOverHttps(c, config)) setCookie(c, name, value, { ...common, prefix: "host", secure: true });
  else setCookie(c, name, value, common);
}

export function clearCookie(c: Context, config: Config, name: string): void {
  if (servedOverHttps(c, config)) deleteCookie(c, name, { prefix: "host", secure: true, path: "/" });
  else deleteCookie(c, name, { path: "/" });
}

export const readSessionToken = (c: Context, config: Config) => readCookie(c, config, SESSION_COOKIE);
export const writeSessionCookie = (c: Context, config: Config, token: string) =>
  writeCookie(c, config, SESSION_COOKIE, token, { sameSite: "Lax" });
export const clearSessionCookie = (c: Context, config: Config) => clearCookie(c, config, SESSION_COOKIE);
