/**
 * The response envelope of the public API (spec 2.14): a caller that presents an API key gets
 * `{data, success: true, timestamp}`, or `{success: false, error, timestamp}` (plus the error's
 * code and details) on failure. Handlers answer their usual JSON; this wraps it, so the screens'
 * session calls keep their shapes.
 */
import type { Context, MiddlewareHandler } from "hono";
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

/**
 * Makes this request's c.json() keep the text it serialises, with the response it made, as the
 * `jsonAnswer` variable: the envelope embeds that text and the request log stores it, where both
 * would otherwise read the body back from the response (and the log parse it to be sure it is JSON).
 * The text stands for the body only while c.res is still that very response.
 */
export function rememberJsonAnswers(c: Context<ApiAccessEnv>): void {
  const body = c.body;
  c.json = ((value: unknown, arg?: unknown, headers?: Record<string, string>) => {
    const text = JSON.stringify(value);
    const res = (body as (...args: unknown[]) => Response)(
      text,
      arg,
      { "Content-Type": "application/json", ...headers },
    );
    if (text !== undefined) c.set("jsonAnswer", { text, res });
    return res;
  }) as typeof c.json;
}

/** The body of `res` if it is the last c.json() answer (see rememberJsonAnswers). */
export function jsonAnswerText(c: Context<ApiAccessEnv>, res: Response): string | undefined {
  const answer = c.get("jsonAnswer");
  return answer !== undefined && answer.res === res ? answer.text : undefined;
}

export const envelopeKeyResponses: MiddlewareHandler<ApiAccessEnv> = async (c, next) => {
  if (bearerToken(c.req.header("authorization")) === undefined) return next();
  await next();
  const res = c.res;
  // Status, not `res.body === null`: reading `body` materialises a stream, a cost on every request.
  if (NULL_BODY_STATUSES.has(res.status) || !JSON_CONTENT_TYPE.test(res.headers.get("content-type") ?? "")) {
    return;
  }
  const answered = jsonAnswerText(c, res);
  const text = answered ?? await res.text();
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
  // Built from JSON text by construction when the handler's text came from c.json().
  c.set("sentResponse", { kind: answered === undefined ? "text" : "json", text: body });
};
