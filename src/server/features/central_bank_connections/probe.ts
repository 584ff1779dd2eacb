/**
 * The live test of a partner endpoint: one HTTP/1.1 GET (https with certificate and hostname
 * verification, or plain http), answered within PROBE_TIMEOUT_MS.
 *
 * The request is written over a socket this module opens itself because the socket must go to the
 * address the SSRF guard approved: resolving the name again inside fetch() would let a DNS answer
 * that changes between check and use (DNS rebinding) reach an internal address. Deno's fetch cannot
 * pin an address while keeping TLS hostname verification, so the probe connects to the approved IP
 * and starts TLS with the URL's hostname. Only the response head is read; the body is never used.
 *
 * Hosts listed in CONNECTION_TEST_ALLOWED_HOSTS skip the address check and are reached by name.
 *
 * For any other host a connection that is refused, reset, closed, unreachable or answered with
 * something that is not HTTP gets one and the same message (NO_HTTP_ANSWER), so that the probe
 * cannot be used to tell open ports from closed ones on someone else's machines. The operator's own
 * allow-listed hosts get the precise reason.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import {
  ALLOWED_HOSTS_ENV,
  ANY_HOST_ENV,
  bareHostname,
  checkEndpointUrl,
  effectivePort,
  isAllowListed,
  refusedAddressReason,
} from "./endpoint_guard.ts";

export const PROBE_TIMEOUT_MS = 5_000;
export const MAX_PROBE_REDIRECTS = 3;
export const MAX_RESPONSE_HEAD_BYTES = 16 * 1024;
const READ_CHUNK_BYTES = 4 * 1024;
const MAX_REASON_PHRASE_LENGTH = 64;
const USER_AGENT = "CentralBankConsole-ConnectionTest/1.0";
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** The configured path does not exist: reachable host, wrong endpoint. */
const MISSING_RESOURCE_STATUSES = new Set([404, 410]);
const FIRST_SERVER_ERROR_STATUS = 500;
const FIRST_FINAL_STATUS = 200;

export interface ProbeOptions {
  allowedHosts: ReadonlySet<string>;
  timeoutMs?: number;
}

export interface ProbeResult {
  success: boolean;
  message: string;
  latencyMs: number;
  /** The final HTTP status, when one was received. */
  statusCode: number | null;
}

interface ResponseHead {
  status: number;
  reason: string;
  location: string | null;
}

/** An expected failure whose message is fit for the operator. */
class ProbeFailure extends Error {}

/** The far end took the connection but gave no usable HTTP answer (precise only for allow-listed hosts). */
class NoHttpAnswer extends ProbeFailure {}

/** The one message, outside the allow-list, for a connection refused, reset, closed or unreachable. */
export function noHttpAnswerMessage(host: string): string {
  return `No HTTP answer from ${host}: the connection was refused, closed or unreachable`;
}

export async function probeEndpoint(endpoint: string, options: ProbeOptions): Promise<ProbeResult> {
  const startedAt = performance.now();
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const result = (success: boolean, message: string, statusCode: number | null = null): ProbeResult => ({
    success,
    message,
    latencyMs: Math.round(performance.now() - startedAt),
    statusCode,
  });

  const checked = checkEndpointUrl(endpoint);
  if (!checked.ok) return result(false, `Invalid endpoint: ${checked.message}`);
  let url = checked.url;
  try {
    for (let redirects = 0;; redirects++) {
      const head = await requestHead(url, options.allowedHosts, signal);
      if (REDIRECT_STATUSES.has(head.status) && head.location !== null) {
        let target: URL;
        try {
          target = new URL(head.location, url);
        } catch {
          return result(false, `Endpoint answered HTTP ${head.status} with an invalid Location`, head.status);
        }
        if (target.origin !== url.origin) {
          return result(
            false,
            `Endpoint redirects to ${target.origin}; redirects to another host are not followed`,
            head.status,
          );
        }
        if (redirects >= MAX_PROBE_REDIRECTS) {
          return result(false, `Endpoint redirected more than ${MAX_PROBE_REDIRECTS} times`, head.status);
        }
        url = target;
        continue;
      }
      const status = `HTTP ${head.status}${head.reason ? ` ${head.reason}` : ""}`;
      if (head.status >= FIRST_SERVER_ERROR_STATUS) {
        return result(false, `Endpoint answered ${status}`, head.status);
      }
      if (MISSING_RESOURCE_STATUSES.has(head.status)) {
        return result(false, `Endpoint answered ${status}: the configured path does not exist`, head.status);
      }
      const transport = url.protocol === "https:" ? "TLS verified" : "plain HTTP, not encrypted";
      return result(true, `Endpoint reachable (${transport}): ${status}`, head.status);
    }
  } catch (error) {
    return result(
      false,
      describeFailure(error, url, signal, timeoutMs, isAllowListed(url, options.allowedHosts)),
    );
  }
}

function permissionMessage(url: URL): string {
  return `This server process has no network permission for ${url.host}: set ${ANY_HOST_ENV}=1 ` +
    `(tests may reach any public host) or list the host in ${ALLOWED_HOSTS_ENV}, then restart the server`;
}

function describeFailure(
  error: unknown,
  url: URL,
  signal: AbortSignal,
  timeoutMs: number,
  allowListed: boolean,
): string {
  // A timeout stays distinct: the latency every answer reports would show it anyway.
  if (signal.aborted || error instanceof Deno.errors.TimedOut) {
    return `No response from ${url.host} within ${timeoutMs} ms`;
  }
  if (error instanceof NoHttpAnswer) return allowListed ? error.message : noHttpAnswerMessage(url.host);
  if (error instanceof ProbeFailure) return error.message;
  if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
    return permissionMessage(url);
  }
  const code = (error as { code?: unknown })?.code;
  if (code === "EPERM") return permissionMessage(url);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ENODATA") {
    return `Host ${bareHostname(url)} could not be resolved`;
  }
  const message = error instanceof Error ? error.message : String(error);
  // A certificate was presented, so a TLS service answered: the operator needs the reason.
  if (error instanceof Deno.errors.InvalidData && /certificate/i.test(message)) {
    return `TLS verification failed for ${bareHostname(url)}: ${message}`;
  }
  if (!allowListed) return noHttpAnswerMessage(url.host);
  if (error instanceof Deno.errors.ConnectionRefused) return `Connection refused by ${url.host}`;
  if (error instanceof Deno.errors.ConnectionReset) return `Connection reset by ${url.host}`;
  if (error instanceof Deno.errors.InvalidData && /tls|handshake/i.test(message)) {
    return `TLS verification failed for ${bareHostname(url)}: ${message}`;
  }
  return `Connection to ${url.host} failed: ${message}`;
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/** The addresses to connect to: the host itself when allow-listed, else its public addresses only. */
async function approvedAddresses(
  url: URL,
  allowedHosts: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<string[]> {
  const hostname = bareHostname(url);
  if (isAllowListed(url, allowedHosts)) return [hostname];
  const hint = `unless ${ALLOWED_HOSTS_ENV} lists ${url.host}`;
  if (isIP(hostname) !== 0) {
    const reason = refusedAddressReason(hostname);
    if (reason !== null) {
      throw new ProbeFailure(
        `Refused: ${hostname} is a ${reason} address, which connection tests may not reach ${hint}`,
      );
    }
    return [hostname];
  }
  const records = await Promise.race([
    lookup(hostname, { all: true, verbatim: true }),
    rejectOnAbort(signal),
  ]);
  if (records.length === 0) throw new ProbeFailure(`Host ${hostname} could not be resolved`);
  // Every address must be public: otherwise the name could steer a retry to an internal one.
  for (const { address } of records) {
    const reason = refusedAddressReason(address);
    if (reason !== null) {
      throw new ProbeFailure(
        `Refused: ${hostname} resolves to ${address}, a ${reason} address, which connection tests may not reach ${hint}`,
      );
    }
  }
  return records.map((record) => record.address);
}

async function connectFirst(addresses: string[], port: number, signal: AbortSignal): Promise<Deno.TcpConn> {
  let lastError: unknown = new ProbeFailure("No address to connect to");
  for (const address of addresses) {
    try {
      return await Deno.connect({ hostname: address, port, signal });
    } catch (error) {
      if (signal.aborted || error instanceof Deno.errors.NotCapable) throw error;
      lastError = error;
    }
  }
  throw lastError;
}

async function requestHead(
  url: URL,
  allowedHosts: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<ResponseHead> {
  const addresses = await approvedAddresses(url, allowedHosts, signal);
  let conn: Deno.Conn = await connectFirst(addresses, effectivePort(url), signal);
  const close = () => {
    try {
      conn.close();
    } catch {
      // Already closed.
    }
  };
  signal.addEventListener("abort", close, { once: true });
  try {
    if (url.protocol === "https:") {
      conn = await Deno.startTls(conn as Deno.TcpConn, { hostname: bareHostname(url) });
      await Promise.race([(conn as Deno.TlsConn).handshake(), rejectOnAbort(signal)]);
    }
    const request = `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n` +
      `User-Agent: ${USER_AGENT}\r\nAccept: */*\r\nConnection: close\r\n\r\n`;
    await writeAll(conn, new TextEncoder().encode(request));
    return await readResponseHead(conn);
  } finally {
    signal.removeEventListener("abort", close);
    close();
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await conn.write(bytes.subarray(written));
}

/** Reads up to the end of the first final (non-1xx) response head. */
async function readResponseHead(conn: Deno.Conn): Promise<ResponseHead> {
  // latin1 maps every byte to one character, so indexes into the text are byte offsets.
  const decoder = new TextDecoder("latin1");
  const chunk = new Uint8Array(READ_CHUNK_BYTES);
  let text = "";
  for (;;) {
    const end = text.indexOf("\r\n\r\n");
    if (end >= 0) {
      const head = parseHead(text.slice(0, end));
      if (head.status >= FIRST_FINAL_STATUS) return head;
      text = text.slice(end + 4);
      continue;
    }
    if (text.length > MAX_RESPONSE_HEAD_BYTES) {
      throw new NoHttpAnswer(`Endpoint sent response headers over ${MAX_RESPONSE_HEAD_BYTES} bytes`);
    }
    const read = await conn.read(chunk);
    if (read === null) {
      throw new NoHttpAnswer(
        text === ""
          ? "Endpoint closed the connection without answering"
          : "Endpoint sent an incomplete HTTP response",
      );
    }
    text += decoder.decode(chunk.subarray(0, read));
  }
}

const STATUS_LINE = /^HTTP\/\d(?:\.\d)? (\d{3})(?: (.*))?$/;

function parseHead(head: string): ResponseHead {
  const [statusLine, ...headerLines] = head.split("\r\n");
  const match = STATUS_LINE.exec(statusLine);
  if (match === null) throw new NoHttpAnswer("Endpoint did not answer with HTTP");
  const location = headerLines.find((line) => /^location:/i.test(line))?.slice("location:".length).trim() ??
    null;
  return {
    status: Number(match[1]),
    // The remote's own words: printable characters only, bounded.
    reason: (match[2] ?? "").replace(/[^\x20-\x7e]/g, "").trim().slice(0, MAX_REASON_PHRASE_LENGTH),
    location,
  };
}
