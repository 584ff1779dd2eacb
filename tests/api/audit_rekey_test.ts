/**
 * A database from before issue 22: its audit rows hold partner credentials and a card number in
 * clear, chained with plain SHA-256, and an audit-trail report holds them too. The next start
 * scrubs the rows, re-chains them under the key, withdraws the report and records all of it in the
 * trail, which then verifies.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import {
  APPEND_ONLY_TRIGGERS,
  AuditTrailIntegrityError,
  type ChainFields,
  verifyAuditChain,
} from "../../src/server/audit/trail.ts";
import { openDatabase, type Tx } from "../../src/server/db/database.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const CARD = "4111 1111 1111 1111";
const SECRETS = ["hmac-value-0123456789", "Basic dXNlcjpwYXNzd29yZA==", "pass-word-42", "987"];

function plainSha256(row: ChainFields): string {
  return createHash("sha256").update(JSON.stringify([
    row.seq,
    row.id,
    row.entityType,
    row.entityId,
    row.action,
    row.changes,
    row.performedBy,
    row.performedAt,
    row.ipAddress,
    row.userAgent,
    row.prevHash,
  ])).digest("hex");
}

/**
 * Turns the test app's database into one written before issue 22: the connection's audit row gets
 * its credentials in clear, the chain is recomputed with plain SHA-256, the chain's key record goes.
 */
async function makeLegacy(db: Tx, connectionId: string) {
  await db.run(sql`DROP TRIGGER audit_trail_no_update`);
  await db.run(sql`DROP TRIGGER audit_chain_state_no_delete`);
  await db.run(sql`DELETE FROM audit_chain_state`);
  const clear = {
    before: null,
    after: {
      id: connectionId,
      credentialsConfig: {
        authenticationType: "api_key",
        hmac: SECRETS[0],
        auth: SECRETS[1],
        pass: SECRETS[2],
        cvv: Number(SECRETS[3]),
        note: `card ${CARD}`,
      },
    },
  };
  await db.run(sql`UPDATE audit_trail SET changes = ${JSON.stringify(clear)}
    WHERE entity_type = 'central_bank_connection' AND entity_id = ${connectionId}`);
  const rows = await db.all<ChainFields & { hash: string }>(sql`SELECT seq, id, entity_type AS entityType,
    entity_id AS entityId, action, changes, performed_by AS performedBy, performed_at AS performedAt,
    ip_address AS ipAddress, user_agent AS userAgent, prev_hash AS prevHash, hash FROM audit_trail ORDER BY seq`);
  let previous = "0".repeat(64);
  for (const row of rows) {
    const hash = plainSha256({ ...row, prevHash: previous });
    await db.run(sql`UPDATE audit_trail SET prev_hash = ${previous}, hash = ${hash} WHERE seq = ${row.seq}`);
    previous = hash;
  }
  await db.run(sql.raw(APPEND_ONLY_TRIGGERS.audit_trail_no_update));
  await db.run(sql.raw(APPEND_ONLY_TRIGGERS.audit_chain_state_no_delete));
}

async function legacyDatabase(): Promise<
  { dataDir: string; connectionId: string; reportId: string; remove(): Promise<void> }
> {
  const first = await createTestApp();
  const req = first.as(await first.login());
  const connection = await expectJson(
    await req("POST", "/api/central-bank-connections", {
      body: {
        partnerCentralBank: "Bank of Legacy",
        messageStandard: "iso20022",
        credentialsConfig: { hmac: "x" },
      },
    }),
    201,
  );
  const today = new Date().toISOString().slice(0, 10);
  const report = await req("POST", "/api/reports", {
    body: { type: "audit-trail", format: "csv", from: today, to: today },
  });
  assert.equal(report.status, 200);
  await report.body?.cancel();
  const reportId = report.headers.get("x-report-id")!;
  await first.deps.db.transaction((tx) => makeLegacy(tx, connection.id));
  // The legacy report file holds the clear values, as audit-trail reports of that time did.
  await Deno.writeTextFile(`${first.dataDir}/reports/${reportId}.csv`, `"${SECRETS[0]}","${CARD}"\n`, {
    append: true,
  });
  await closeKeepingData(first);
  return {
    dataDir: first.dataDir,
    connectionId: connection.id,
    reportId,
    remove: async () => {
      await Deno.remove(first.dataDir, { recursive: true });
      await Deno.remove(first.deps.config.auditCheckpointFile).catch(() => {});
    },
  };
}

async function closeKeepingData(t: TestApp) {
  await t.app.requestLog.stop();
  t.deps.db.close();
}

Deno.test("a legacy chain is scrubbed, re-chained under the key and the scrub recorded in the trail (issue 22)", async () => {
  const legacy = await legacyDatabase();
  try {
    await Deno.remove(`${legacy.dataDir}-audit-checkpoints.jsonl`).catch(() => {});
    const t = await createTestApp({}, { dataDir: legacy.dataDir });
    try {
      const verified = await verifyAuditChain(t.deps.db.read);
      assert(verified.ok, JSON.stringify(verified));
      const rows = await t.deps.db.read.all<
        { seq: number; action: string; entity_type: string; changes: string }
      >(
        sql`SELECT seq, action, entity_type, changes FROM audit_trail ORDER BY seq`,
      );
      for (const row of rows) {
        for (const secret of [...SECRETS.slice(0, 3), CARD, CARD.replaceAll(" ", "")]) {
          assert(!(row.changes ?? "").includes(secret), `row ${row.seq} still holds ${secret}`);
        }
      }
      const connectionRow = rows.find((row) => row.entity_type === "central_bank_connection")!;
      const credentials = JSON.parse(connectionRow.changes).after.credentialsConfig;
      assert.equal(credentials.authenticationType, "api_key");
      assert.equal(credentials.cvv, "••••");
      const rekey = rows.find((row) => row.action === "rekey")!;
      assert.equal(rekey.entity_type, "audit_trail");
      const recorded = JSON.parse(rekey.changes);
      assert.equal(recorded.algorithm, "HMAC-SHA-256");
      assert.equal(recorded.rowsRechained, rekey.seq - 1);
      assert.deepEqual(recorded.scrubbedRows, [connectionRow.seq]);
      assert.deepEqual(recorded.withdrawnReports, [legacy.reportId]);
      assert.match(recorded.legacyHeadHash, /^[0-9a-f]{64}$/);

      const [report] = await t.deps.db.read.all<{ status: string; error: string; sha256: string | null }>(
        sql`SELECT status, error, sha256 FROM generated_reports WHERE id = ${legacy.reportId}`,
      );
      assert.equal(report.status, "failed");
      assert.equal(report.sha256, null);
      assert.match(report.error, /^Withdrawn on .* Generate the report again\.$/);
      await assert.rejects(
        Deno.stat(`${legacy.dataDir}/reports/${legacy.reportId}.csv`),
        Deno.errors.NotFound,
      );

      const req = t.as(await t.login());
      const list = await expectJson(await req("GET", "/api/central-bank-connections"), 200);
      assert.equal(list[0].credentialsConfig.hmac, "••••");
    } finally {
      await closeKeepingData(t);
    }
    // A second start changes nothing more.
    const again = await createTestApp({}, { dataDir: legacy.dataDir });
    try {
      const [{ n }] = await again.deps.db.read.all<{ n: number }>(
        sql`SELECT count(*) AS n FROM audit_trail WHERE action = 'rekey'`,
      );
      assert.equal(n, 1);
    } finally {
      await closeKeepingData(again);
    }
  } finally {
    await legacy.remove();
  }
});

Deno.test("a legacy chain that does not verify as it stands is not re-keyed: the server refuses to start", async () => {
  const legacy = await legacyDatabase();
  try {
    const handle = await openDatabase(`file:${legacy.dataDir}/console.db`);
    await handle.transaction(async (tx) => {
      await tx.run(sql`DROP TRIGGER audit_trail_no_update`);
      await tx.run(sql`UPDATE audit_trail SET action = 'edited' WHERE seq = 1`);
      await tx.run(sql.raw(APPEND_ONLY_TRIGGERS.audit_trail_no_update));
    });
    handle.close();
    await assert.rejects(
      createTestApp({}, { dataDir: legacy.dataDir }),
      (error: Error) =>
        error instanceof AuditTrailIntegrityError &&
        /does not verify as it stands \(row 1: hash does not match/.test(error.message),
    );
  } finally {
    await legacy.remove();
  }
});
