/**
 * The client address of a request behind reverse proxies. `X-Forwarded-For` is written left to
 * right by the client and then by each proxy, so only its right-most entries, the ones the
 * trusted proxies appended, can be believed: the client address is the right-most address that is
 * not a trusted proxy (proxy-addr, the library Express uses for the same rule). TRUST_PROXY names
 * the trusted proxies as addresses and CIDR ranges (or proxy-addr's names loopback, linklocal,
 * uniquelocal), comma-separated, or as a count of proxy hops in front of the server.
 */
import proxyaddr from "proxy-addr";

/** Trusts the address seen `hop` steps back from the socket (0 = the socket's peer). */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** Entries longer than any textual IPv6 address are not addresses; this also bounds what is stored. */
const MAX_ADDRESS_LENGTH = 45;
const MAX_TRUSTED_PROXIES = 100;

export function parseTrustProxy(raw: string | undefined): ProxyTrust | null {
  const value = raw?.trim() ?? "";
  if (value === "" || value === "0" || value === "false") return null;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  const entries = value.split(",").map((entry) => entry.trim()).filter(Boolean);
  if (entries.length > MAX_TRUSTED_PROXIES) {
    throw new Error(`TRUST_PROXY lists more than ${MAX_TRUSTED_PROXIES} proxies`);
  }
  try {
    return proxyaddr.compile(entries);
  } catch (error) {
    throw new Error(
      `TRUST_PROXY must be a count of proxies or a comma-separated list of addresses and CIDR ranges: ${
        (error as Error).message
      }`,
    );
  }
}

/** The right-most address of peer + X-Forwarded-For that is not a trusted proxy. */
export function clientAddress(
  peer: string | null,
  forwardedFor: string | undefined,
  trust: ProxyTrust | null,
): string | null {
  if (peer === null) return null;
  if (trust === null || !forwardedFor) return peer;
  const request = { connection: { remoteAddress: peer }, headers: { "x-forwarded-for": forwardedFor } };
  const address = proxyaddr(request as unknown as Parameters<typeof proxyaddr>[0], trust);
  return address.slice(0, MAX_ADDRESS_LENGTH);
}
