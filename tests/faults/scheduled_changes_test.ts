/**
 * Scheduled registry changes never take effect twice: two server processes on one standalone
 * database both run the scheduler every second over the same due versions, and one of them is
 * SIGKILLed in the middle of applying a batch and started again. Each version is claimed by the
 * `applied_at IS NULL` guard in the transaction that writes it and its audit row
 * (registry_history/scheduler.ts), so every version is applied, each exactly once.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { SYSTEM_USER_ID } from "../../db/schema.ts";
import { type Database, openDatabase } from "../../src/server/db/database.ts";
import { SCHEDULED_CHANGE_ACTION } from "../../src/server/registry_history/scheduler.ts";
import { recordVersion } from "../../src/server/registry_history/versions.ts";
import { startServer, type TestServer } from "../e2e/helpers.ts";

/** More than one scheduler look (500 versions) so that a kill lands inside a run of transactions. */
const VERSIONS_PER_ROUND = 1_200;
const DUE_AHEAD_MS = 3_000;
const APPLY_WAIT_MS = 60_000;

/** Institutions in plain SQL, each with a rename due at `validFrom` recorded as a feature records one. */
async function scheduleRenames(db: Database, round: string, validFrom: string): Promise<string[]> {
  const ids = Array.from({ length: VERSIONS_PER_ROUND }, () => crypto.randomUUID());
  const now = Date.now();
  await db.transaction(async (tx) => {
    for (const [n, id] of ids.entries()) {
      await tx.run(sql`INSERT INTO institutions (id, name, type, registration_number, address, phone_number,
        email_address, number_of_branches, swift_participant, status, created_at, updated_at, created_by)
        VALUES (${id}, ${`Drill Bank ${round}-${n}`}, 'commercial', ${`DRILL-${round}-${n}`}, '1 Drill Street',
          '+1 202 555 0104', 'desk@drill.example', 1, 0, 'active', ${new Date(now).toISOString()},
          ${new Date(now).toISOString()}, ${SYSTEM_USER_ID})`);
      await recordVersion(tx, {
        entityType: "institution",
        entityId: id,
        validFrom,
        changes: { name: `Renamed Drill Bank ${round}-${n}` },
        summary: `name → Renamed Drill Bank ${round}-${n}`,
        requestedBy: null,
        approvedBy: null,
      }, now);
    }
  });
  return ids;
}

async function waitUntilApplied(db: Database, ids: string[]): Promise<void> {
  const started = performance.now();
  for (;;) {
    const row = await db.read.get<{ n: number }>(sql`SELECT count(*) AS n FROM registry_versions
      WHERE applied_at IS NULL AND entity_id IN ${ids}`);
    if (row.n === 0) return;
    if (performance.now() - started > APPLY_WAIT_MS) throw new Error(`${row.n} versions still unapplied`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every version applied once: one audit row per institution, the new name written, none pending. */
async function assertAppliedOnce(db: Database, round: string, ids: string[]): Promise<void> {
  await waitUntilApplied(db, ids);
  const audit = await db.read.all<{ entityId: string; n: number }>(
    sql`SELECT entity_id AS entityId, count(*) AS n
    FROM audit_trail WHERE action = ${SCHEDULED_CHANGE_ACTION} AND entity_id IN ${ids} GROUP BY entity_id`,
  );
  assert.equal(audit.length, ids.length, "every scheduled change has its audit row");
  assert.deepEqual(audit.filter((row) => row.n !== 1), [], "no scheduled change applied twice");
  const renamed = await db.read.get<{ n: number }>(sql`SELECT count(*) AS n FROM institutions
    WHERE id IN ${ids} AND name LIKE ${`Renamed Drill Bank ${round}-%`}`);
  assert.equal(renamed.n, ids.length);
}

Deno.test({
  name:
    "scheduled changes: two processes applying the same due versions, one SIGKILLed mid-batch, apply each exactly once",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const dataDir = await Deno.makeTempDir({ prefix: "cbr-faults-scheduled-" });
    const servers: TestServer[] = [];
    let db: Database | null = null;
    try {
      servers.push(await startServer({}, dataDir), await startServer({}, dataDir));
      db = await openDatabase(servers[0].databaseUrl);
      const opened = db;

      await t.step("two schedulers over one batch of due versions", async () => {
        const ids = await scheduleRenames(opened, "a", new Date(Date.now() + DUE_AHEAD_MS).toISOString());
        await assertAppliedOnce(opened, "a", ids);
      });

      await t.step("the only applier SIGKILLed mid-batch, then both processes started again", async () => {
        await servers[1].stop();
        const dueAt = Date.now() + DUE_AHEAD_MS;
        const ids = await scheduleRenames(opened, "b", new Date(dueAt).toISOString());
        const appliedSoFar = async () =>
          (await opened.read.get<{ n: number }>(sql`SELECT count(*) AS n FROM registry_versions
            WHERE applied_at IS NOT NULL AND entity_id IN ${ids}`)).n;
        while (await appliedSoFar() === 0) {
          assert.ok(Date.now() < dueAt + APPLY_WAIT_MS, "no scheduler applied anything");
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await servers[0].kill();
        const atKill = await appliedSoFar();
        assert.ok(atKill < ids.length, `the kill came after the whole batch (${atKill} applied)`);
        console.log(`${atKill} of ${ids.length} versions applied when the applier was killed`);
        servers[0] = await startServer({}, dataDir);
        servers[1] = await startServer({}, dataDir);
        await assertAppliedOnce(opened, "b", ids);
      });
    } catch (error) {
      for (const server of servers) console.error(`server output:\n${server.output().slice(-3000)}`);
      throw error;
    } finally {
      db?.close();
      for (const server of servers) await server.stop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
