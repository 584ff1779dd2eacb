/**
 * System Settings on the replicated topology, against real sqld and consoles: "Back up now" at
 * headquarters copies the primary by `deno task backup`'s code (a manifest naming the primary's log
 * and frame, a copy holding the settings row), a regional node takes no backup, and a setting
 * changed at headquarters applies at a regional node once its replica has it.
 */
import assert from "node:assert/strict";
import NativeDatabase from "libsql";
import { BACKUP_FILE, digestFile, readManifest } from "../../src/server/backup/manifest.ts";
import { call, signIn, startCluster, within } from "./support/cluster.ts";

const GENERAL = {
  systemName: "Reserve Bank Registry",
  systemDescription: "",
  countryCode: "GB",
  currency: "GBP",
  timezone: "GMT",
  language: "en",
};
const REPLICATION_WAIT_MS = 15_000;
const BACKUP_WAIT_MS = 60_000;

Deno.test({
  name:
    "settings on the replicated topology: headquarters backs up the primary (a regional node's Back up now runs there) and a regional node reads the change",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const cluster = await startCluster({ regions: ["north"] });
    try {
      const hq = cluster.headquarters.baseUrl;
      const north = cluster.regions[0].server.baseUrl;
      const admin = await signIn(hq);
      assert.equal((await call(hq, "PUT", "/api/settings/general", admin, GENERAL)).status, 200);

      const started = await call(hq, "POST", "/api/settings/backup/run", admin);
      assert.equal(started.status, 202, JSON.stringify(started.body));
      await within(
        BACKUP_WAIT_MS,
        async () => (await call(hq, "GET", "/api/settings", admin)).body.backup.lastRun.status !== "running",
      );
      const run = { body: (await call(hq, "GET", "/api/settings", admin)).body.backup.lastRun };
      assert.equal(run.body.status, "completed", run.body.error);
      const manifest = await readManifest(run.body.folder);
      assert.ok(
        manifest.logId !== null && manifest.frameNo !== null,
        "a copy of the primary names its log and frame",
      );
      assert.equal(manifest.sourceUrl, new URL(cluster.primary.url).toString());
      assert.deepEqual(await digestFile(`${run.body.folder}/${BACKUP_FILE}`), {
        sha256: manifest.sha256,
        sizeBytes: manifest.sizeBytes,
      });
      const copy = new NativeDatabase(`${run.body.folder}/${BACKUP_FILE}`, { readonly: true });
      try {
        const row = copy.prepare("SELECT system_name AS name FROM system_settings WHERE id = 1").get() as {
          name: string;
        };
        assert.equal(row.name, "Reserve Bank Registry");
      } finally {
        copy.close();
      }

      const regional = await signIn(north);
      await within(
        REPLICATION_WAIT_MS,
        async () =>
          (await call(north, "GET", "/api/settings", regional)).body.systemName === "Reserve Bank Registry",
      );
      const there = await call(north, "GET", "/api/settings", regional);
      assert.equal(there.body.backup.takesBackups, false);
      assert.equal(there.body.backup.lastRun.id, run.body.id, "the run recorded at headquarters, replicated");
      // "Back up now" at a regional node is a change, so it runs at headquarters, which copies the primary.
      const forwarded = await call(north, "POST", "/api/settings/backup/run", regional);
      assert.equal(forwarded.status, 202, JSON.stringify(forwarded.body));
      await within(
        BACKUP_WAIT_MS,
        async () =>
          (await call(hq, "GET", "/api/settings", admin)).body.backup.lastRun.status === "completed",
      );
      const second = (await call(hq, "GET", "/api/settings", admin)).body.backup.lastRun;
      assert.equal(second.id, forwarded.body.id);
      assert.ok(second.folder.startsWith(cluster.dir), "written under headquarters' data folder");
    } finally {
      await cluster.stop();
    }
  },
});
