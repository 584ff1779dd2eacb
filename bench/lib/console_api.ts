/** The console API calls the HTTP benchmarks make for their setup (API keys), signed in by cookie. */
import type { TestServer } from "./servers.ts";

const KEY_CREATION_PARALLELISM = 8;

export async function api(server: TestServer, cookie: string, method: string, path: string, body?: unknown) {
  return await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The key's secret from POST /api/api-keys, whatever the field is called (shown once at creation). */
function findSecret(value: unknown): string | null {
  if (value && typeof value === "object") {
    for (const [name, field] of Object.entries(value)) {
      if (typeof field === "string" && /^(key|apiKey|secret|token|plaintext|plainKey)$/i.test(name)) {
        return field;
      }
      const nested = findSecret(field);
      if (nested) return nested;
    }
  }
  return null;
}

/** Creates `count` API keys, a few at a time; null when the API-keys feature is not mounted. */
export async function createApiKeys(
  server: TestServer,
  cookie: string,
  count: number,
): Promise<string[] | null> {
  const keys: string[] = [];
  while (keys.length < count) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(KEY_CREATION_PARALLELISM, count - keys.length) }, async () => {
        const res = await api(server, cookie, "POST", "/api/api-keys", {
          name: `bench-${crypto.randomUUID().slice(0, 8)}`,
        });
        if (res.status !== 201 && res.status !== 200) {
          await res.body?.cancel();
          return null;
        }
        return findSecret(await res.json());
      }),
    );
    if (batch.some((key) => key === null)) return keys.length > 0 ? keys : null;
    keys.push(...(batch as string[]));
  }
  return keys;
}
