/**
 * The live test of a partner endpoint: one HTTP/1.1 GET (https with certificate and hostname
 * verification, or plain http), answered within PROBE_TIMEOUT_MS.
 *
 * The request goes over a socket pinned to the address the SSRF guard approved (http/outbound.ts),
 * so a DNS answer that changes between check and use cannot reach an internal address. Only the
 * response head is read; the body is never used.
 *
 * Hosts listed in CONNECTION_TEST_ALLOWED_HOSTS skip the address check and are reached by name.
 *
 * For any other host a connection that is refused, reset, closed, unreachable or answered with
 * something that is not HTTP gets one and the same message (noHttpAnswerMessage in http/outbound.ts),
 * so that the probe cannot be used to tell open ports from closed ones on someone else's machines.
 * The operator's own allow-listed hosts get the precise reason.
 */
import {
  checkEndpointUrl,
  describeOutboundFailure,
  isAllowListed,
  type OutboundPolicy,
  readResponseHead,
  withPinnedConnection,
  writeAll,
} from "../../http/outbound.ts";
import { ALLOWED_HOSTS_ENV, ANY_HOST_ENV } from "./settings.ts";

export const PROBE_TIMEOUT_MS = 5_000;
export const MAX_PROBE_REDIRECTS = 3;
const USER_AGENT = "CentralBankConsole-ConnectionTest/1.0";
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** The configured path does not exist: reachable host, wrong endpoint. */
const MISSING_RESOURCE_STATUSES = new Set([404, 410]);
const FIRST_SERVER_ERROR_STATUS = 500;

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
      const location = head.headers.get("location");
      if (REDIRECT_STATUSES.has(head.status) && location !== undefined) {
        let target: URL;
        try {
          target = new URL(location, url);
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
      describeOutboundFailure(error, url, {
        aborted: signal.aborted,
        timeoutMs,
        allowListed: isAllowListed(url, options.allowedHosts),
        permissionMessage: permissionMessage(url),
      }),
    );
  }
}

function permissionMessage(url: URL): string {
  return `This server process has no network permission for ${url.host}: set ${ANY_HOST_ENV}=1 ` +
    `(tests may reach any public host) or list the host in ${ALLOWED_HOSTS_ENV}, then restart the server`;
}

async function requestHead(url: URL, allowedHosts: ReadonlySet<string>, signal: AbortSignal) {
  const policy: OutboundPolicy = { allowedHosts, purpose: "connection tests", allowListSetting: ALLOWED_HOSTS_ENV };
  return await withPinnedConnection(url, policy, signal, async (conn) => {
    const request = `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n` +
      `User-Agent: ${USER_AGENT}\r\nAccept: */*\r\nConnection: close\r\n\r\n`;
    await writeAll(conn, new TextEncoder().encode(request));
    return await readResponseHead(conn);
  });
}
