/**
 * Outbound HTTP to addresses that people type in (connection tests, webhooks): the server-side
 * request forgery guard and a socket pinned to the address the guard approved.
 *
 * Guard: only http and https; a host resolving to any loopback, private, link-local, unspecified or
 * otherwise non-public address is refused unless the operator lists it in the caller's allow-list
 * ("host" for any port, "host:port" for one port). IPv6 forms that carry an IPv4 address (NAT64,
 * SIIT, 6to4, Teredo) are judged by the address they carry.
 *
 * Pinning: the socket is opened to the address that was checked, with TLS started for the URL's
 * host name, because resolving the name again (as fetch() would) lets a DNS answer that changes
 * between check and use (DNS rebinding) reach an internal address. Deno's fetch cannot pin an
 * address while keeping TLS hostname verification, so the request is written over this socket.
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

/** Non-public ranges, each with the reason shown to the operator. */
const REFUSED_RANGES: [network: string, prefix: number, family: "ipv4" | "ipv6", reason: string][] = [
  ["0.0.0.0", 8, "ipv4", "unspecified"],
  ["10.0.0.0", 8, "ipv4", "private"],
  ["100.64.0.0", 10, "ipv4", "shared address space"],
  ["127.0.0.0", 8, "ipv4", "loopback"],
  ["169.254.0.0", 16, "ipv4", "link-local"],
  ["172.16.0.0", 12, "ipv4", "private"],
  ["192.0.0.0", 24, "ipv4", "protocol assignments"],
  ["192.0.2.0", 24, "ipv4", "documentation"],
  ["192.168.0.0", 16, "ipv4", "private"],
  ["198.18.0.0", 15, "ipv4", "benchmarking"],
  ["198.51.100.0", 24, "ipv4", "documentation"],
  ["203.0.113.0", 24, "ipv4", "documentation"],
  ["224.0.0.0", 4, "ipv4", "multicast"],
  ["240.0.0.0", 4, "ipv4", "reserved"],
  ["::", 128, "ipv6", "unspecified"],
  ["::1", 128, "ipv6", "loopback"],
  // IPv4-compatible (deprecated) addresses embed an IPv4 address the ranges above would refuse.
  ["::", 96, "ipv6", "IPv4-compatible"],
  ["64:ff9b:1::", 48, "ipv6", "local-use NAT64"],
  ["100::", 64, "ipv6", "discard-only"],
  ["2001:db8::", 32, "ipv6", "documentation"],
  ["fc00::", 7, "ipv6", "private"],
  ["fe80::", 10, "ipv6", "link-local"],
  ["ff00::", 8, "ipv6", "multicast"],
];

const REFUSED_LISTS = REFUSED_RANGES.map(([network, prefix, family, reason]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { list, reason };
});

/**
 * Why `address` (an IP literal) may not be probed, or null when it is a public address. Every range
 * is checked whatever its family: BlockList matches IPv4-mapped IPv6 addresses (::ffff:7f00:1)
 * against the IPv4 ranges, which closes the mapped-address bypass. The other IPv6 forms that
 * carry an IPv4 address reach it through a translator or tunnel, so they are refused when the
 * address they carry would be.
 */
export function refusedAddressReason(address: string): string | null {
  const version = isIP(address);
  if (version === 0) return "not an IP address";
  const family = version === 4 ? "ipv4" : "ipv6";
  for (const range of REFUSED_LISTS) {
    if (range.list.check(address, family)) return range.reason;
  }
  if (version === 6) {
    for (const { form, ipv4 } of embeddedIpv4Addresses(address)) {
      const reason = refusedAddressReason(ipv4);
      if (reason !== null) return `${reason} (${form} form of ${ipv4})`;
    }
  }
  return null;
}

const HEXTETS = 8;
const HEXTET = /^[0-9a-f]{1,4}$/i;

/** The eight 16-bit groups of an IPv6 literal (a trailing dotted quad and a zone allowed), or null. */
function ipv6Hextets(address: string): number[] | null {
  let text = address.replace(/%.*$/, "");
  const dotted = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted !== null) {
    if (isIP(dotted[2]) !== 4) return null;
    const [a, b, c, d] = dotted[2].split(".").map(Number);
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  const missing = HEXTETS - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((group) => HEXTET.test(group))) return null;
  return groups.map((group) => parseInt(group, 16));
}

function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/**
 * The IPv4 addresses an IPv6 address carries, by prefix: NAT64 64:ff9b::/96 (RFC 6052), SIIT
 * ::ffff:0:0:0/96 (RFC 6145), 6to4 2002::/16 (RFC 3056, bits 16-47) and Teredo 2001::/32
 * (RFC 4380: the server at bits 32-63, the client's public address inverted in the last 32 bits).
 * IPv4-compatible ::/96, IPv4-mapped ::ffff:0:0/96 and local-use NAT64 64:ff9b:1::/48 are refused
 * (or matched) by the ranges above.
 */
export function embeddedIpv4Addresses(address: string): { form: string; ipv4: string }[] {
  const h = ipv6Hextets(address);
  if (h === null) return [];
  const zeros = (from: number, to: number) => h.slice(from, to).every((group) => group === 0);
  if (h[0] === 0x64 && h[1] === 0xff9b && zeros(2, 6)) {
    return [{ form: "NAT64 64:ff9b::/96", ipv4: ipv4Of(h[6], h[7]) }];
  }
  if (zeros(0, 4) && h[4] === 0xffff && h[5] === 0) {
    return [{ form: "SIIT ::ffff:0:0:0/96", ipv4: ipv4Of(h[6], h[7]) }];
  }
  if (h[0] === 0x2002) return [{ form: "6to4 2002::/16", ipv4: ipv4Of(h[1], h[2]) }];
  if (h[0] === 0x2001 && h[1] === 0) {
    return [
      { form: "Teredo 2001::/32 client", ipv4: ipv4Of(h[6] ^ 0xffff, h[7] ^ 0xffff) },
      { form: "Teredo 2001::/32 server", ipv4: ipv4Of(h[2], h[3]) },
    ];
  }
  return [];
}

/** "a.example, 127.0.0.1:8443" → {"a.example", "127.0.0.1:8443"} (lower case). */
export function parseAllowedHosts(raw: string | undefined): ReadonlySet<string> {
  return new Set((raw ?? "").split(",").map((entry) => entry.trim().toLowerCase()).filter(Boolean));
}

export function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol];
}

/** The URL's hostname without IPv6 brackets, as DNS and sockets expect it. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

export function isAllowListed(url: URL, allowedHosts: ReadonlySet<string>): boolean {
  const host = url.hostname.toLowerCase();
  return allowedHosts.has(host) || allowedHosts.has(`${host}:${effectivePort(url)}`);
}

export type EndpointCheck = { ok: true; url: URL } | { ok: false; message: string };

/** Syntax-level rules for a stored endpoint: absolute http(s) URL, no embedded user or password. */
export function checkEndpointUrl(raw: string): EndpointCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: "Must be an absolute URL such as https://api.partner.example/v1" };
  }
  if (!(url.protocol in DEFAULT_PORTS)) {
    return {
      ok: false,
      message: `Only http and https endpoints are allowed, got ${url.protocol.replace(/:$/, "")}`,
    };
  }
  // Userinfo would be stored and listed in clear; credentials belong in credentialsConfig.
  if (url.username || url.password) {
    return {
      ok: false,
      message: "Must not contain a user name or password; put credentials in credentialsConfig",
    };
  }
  if (url.hostname === "") return { ok: false, message: "Must name a host" };
  return { ok: true, url };
}

/** An expected failure whose message is fit for the operator. */
export class OutboundFailure extends Error {}

/** The far end took the connection but gave no usable HTTP answer. */
export class NoHttpAnswer extends OutboundFailure {}

/** Who may reach what: the caller's allow-list and the words its refusals use. */
export interface OutboundPolicy {
  allowedHosts: ReadonlySet<string>;
  /** Who is refused, in messages: "connection tests", "webhooks". */
  purpose: string;
  /** The setting that lists the allowed hosts, in messages. */
  allowListSetting: string;
}

export function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/** The addresses to connect to: the host itself when allow-listed, else its public addresses only. */
export async function approvedAddresses(url: URL, policy: OutboundPolicy, signal: AbortSignal): Promise<string[]> {
  const hostname = bareHostname(url);
  if (isAllowListed(url, policy.allowedHosts)) return [hostname];
  const hint = `unless ${policy.allowListSetting} lists ${url.host}`;
  if (isIP(hostname) !== 0) {
    const reason = refusedAddressReason(hostname);
    if (reason !== null) {
      throw new OutboundFailure(
        `Refused: ${hostname} is a ${reason} address, which ${policy.purpose} may not reach ${hint}`,
      );
    }
    return [hostname];
  }
  const records = await Promise.race([
    lookup(hostname, { all: true, verbatim: true }),
    rejectOnAbort(signal),
  ]);
  if (records.length === 0) throw new OutboundFailure(`Host ${hostname} could not be resolved`);
  // Every address must be public: otherwise the name could steer a retry to an internal one.
  for (const { address } of records) {
    const reason = refusedAddressReason(address);
    if (reason !== null) {
      throw new OutboundFailure(
        `Refused: ${hostname} resolves to ${address}, a ${reason} address, which ${policy.purpose} may not reach ${hint}`,
      );
    }
  }
  return records.map((record) => record.address);
}

async function connectFirst(addresses: string[], port: number, signal: AbortSignal): Promise<Deno.TcpConn> {
  let lastError: unknown = new OutboundFailure("No address to connect to");
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

/**
 * Runs `use` over a connection to an address the guard approved (TLS with certificate and hostname
 * verification for https), closed afterwards and as soon as `signal` aborts.
 */
export async function withPinnedConnection<T>(
  url: URL,
  policy: OutboundPolicy,
  signal: AbortSignal,
  use: (conn: Deno.Conn) => Promise<T>,
): Promise<T> {
  const addresses = await approvedAddresses(url, policy, signal);
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
    return await Promise.race([use(conn), rejectOnAbort(signal)]);
  } finally {
    signal.removeEventListener("abort", close);
    close();
  }
}

export async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await conn.write(bytes.subarray(written));
}

export const MAX_RESPONSE_HEAD_BYTES = 16 * 1024;
const READ_CHUNK_BYTES = 4 * 1024;
const MAX_REASON_PHRASE_LENGTH = 64;
const FIRST_FINAL_STATUS = 200;

export interface ResponseHead {
  status: number;
  reason: string;
  /** Header values by lower-case name (the last one of a repeated header). */
  headers: ReadonlyMap<string, string>;
  /** The bytes read past the head: the start of the body. */
  rest: Uint8Array;
}

/** Reads up to the end of the first final (non-1xx) response head. */
export async function readResponseHead(conn: Deno.Conn): Promise<ResponseHead> {
  // latin1 maps every byte to one character, so indexes into the text are byte offsets.
  const decoder = new TextDecoder("latin1");
  const chunk = new Uint8Array(READ_CHUNK_BYTES);
  let text = "";
  for (;;) {
    const end = text.indexOf("\r\n\r\n");
    if (end >= 0) {
      const rest = Uint8Array.from(text.slice(end + 4), (char) => char.charCodeAt(0));
      const head = parseHead(text.slice(0, end), rest);
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

function parseHead(head: string, rest: Uint8Array): ResponseHead {
  const [statusLine, ...headerLines] = head.split("\r\n");
  const match = STATUS_LINE.exec(statusLine);
  if (match === null) throw new NoHttpAnswer("Endpoint did not answer with HTTP");
  const headers = new Map<string, string>();
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return {
    status: Number(match[1]),
    // The remote's own words: printable characters only, bounded.
    reason: (match[2] ?? "").replace(/[^\x20-\x7e]/g, "").trim().slice(0, MAX_REASON_PHRASE_LENGTH),
    headers,
    rest,
  };
}

/** The one message, outside the allow-list, for a connection refused, reset, closed or unreachable. */
export function noHttpAnswerMessage(host: string): string {
  return `No HTTP answer from ${host}: the connection was refused, closed or unreachable`;
}

export interface FailureContext {
  /** The request's time ran out. */
  aborted: boolean;
  timeoutMs: number;
  /** The operator's own host: the precise reason is shown. */
  allowListed: boolean;
  /** What to say when the process may not open the socket (the caller's setting names differ). */
  permissionMessage: string;
}

/**
 * The operator's message for a failed outbound request. For a host that is not allow-listed a
 * refused, reset, closed or non-HTTP connection gets one message, so that the answers cannot be used
 * to tell open ports from closed ones on someone else's machines.
 */
export function describeOutboundFailure(error: unknown, url: URL, context: FailureContext): string {
  // A timeout stays distinct: the latency every answer reports would show it anyway.
  if (context.aborted || error instanceof Deno.errors.TimedOut) {
    return `No response from ${url.host} within ${context.timeoutMs} ms`;
  }
  if (error instanceof NoHttpAnswer) return context.allowListed ? error.message : noHttpAnswerMessage(url.host);
  if (error instanceof OutboundFailure) return error.message;
  const code = (error as { code?: unknown })?.code;
  if (
    error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied || code === "EPERM"
  ) {
    return context.permissionMessage;
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ENODATA") {
    return `Host ${bareHostname(url)} could not be resolved`;
  }
  const message = error instanceof Error ? error.message : String(error);
  // A certificate was presented, so a TLS service answered: the operator needs the reason.
  if (error instanceof Deno.errors.InvalidData && /certificate/i.test(message)) {
    return `TLS verification failed for ${bareHostname(url)}: ${message}`;
  }
  if (!context.allowListed) return noHttpAnswerMessage(url.host);
  if (error instanceof Deno.errors.ConnectionRefused) return `Connection refused by ${url.host}`;
  if (error instanceof Deno.errors.ConnectionReset) return `Connection reset by ${url.host}`;
  if (error instanceof Deno.errors.InvalidData && /tls|handshake/i.test(message)) {
    return `TLS verification failed for ${bareHostname(url)}: ${message}`;
  }
  return `Connection to ${url.host} failed: ${message}`;
}
