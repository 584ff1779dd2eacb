/** Issue 23: the API Management charts' aggregation: requests and errors per hour per key. */
import assert from "node:assert/strict";
import { apiLogs } from "../../db/schema.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";
import { createKey } from "./api_access_helpers.ts";

const MS_PER_HOUR = 3_600_000;

async function log(t: TestApp, apiKeyId: string, createdAt: Date, responseStatus = 200) {
  await t.deps.db.transaction((tx) =>
    tx.insert(apiLogs).values({
      id: crypto.randomUUID(),
      endpoint: "/api/iban/validate",
      method: "POST",
      responseStatus,
      apiKeyId,
      createdAt: createdAt.toISOString(),
    })
  );
}

Deno.test("GET /api/api-logs/charts counts requests and errors per UTC hour for each key over 24 hours", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const clearing = await createKey(t, cookie, { name: "Clearing" });
    const treasury = await createKey(t, cookie, { name: "Treasury" });
    const now = new Date();
    const twoHoursAgo = new Date(now.getTime() - 2 * MS_PER_HOUR);
    await log(t, clearing.id, twoHoursAgo);
    await log(t, clearing.id, twoHoursAgo, 429);
    await log(t, clearing.id, now, 500);
    await log(t, treasury.id, now);
    await log(t, treasury.id, new Date(now.getTime() - 30 * MS_PER_HOUR)); // outside the window

    const charts = await expectJson(await t.as(cookie)("GET", "/api/api-logs/charts"), 200);
    assert.equal(charts.hours.length, 24);
    assert.equal(charts.hours.at(-1), now.toISOString().slice(0, 13));
    const byName = new Map(charts.keys.map((key: { name: string }) => [key.name, key]));
    const c = byName.get("Clearing") as { requests: number[]; errors: number[] };
    assert.deepEqual([c.requests.at(-3), c.errors.at(-3), c.requests.at(-1), c.errors.at(-1)], [2, 1, 1, 1]);
    assert.equal(c.requests.reduce((a, b) => a + b, 0), 3);
    const tr = byName.get("Treasury") as { requests: number[] };
    assert.equal(tr.requests.reduce((a, b) => a + b, 0), 1);
    assert.deepEqual(charts.keys.slice(0, 2).map((key: { name: string }) => key.name), [
      "Clearing",
      "Treasury",
    ]);

    await expectJson(await t.request("GET", "/api/api-logs/charts"), 401);
  } finally {
    await t.close();
  }
});
