/** The request log's rows (src/server/api_access/request_log_rows.ts): long answers logged as previews. */
import assert from "node:assert/strict";
import { type CapturedRequest, logRowsOf } from "../../src/server/api_access/request_log_rows.ts";
import { MAX_LOGGED_PAYLOAD_CHARS, REDACTED } from "../../src/domain/redaction.ts";

const RESPONSE_PAYLOAD = 8;

function entry(response: string): CapturedRequest {
  return {
    endpoint: "/api/institutions",
    method: "GET",
    clientIp: "127.0.0.1",
    userAgent: null,
    responseStatus: 200,
    responseTimeMs: 1,
    query: null,
    body: null,
    response,
    apiKeyId: null,
    userId: null,
    createdAtMs: Date.now(),
  };
}

const longAnswer = (label: string, secret: string) =>
  JSON.stringify({
    data: Array.from({ length: 400 }, (_, i) => ({ id: i, name: `${label} ${i}`, apiKey: secret })),
  });

Deno.test("a long answer logged again gives the same redacted preview; another answer gets its own", () => {
  const first = longAnswer("Bank", "s3cret-one");
  const second = longAnswer("Branch", "s3cret-two");
  assert.ok(first.length > MAX_LOGGED_PAYLOAD_CHARS);
  // A copy with the same text, as a new string: the same logged form.
  const rows = logRowsOf([entry(first), entry(first.slice(0)), entry(second), entry(first)]);
  const payloads = rows.map((row) => JSON.parse(String(row[RESPONSE_PAYLOAD])));
  for (const payload of payloads) {
    assert.equal(payload.truncated, true);
    assert.equal(payload.originalLength > MAX_LOGGED_PAYLOAD_CHARS, true);
    assert.ok(payload.preview.includes(REDACTED));
    assert.ok(!payload.preview.includes("s3cret"));
  }
  assert.deepEqual(payloads[1], payloads[0]);
  assert.deepEqual(payloads[3], payloads[0]);
  assert.ok(payloads[2].preview.includes('"name":"Branch 0"'));
  assert.notEqual(payloads[2].preview, payloads[0].preview);
});
