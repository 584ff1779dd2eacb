import assert from "node:assert/strict";
import { removeStaleReportParts, reportsDir, STALE_PART_FILE_AGE_MS } from "../../src/server/features/reports/service.ts";
import { createTestApp } from "../helpers/test_app.ts";

Deno.test("removeStaleReportParts() deletes unfinished report files left by a crash, but not fresh ones", async () => {
  const t = await createTestApp();
  try {
    const dir = reportsDir(t.deps.config);
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(`${dir}/old.csv.part`, "half a report");
    await Deno.writeTextFile(`${dir}/fresh.csv.part`, "being written");
    await Deno.writeTextFile(`${dir}/done.csv`, "a finished report");
    const past = new Date(Date.now() - STALE_PART_FILE_AGE_MS - 60_000);
    await Deno.utime(`${dir}/old.csv.part`, past, past);
    assert.equal(await removeStaleReportParts(t.deps.config, () => {}), 1);
    const left = [];
    for await (const entry of Deno.readDir(dir)) left.push(entry.name);
    assert.deepEqual(left.sort(), ["done.csv", "fresh.csv.part"]);
  } finally {
    await t.close();
  }
});
