/** JSON over HTTPS to a provider, bounded by a timeout that covers the whole exchange, body included. */

export type HttpOutcome =
  | { kind: "response"; status: number; body: unknown }
  | { kind: "timeout" }
  | { kind: "network"; message: string };

export interface PostJsonOptions {
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  /** A Deno client carrying a TLS client certificate (mutual TLS). */
  client?: Deno.HttpClient;
}

export async function postJson(url: string, options: PostJsonOptions): Promise<HttpOutcome> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...options.headers },
      body: JSON.stringify(options.body),
      signal,
      ...(options.client ? { client: options.client } : {}),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // A non-JSON body (an HTML error page from a proxy) is kept as text for the error message.
      body = text;
    }
    return { kind: "response", status: res.status, body };
  } catch (error) {
    if (signal.aborted) return { kind: "timeout" };
    return { kind: "network", message: error instanceof Error ? error.message : String(error) };
  }
}

export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path}`;
}
