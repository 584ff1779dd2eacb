/**
 * Request hardening shared by every route: secure headers with a strict CSP, a body size limit,
 * and cross-site request refusal for mutations.
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import { AppError } from "./errors.ts";
import { MAX_IMPORT_FILE_BYTES } from "../../domain/registry_import.ts";

export const MAX_BODY_BYTES = 1024 * 1024;

/** Paths whose body is a directory file in CSV (the registry import): larger, and text/csv. */
const CSV_UPLOAD_PATHS = new Set(["/api/directory/imports", "/api/directory/imports/dry-run"]);

const CONTENT_SECURITY_POLICY = {
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
};

/**
 * Secure headers with a strict CSP. API answers get the headers that matter for a response no
 * browser renders as a page (OWASP's REST guidance: CSP, nosniff, framing, referrer, transport,
 * resource policy); the legacy and document-only ones (X-XSS-Protection, X-Download-Options,
 * X-DNS-Prefetch-Control, X-Permitted-Cross-Domain-Policies, Origin-Agent-Cluster, COOP) go on
 * pages only. Each header set on a response costs about half a microsecond on every request.
 */
export const securityHeaders = (): MiddlewareHandler => {
  const documents = secureHeaders({
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    referrerPolicy: "same-origin",
    crossOriginEmbedderPolicy: false,
  });
  const api = secureHeaders({
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    referrerPolicy: "same-origin",
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    removePoweredBy: false,
  });
  return async (c, next) => {
    if (!c.req.path.startsWith("/api/")) return documents(c, next);
    await api(c, next);
    // API answers carry sessions, card data and credentials: no browser or proxy may keep them,
    // errors and 401s included (this runs after the error handler has built its answer).
    c.res.headers.set("Cache-Control", API_CACHE_CONTROL);
  };
};

export const API_CACHE_CONTROL = "no-store";

const BODYLESS_METHODS = new Set(["GET", "HEAD"]);

/**
 * Refuses bodies over MAX_BODY_BYTES (a directory file upload: MAX_IMPORT_FILE_BYTES). A declared
 * Content-Length is judged from the header alone; only a body without one (chunked) is counted as
 * it is read. Nothing reads a GET's or HEAD's body, and asking a request for its body stream is
 * itself a cost on every request.
 */
export const limitBody = (): MiddlewareHandler => {
  const tooLarge = (limit: number) => () => {
    throw new AppError("payload_too_large", `Request body exceeds ${limit} bytes`);
  };
  const counted = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge(MAX_BODY_BYTES) });
  const countedUpload = bodyLimit({
    maxSize: MAX_IMPORT_FILE_BYTES,
    onError: tooLarge(MAX_IMPORT_FILE_BYTES),
  });
  return (c, next) => {
    if (BODYLESS_METHODS.has(c.req.method)) return next();
    const upload = CSV_UPLOAD_PATHS.has(c.req.path);
    const limit = upload ? MAX_IMPORT_FILE_BYTES : MAX_BODY_BYTES;
    const declared = c.req.header("content-length");
    if (declared !== undefined && c.req.header("transfer-encoding") === undefined) {
      return Number(declared) > limit ? tooLarge(limit)() : next();
    }
    return (upload ? countedUpload : counted)(c, next);
  };
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Paths that accept an HTML form post (the sign-in pages, sign-out). */
const FORM_PATHS = new Set(["/api/login", "/api/login/second-factor", "/api/logout"]);

/**
 * Mutations must come from this origin and carry JSON. Browsers send Sec-Fetch-Site (or Origin) on
 * every cross-site POST; hono's csrf() only inspects form content types, so refusing every
 * non-JSON body matters as much as the origin check.
 */
export const refuseCrossSite = (): MiddlewareHandler => (c, next) => {
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
  // text/csv is no CORS-safelisted type either: a cross-site page cannot send it without a preflight.
  if (contentType === "text/csv" && CSV_UPLOAD_PATHS.has(c.req.path)) return next();
  if (contentType !== undefined && contentType !== "application/json") {
    throw new AppError("unsupported_media_type", "Request body must be application/json");
  }
  return next();
};
