/**
 * Where a route runs in the replicated topology, declared on the route itself. By default a
 * regional node serves reads from its replica and forwards every change to headquarters; a route
 * that departs from that carries one of these markers before its handler.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";

/** A POST that changes nothing, answered by a regional node from its own copy like any read. */
export const servedLocally: MiddlewareHandler = async (_c, next) => await next();

/**
 * A read served only at headquarters: report files are written to its disk, and the single
 * sign-on steps keep their state there and end by opening a session there.
 */
export const servedAtHeadquarters: MiddlewareHandler = async (_c, next) => await next();

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether a regional node passes this request on to headquarters. */
export function isForwardedRequest(c: Context): boolean {
  const marked = (marker: MiddlewareHandler) => matchedRoutes(c).some((route) => route.handler === marker);
  if (SAFE_METHODS.has(c.req.method)) return marked(servedAtHeadquarters);
  return !marked(servedLocally);
}
