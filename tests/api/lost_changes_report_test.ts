/**
 * The lost-change report a rebuilt node records on the restored primary: a rebuild's report is
 * recorded once, however often it is tried (a node tries again until it succeeds, and a try whose
 * answer was lost must not record it twice).
 */
import assert from "node:assert/strict";
import { recordLostChanges } from "../../src/server/features/system/lost_changes.ts";
import { createTestApp } from "../helpers/test_app.ts";

Deno.test("a rebuild's lost-change report is recorded once however often it is tried", async () => {
  const t = await createTestApp();
  try {
    const path = t.deps.config.databaseUrl.slice("file:".length);
    const setAsidePath = `${t.dataDir}/diverged-copy.db`;
    // The copy stands for the set-aside replica: the same rows, so nothing is reported lost.
    await t.deps.db.statements.run("PRAGMA wal_checkpoint(TRUNCATE)", []);
    await Deno.copyFile(path, setAsidePath);
    const rebuilt = { reason: "test", detectedAt: new Date().toISOString(), setAsidePath };
    await recordLostChanges(t.deps.db, t.deps.config, rebuilt);
    await recordLostChanges(t.deps.db, t.deps.config, rebuilt);
    const reports = await t.deps.db.statements.all<{ n: number }>(
      "SELECT count(*) AS n FROM divergence_reports WHERE set_aside_path = ?",
      [setAsidePath],
    );
    assert.equal(reports[0].n, 1);
    const trail = await t.deps.db.statements.all<{ n: number }>(
      "SELECT count(*) AS n FROM audit_trail WHERE action = 'replica_rebuilt_after_restore'",
      [],
    );
    assert.equal(trail[0].n, 1);
  } finally {
    await t.close();
  }
});
