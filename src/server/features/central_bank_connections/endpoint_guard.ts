/**
 * Server-side request forgery guard for connection tests: which URLs may be probed and which
 * addresses they may reach. Only http and https; a host resolving to any loopback, private,
 * link-local, unspecified or otherwise non-public address is refused unless the operator lists it
 * in CONNECTION_TEST_ALLOWED_HOSTS ("host" for any port, "host:port" for one port).
 */
import { BlockList, isIP } from "node:net";

export const ALLOWED_HOSTS_ENV = "CONNECTION_TEST_ALLOWED_HOSTS";
export const ANY_HOST_ENV = "CONNECTION_TEST_ANY_HOST";

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
 * against the IPv4 ranges, which closes the mapped-address bypass.
 */
export function refusedAddressReason(address: string): string | null {
  const version = isIP(address);
  if (version === 0) return "not an IP address";
  const family = version === 4 ? "ipv4" : "ipv6";
  for (const range of REFUSED_LISTS) {
    if (range.list.check(address, family)) return range.reason;
  }
  return null;
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
