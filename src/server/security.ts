/**
 * Request hardening shared by every route: secure headers with a strict CSP, a body size limit,
 * and cross-site request refusal for mutations.
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import { AppError } from "./errors.ts";

export const MAX_BODY_BYTES = 1024 * 1024;

export const securityHeaders = () =>
  secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    referrerPolicy: "same-origin",
    crossOriginEmbedderPolicy: false,
  });

export const limitBody = () =>
  bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new AppError("payload_too_large", `Request body exceeds ${MAX_BODY_BYTES} bytes`);
    },
  });

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Paths that accept an HTML form post (the sign-in page). */
const FORM_PATHS = new Set(["/api/login", "/api/logout"]);

/**
 * Mutations must come from this origin and carry JSON. Browsers send Sec-Fetch-Site (or Origin) on
 * every cross-site POST; hono's csrf() only inspects form content types, so refusing every
 * non-JSON body matters as much as the origin check.
 */
export const refuseCrossSite = (): MiddlewareHandler => async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next();
  const fetchSite = c.req.header("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") {
    throw new AppError("forbidden", "Cross-site request refused");
  }
  const origin = c.req.header("origin");
  if (origin && origin !== new URL(c.req.url).origin) {
    throw new AppError("forbidden", "Cross-site request refused");
  }
  if (FORM_PATHS.has(c.req.path)) return next();
  const contentType = c.req.header("content-type")?.split(";")[0].trim().toLowerCase();
  if (contentType !== undefined && contentType !== "application/json") {
    throw new AppError("unsupported_media_type", "Request body must be application/json");
  }
  return next();
};
