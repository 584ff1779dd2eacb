/** The request log's rows (src/server/api_access/request_log_rows.ts): long answers logged as previews. */
import assert from "node:assert/strict";
import {
  type CapturedRequest,
  logRowInserts,
  logRowsInsertFromJson,
  logRowsOf,
} from "../../src/server/api_access/request_log_rows.ts";
import { MAX_LOGGED_PAYLOAD_CHARS, REDACTED } from "../../src/domain/redaction.ts";
import { createTestApp } from "../helpers/test_app.ts";

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

Deno.test("rows sent to the primary as one JSON text are stored exactly as rows sent value by value", async () => {
  const t = await createTestApp();
  try {
    const user = (await t.deps.db.statements.get<{ id: string }>("SELECT id FROM users LIMIT 1", []))!.id;
    const entries: CapturedRequest[] = Array.from({ length: 120 }, (_, i) => ({
      ...entry(i % 2 === 0 ? '{"id":"x","note":"caf\u00e9 \u20ac \ud83d\ude00 \\ "q""}' : ""),
      endpoint: `/api/institutions/${i}?q=${encodeURIComponent("a'b\"c")}`,
      method: i % 3 === 0 ? "POST" : "GET",
      userAgent: i % 4 === 0 ? null : `agent ${i} \u0001`,
      responseStatus: 200 + (i % 5) * 100,
      responseTimeMs: i * 1_000,
      body: i % 5 === 0 ? { kind: "value", value: { password: "hunter2", n: i } } : null,
      userId: i % 2 === 0 ? user : null,
    }));
    const rows = logRowsOf(entries);
    const half = rows.length / 2;
    await t.deps.db.writeBatch(logRowInserts(rows.slice(0, half)));
    await t.deps.db.writeBatch([logRowsInsertFromJson(rows.slice(half).map((row) => JSON.stringify(row)))]);
    const stored = await t.deps.db.statements.all<Record<string, unknown>>(
      `SELECT id, endpoint, method, client_ip, user_agent, response_status, response_time, request_payload,
        response_payload, api_key_id, user_id, created_at,
        typeof(response_status) AS status_type, typeof(response_time) AS time_type, typeof(user_agent) AS agent_type
        FROM api_logs WHERE id IN (${rows.map(() => "?").join(", ")})`,
      rows.map((row) => row[0]),
    );
    const byId = new Map(stored.map((row) => [row.id, row]));
    for (const [i, row] of rows.entries()) {
      const got = byId.get(row[0]);
      assert.ok(got, `row ${i} stored`);
      assert.deepEqual(
        [
          got.id,
          got.endpoint,
          got.method,
          got.client_ip,
          got.user_agent,
          got.response_status,
          got.response_time,
          got.request_payload,
          got.response_payload,
          got.api_key_id,
          got.user_id,
          got.created_at,
        ],
        row,
        `row ${i}`,
      );
      assert.deepEqual([got.status_type, got.time_type], ["integer", "integer"]);
      assert.equal(got.agent_type, row[4] === null ? "null" : "text");
    }
  } finally {
    await t.close();
  }
});
