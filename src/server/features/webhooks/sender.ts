/**
 * One delivery attempt: an HTTP/1.1 POST of the signed JSON body over a socket pinned to the address
 * the SSRF guard approved (http/outbound.ts), answered within the attempt's timeout. Redirects are
 * not followed: a 3xx is a failed attempt like any other answer outside 2xx. Only the first
 * RESPONSE_EXCERPT_MAX_BYTES of the answer's body are read, for the delivery log.
 */
import {
  ATTEMPT_ERROR_MAX_LENGTH,
  isDeliveredStatus,
  RESPONSE_EXCERPT_MAX_BYTES,
} from "../../../domain/webhooks.ts";
import {
  describeOutboundFailure,
  isAllowListed,
  type OutboundPolicy,
  readResponseHead,
  type ResponseHead,
  withPinnedConnection,
  writeAll,
} from "../../http/outbound.ts";

/** How long the endpoint may take to answer one attempt, connection included. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** After the status line, how long the body excerpt is waited for; the status alone decides. */
export const EXCERPT_READ_TIMEOUT_MS = 1_000;
const USER_AGENT = "CentralBankConsole-Webhooks/1.0";
const READ_CHUNK_BYTES = 4 * 1024;

export interface AttemptOutcome {
  succeeded: boolean;
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  policy: OutboundPolicy;
  timeoutMs: number;
}

export async function postSigned(
  endpoint: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<AttemptOutcome> {
  const startedAt = performance.now();
  const signal = AbortSignal.timeout(options.timeoutMs);
  const url = new URL(endpoint);
  const outcome = (statusCode: number | null, responseExcerpt: string | null, error: string | null) => ({
    succeeded: statusCode !== null && isDeliveredStatus(statusCode) && error === null,
    statusCode,
    responseExcerpt,
    error: error === null ? null : error.slice(0, ATTEMPT_ERROR_MAX_LENGTH),
    durationMs: Math.round(performance.now() - startedAt),
  });
  try {
    const answer = await withPinnedConnection(url, options.policy, signal, async (conn) => {
      await writeAll(conn, requestBytes(url, body, headers));
      const head = await readResponseHead(conn);
      return { head, excerpt: await readExcerpt(conn, head) };
    });
    const status = answer.head.status;
    const redirect = status >= 300 && status <= 399
      ? `Endpoint answered HTTP ${status}; redirects are not followed`
      : null;
    return outcome(status, answer.excerpt, redirect);
  } catch (error) {
    return outcome(
      null,
      null,
      describeOutboundFailure(error, url, {
        aborted: signal.aborted,
        timeoutMs: options.timeoutMs,
        allowListed: isAllowListed(url, options.policy.allowedHosts),
        permissionMessage: `This server process has no network permission for ${url.host}: ` +
          `see docs/webhooks.md, "Network and SSRF rules"`,
      }),
    );
  }
}

function requestBytes(url: URL, body: string, headers: Record<string, string>): Uint8Array {
  const encoder = new TextEncoder();
  const bodyBytes = encoder.encode(body);
  const lines = [
    `POST ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    `User-Agent: ${USER_AGENT}`,
    "Content-Type: application/json",
    `Content-Length: ${bodyBytes.byteLength}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "Connection: close",
  ];
  const head = encoder.encode(`${lines.join("\r\n")}\r\n\r\n`);
  const bytes = new Uint8Array(head.byteLength + bodyBytes.byteLength);
  bytes.set(head);
  bytes.set(bodyBytes, head.byteLength);
  return bytes;
}

/** Up to RESPONSE_EXCERPT_MAX_BYTES of the body (chunked bodies decoded), as printable text; never throws. */
async function readExcerpt(conn: Deno.Conn, head: ResponseHead): Promise<string | null> {
  let raw = head.rest;
  const chunk = new Uint8Array(READ_CHUNK_BYTES);
  const deadline = Date.now() + EXCERPT_READ_TIMEOUT_MS;
  const declared = Number(head.headers.get("content-length") ?? Number.NaN);
  const enough = () => raw.byteLength >= RESPONSE_EXCERPT_MAX_BYTES + 16 || raw.byteLength >= declared;
  try {
    while (!enough() && Date.now() < deadline) {
      let timerId: ReturnType<typeof setTimeout> | undefined;
      const timer = new Promise<null>((resolve) =>
        timerId = setTimeout(() => resolve(null), deadline - Date.now())
      );
      const read = await Promise.race([conn.read(chunk), timer]).finally(() => clearTimeout(timerId));
      if (read === null) break;
      raw = concat(raw, chunk.subarray(0, read));
    }
  } catch {
    // The status decides the attempt; a body cut short only shortens the excerpt.
  }
  const chunked = /chunked/i.test(head.headers.get("transfer-encoding") ?? "");
  const bytes = (chunked ? dechunk(raw) : raw).subarray(0, RESPONSE_EXCERPT_MAX_BYTES);
  const text = new TextDecoder().decode(bytes).replace(/[^\P{Cc}\n\t]/gu, "").trim();
  return text === "" ? null : text;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.byteLength + b.byteLength);
  joined.set(a);
  joined.set(b, a.byteLength);
  return joined;
}

/** The data of a chunked body, as far as it was read. */
function dechunk(raw: Uint8Array): Uint8Array {
  const text = new TextDecoder("latin1").decode(raw);
  let data = "";
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!Number.isFinite(size) || size === 0) break;
    data += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
  return Uint8Array.from(data, (char) => char.charCodeAt(0));
}
