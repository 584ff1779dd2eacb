/** The API routes as the router knows them, so new features are covered the day they are mounted. */
import type { Hono } from "hono";

export interface ApiRoute {
  method: string;
  path: string;
}

/**
 * Paths that are public by design: the sign-in page and form, its second-factor step, single sign-on,
 * sign-out, and the health check regional nodes ask headquarters (whether it accepts changes).
 */
export const PUBLIC_PATHS = new Set([
  "/api/login",
  "/api/login/second-factor",
  "/api/login/oidc",
  "/api/login/oidc/callback",
  "/api/logout",
  "/api/system/health",
]);
export const MUTATING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Every concrete `/api` route: middleware entries (method ALL or a `/*` path) are left out. */
export function apiRoutes(app: Hono<any>): ApiRoute[] {
  const seen = new Set<string>();
  const routes: ApiRoute[] = [];
  for (const { method, path } of app.routes) {
    if (method === "ALL" || path.endsWith("/*") || !path.startsWith("/api/")) continue;
    const key = `${method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    routes.push({ method, path });
  }
  return routes;
}

/** Hono's `:name` and `:name{regex}` parameters. */
const PARAM = /:[A-Za-z_][A-Za-z0-9_]*(\{(?:[^{}]|\{[^{}]*\})*\})?\??/g;

export function hasParams(path: string): boolean {
  return new RegExp(PARAM.source).test(path);
}

/** Fills every parameter with `segment`, which the caller has already percent-encoded as it wants. */
export function fillParams(path: string, segment: string): string {
  return path.replace(PARAM, segment);
}
