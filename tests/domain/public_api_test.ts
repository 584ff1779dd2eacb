import assert from "node:assert/strict";
import {
  API_KEY_ALPHABET,
  API_KEY_PREFIX,
  API_KEY_SECRET_LENGTH,
  DOCUMENTED_ENDPOINTS,
  encodeApiKey,
  endpointId,
  findDocumentedEndpoint,
  fixedWindow,
  isWellFormedApiKey,
  pathShape,
  RATE_LIMIT_WINDOW_MS,
  visibleKeyPrefix,
} from "../../src/domain/public_api.ts";

Deno.test("DOCUMENTED_ENDPOINTS are spec 7's six endpoints with their hourly limits, then the directory's downloads", () => {
  assert.deepEqual(DOCUMENTED_ENDPOINTS.slice(0, 6).map((e) => [endpointId(e), e.limitPerHour]), [
    ["GET /api/institutions", 100],
    ["GET /api/institutions/{id}", 200],
    ["GET /api/routing-codes/{code}", 500],
    ["GET /api/swift-codes/{bic}", 500],
    ["POST /api/iban/validate", 1000],
    ["GET /api/search", 200],
  ]);
  assert.deepEqual(
    DOCUMENTED_ENDPOINTS.slice(6).map((e) => [endpointId(e), e.limitPerHour, e.file ?? null]),
    [
      ["GET /api/directory/editions", 100, null],
      ["GET /api/directory/editions/{n}/manifest.json", 200, "application/json"],
      ["GET /api/directory/editions/{n}/manifest.json.sig", 200, "application/octet-stream"],
      ["GET /api/directory/editions/{n}/manifest.json.jws", 200, "application/jose"],
      ["GET /api/directory/editions/{n}/full.csv", 24, "text/csv; charset=utf-8"],
      ["GET /api/directory/editions/{n}/delta.csv", 100, "text/csv; charset=utf-8"],
      ["GET /api/directory/editions/{n}/full.txt", 24, "text/plain; charset=utf-8"],
      ["GET /api/directory/editions/{n}/delta.txt", 100, "text/plain; charset=utf-8"],
      ["GET /api/directory/public-key.pem", 100, "application/x-pem-file"],
      ["GET /api/directory/public-key.jwk", 100, "application/jwk+json"],
    ],
  );
});

Deno.test("findDocumentedEndpoint() matches Hono route patterns whatever the parameter is called", () => {
  assert.equal(findDocumentedEndpoint("GET", "/api/routing-codes/:routingCode")?.limitPerHour, 500);
  assert.equal(findDocumentedEndpoint("GET", "/api/swift-codes/:bic{[A-Z0-9]+}")?.limitPerHour, 500);
  assert.equal(findDocumentedEndpoint("HEAD", "/api/institutions")?.limitPerHour, 100);
  assert.equal(findDocumentedEndpoint("POST", "/api/institutions"), undefined);
  assert.equal(findDocumentedEndpoint("GET", "/api/routing-codes"), undefined);
  assert.equal(findDocumentedEndpoint("PATCH", "/api/institutions/:id"), undefined);
  assert.equal(findDocumentedEndpoint("GET", "/api/institutions/:id/status"), undefined);
  assert.equal(pathShape("/api/institutions/{id}"), pathShape("/api/institutions/:institutionId"));
});

Deno.test("encodeApiKey() gives the prefix and 43 base62 characters, skipping biased bytes", () => {
  const bytes = [255, 254, 248, 0, 61, 62, 247];
  let call = 0;
  const key = encodeApiKey((count) => Uint8Array.from({ length: count }, () => bytes[call++ % bytes.length]));
  assert(key.startsWith(API_KEY_PREFIX));
  const secret = key.slice(API_KEY_PREFIX.length);
  assert.equal(secret.length, API_KEY_SECRET_LENGTH);
  assert.equal(
    secret.slice(0, 4),
    `${API_KEY_ALPHABET[0]}${API_KEY_ALPHABET[61]}${API_KEY_ALPHABET[0]}${API_KEY_ALPHABET[247 % 62]}`,
  );
  assert(isWellFormedApiKey(key));
  assert.equal(visibleKeyPrefix(key), key.slice(0, API_KEY_PREFIX.length + 4));
  assert(API_KEY_SECRET_LENGTH * Math.log2(API_KEY_ALPHABET.length) >= 256);
});

Deno.test("encodeApiKey() with a real random source uses the whole alphabet evenly", () => {
  const counts = new Map<string, number>();
  const keys = 2_000;
  for (let i = 0; i < keys; i++) {
    const secret = encodeApiKey((n) => crypto.getRandomValues(new Uint8Array(n))).slice(
      API_KEY_PREFIX.length,
    );
    for (const ch of secret) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  assert.equal(counts.size, API_KEY_ALPHABET.length);
  const expected = (keys * API_KEY_SECRET_LENGTH) / API_KEY_ALPHABET.length;
  for (const [ch, n] of counts) assert(Math.abs(n - expected) < expected * 0.2, `${ch}: ${n} vs ${expected}`);
});

Deno.test("isWellFormedApiKey() refuses other prefixes, lengths and characters", () => {
  const good = `${API_KEY_PREFIX}${"a".repeat(API_KEY_SECRET_LENGTH)}`;
  assert(isWellFormedApiKey(good));
  for (
    const bad of [
      good.slice(1),
      `${good}a`,
      good.slice(0, -1),
      good.replace(/a$/, "-"),
      `cbr_test_${"a".repeat(43)}`,
      "",
    ]
  ) {
    assert(!isWellFormedApiKey(bad), bad);
  }
});

Deno.test("fixedWindow() is the UTC clock hour: it starts on the hour and resets at the next", () => {
  const at = Date.UTC(2026, 5, 30, 23, 59, 59, 999);
  assert.deepEqual(fixedWindow(at), { startMs: Date.UTC(2026, 5, 30, 23), resetMs: Date.UTC(2026, 6, 1, 0) });
  assert.deepEqual(fixedWindow(Date.UTC(2026, 6, 1)), {
    startMs: Date.UTC(2026, 6, 1),
    resetMs: Date.UTC(2026, 6, 1, 1),
  });
  assert.equal(RATE_LIMIT_WINDOW_MS, 3_600_000);
});
