/**
 * The response envelope of the public API (spec 2.14): a caller that presents an API key gets
 * `{data, success: true, timestamp}`, or `{success: false, error, timestamp}` (plus the error's
 * code and details) on failure. Handlers answer their usual JSON; this wraps it, so the screens'
 * session calls keep their shapes.
 */
import type { MiddlewareHandler } from "hono";
import type { ApiAccessEnv } from "./env.ts";
import { bearerToken } from "./keys.ts";

export const JSON_CONTENT_TYPE = /^application\/(?:[\w.-]+\+)?json/i;
/** Responses that never carry a body (Fetch standard). */
export const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function errorEnvelope(text: string, statusText: string, timestamp: string): string {
  let details: Record<string, unknown> = {};
  let error = statusText || "Error";
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      const { message, ...rest } = parsed as Record<string, unknown>;
      if (typeof message === "string") error = message;
      details = rest;
    }
  } catch {
    if (text) error = text;
  }
  return JSON.stringify({ success: false, error, ...details, timestamp });
}

export const envelopeKeyResponses: MiddlewareHandler<ApiAccessEnv> = async (c, next) => {
  if (bearerToken(c.req.header("authorization")) === undefined) return next();
  await next();
  const res = c.res;
  // Status, not `res.body === null`: reading `body` materialises a stream, a cost on every request.
  if (NULL_BODY_STATUSES.has(res.status) || !JSON_CONTENT_TYPE.test(res.headers.get("content-type") ?? "")) {
    return;
  }
  // A file download (a directory edition's signed manifest) is served byte for byte: its hash and signature cover them.
  if (res.ok && res.headers.has("content-disposition")) return;
  const text = await res.text();
  const timestamp = new Date().toISOString();
  // The handler's JSON is embedded as is: no parse and re-serialise on the hot path.
  const body = res.ok
    ? `{"data":${text || "null"},"success":true,"timestamp":"${timestamp}"}`
    : errorEnvelope(text, res.statusText, timestamp);
  // Handing the Headers object to the constructor is several times cheaper than copying it first.
  const enveloped = new Response(body, { status: res.status, headers: res.headers });
  enveloped.headers.delete("content-length");
  if (res.status === 401) {
    enveloped.headers.set("WWW-Authenticate", 'Bearer realm="api", error="invalid_token"');
  }
  // Cleared first: assigning over a response merges the old headers into the new one.
  c.res = undefined;
  c.res = enveloped;
  c.set("sentResponseBody", body);
};
