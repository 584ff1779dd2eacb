import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { createHash } from "node:crypto";
import {
  APPEND_ONLY_TRIGGERS,
  AuditTrailIntegrityError,
  type ChainFields,
  computeAuditHash,
  missingAppendOnlyTriggers,
  recordAudit,
  verifyAuditChain,
} from "../../src/server/audit/trail.ts";
import { useAuditChainKey } from "../../src/server/audit/chain_key.ts";
import {
  checkpointTargetOf,
  startAuditCheckpoints,
  verifyAuditCheckpoints,
  writeAuditCheckpoint,
} from "../../src/server/audit/checkpoints.ts";
import type { Queryable } from "../../src/server/db/database.ts";
import { SYSTEM_USER_ID } from "../../db/schema.ts";
import { luhnCheckDigit } from "../../src/domain/card.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const actor = { userId: SYSTEM_USER_ID, ipAddress: "127.0.0.1", userAgent: "test" };

Deno.test("verifyAuditChain() accepts an untouched chain of audited mutations", async () => {
  const t = await createTestApp();
  try {
    for (let i = 0; i < 25; i++) {
      await t.deps.db.transaction((tx) =>
        recordAudit(tx, actor, { entityType: "test", entityId: `e${i}`, action: "create", changes: { after: { i } } })
      );
    }
    const result = await verifyAuditChain(t.deps.db.read);
    assert(result.ok);
    assert(result.checked >= 25);
  } finally {
    await t.close();
  }
});

Deno.test("the audit trail is append-only: UPDATE and DELETE are refused by the database", async () => {
  const t = await createTestApp();
  try {
    await assert.rejects(t.deps.db.transaction((tx) => tx.run(sql`UPDATE audit_trail SET action = 'x'`)));
    await assert.rejects(t.deps.db.transaction((tx) => tx.run(sql`DELETE FROM audit_trail`)));
  } finally {
    await t.close();
  }
});

Deno.test("verifyAuditChain() names the first row whose content was edited", async () => {
  const t = await createTestApp();
  try {
    for (let i = 0; i < 5; i++) {
      await t.deps.db.transaction((tx) => recordAudit(tx, actor, { entityType: "test", entityId: `e${i}`, action: "create" }));
    }
    const [target] = await t.deps.db.read.all<{ seq: number; id: string }>(
      sql`SELECT seq, id FROM audit_trail WHERE entity_id = 'e2'`,
    );
    // Tampering needs the append-only trigger gone, as an attacker with file access could do.
    await t.deps.db.transaction(async (tx) => {
      await tx.run(sql`DROP TRIGGER audit_trail_no_update`);
      await tx.run(sql`UPDATE audit_trail SET action = 'delete' WHERE id = ${target.id}`);
    });
    const result = await verifyAuditChain(t.deps.db.read);
    assert(!result.ok);
    assert.equal(result.firstBroken.seq, target.seq);
    assert.equal(result.firstBroken.id, target.id);
    assert.match(result.firstBroken.reason, /hash does not match/);
  } finally {
    await t.close();
  }
});

Deno.test("verifyAuditChain() detects a deleted row as a sequence gap", async () => {
  const t = await createTestApp();
  try {
    for (let i = 0; i < 4; i++) {
      await t.deps.db.transaction((tx) => recordAudit(tx, actor, { entityType: "test", entityId: `d${i}`, action: "create" }));
    }
    const [target] = await t.deps.db.read.all<{ seq: number }>(sql`SELECT seq FROM audit_trail WHERE entity_id = 'd1'`);
    await t.deps.db.transaction(async (tx) => {
      await tx.run(sql`DROP TRIGGER audit_trail_no_delete`);
      await tx.run(sql`DELETE FROM audit_trail WHERE entity_id = 'd1'`);
    });
    const result = await verifyAuditChain(t.deps.db.read);
    assert(!result.ok);
    assert.equal(result.firstBroken.seq, target.seq + 1);
    assert.match(result.firstBroken.reason, /sequence gap/);
  } finally {
    await t.close();
  }
});

Deno.test("a mutation that fails after writing its audit row leaves neither behind", async () => {
  const t = await createTestApp();
  try {
    const before = await t.deps.db.read.all<{ n: number }>(sql`SELECT count(*) AS n FROM audit_trail`);
    await assert.rejects(t.deps.db.transaction(async (tx) => {
      await recordAudit(tx, actor, { entityType: "test", entityId: "rollback", action: "create" });
      throw new Error("boom");
    }));
    const after = await t.deps.db.read.all<{ n: number }>(sql`SELECT count(*) AS n FROM audit_trail`);
    assert.equal(after[0].n, before[0].n);
  } finally {
    await t.close();
  }
});

Deno.test("deno task audit:verify reports an intact chain and exits 0", async () => {
  const t = await createTestApp();
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/audit_verify.ts"],
      env: { DATA_DIR: t.dataDir },
      cwd: new URL("../..", import.meta.url).pathname,
    }).output();
    assert(out.success, new TextDecoder().decode(out.stderr));
    assert.match(new TextDecoder().decode(out.stdout), /Audit trail verified: \d+ rows, chain intact\./);
  } finally {
    await t.close();
  }
});

/** The unkeyed chain of before issue 22, as an attacker without the key can compute it. */
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

type StoredRow = ChainFields & { hash: string };

async function storedRows(db: Queryable): Promise<StoredRow[]> {
  return await db.all<StoredRow>(sql`SELECT seq, id, entity_type AS entityType, entity_id AS entityId, action,
    changes, performed_by AS performedBy, performed_at AS performedAt, ip_address AS ipAddress,
    user_agent AS userAgent, prev_hash AS prevHash, hash FROM audit_trail ORDER BY seq`);
}

/** Recomputes prev_hash and hash of every row from `fromSeq` on with `hash`; triggers must be gone. */
async function rechainFrom(tx: Queryable, fromSeq: number, hash: (row: ChainFields) => string) {
  const rows = await storedRows(tx);
  let previous = fromSeq === 1 ? "0".repeat(64) : rows.find((row) => row.seq === fromSeq - 1)!.hash;
  for (const row of rows.filter((row) => row.seq >= fromSeq)) {
    const next = hash({ ...row, prevHash: previous });
    await tx.run(sql`UPDATE audit_trail SET prev_hash = ${previous}, hash = ${next} WHERE seq = ${row.seq}`);
    previous = next;
  }
}

async function auditRowsFor(t: TestApp, count: number) {
  for (let i = 0; i < count; i++) {
    await t.deps.db.transaction((tx) =>
      recordAudit(tx, actor, { entityType: "test", entityId: `k${i}`, action: "create", changes: { i } })
    );
  }
}

function runAuditVerify(t: TestApp) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/audit_verify.ts"],
    env: { DATA_DIR: t.dataDir },
    cwd: new URL("../..", import.meta.url).pathname,
  }).output();
}

Deno.test("dropping the trigger, editing a row and recomputing plain SHA-256 over the chain is detected (issue 22)", async () => {
  const t = await createTestApp();
  try {
    await auditRowsFor(t, 5);
    const [target] = await t.deps.db.read.all<{ seq: number; id: string }>(
      sql`SELECT seq, id FROM audit_trail WHERE entity_id = 'k2'`,
    );
    await t.deps.db.transaction(async (tx) => {
      await tx.run(sql`DROP TRIGGER audit_trail_no_update`);
      await tx.run(sql`UPDATE audit_trail SET action = 'delete' WHERE id = ${target.id}`);
      await rechainFrom(tx, target.seq, plainSha256);
    });
    const result = await verifyAuditChain(t.deps.db.read);
    assert(!result.ok);
    assert.equal(result.firstBroken.seq, target.seq);
    assert.match(result.firstBroken.reason, /hash does not match/);

    const out = await runAuditVerify(t);
    assert.equal(out.success, false);
    const stderr = new TextDecoder().decode(out.stderr);
    assert.match(stderr, /append-only triggers missing or altered \(audit_trail_no_update\)/);
    assert.match(stderr, new RegExp(`BROKEN at row seq ${target.seq}`));
  } finally {
    await t.close();
  }
});

Deno.test("the server refuses to start while an append-only trigger is missing, and says why", async () => {
  const t = await createTestApp();
  try {
    await t.deps.db.transaction((tx) => tx.run(sql`DROP TRIGGER audit_trail_no_delete`));
    assert.deepEqual(await missingAppendOnlyTriggers(t.deps.db.read), ["audit_trail_no_delete"]);
    await assert.rejects(
      createTestApp({}, { dataDir: t.dataDir }),
      (error: Error) =>
        error instanceof AuditTrailIntegrityError &&
        /append-only triggers are missing or altered \(audit_trail_no_delete\).*Refusing to start/.test(error.message),
    );
  } finally {
    await t.close();
  }
});

Deno.test("signed checkpoints catch a trail re-chained with the key, or cut short, after they were written", async () => {
  const t = await createTestApp();
  const target = checkpointTargetOf(t.deps.config);
  const path = target.path;
  try {
    const key = await useAuditChainKey(t.deps.config, { create: false });
    await auditRowsFor(t, 4);
    const checkpoint = await writeAuditCheckpoint(t.deps.db, key, target);
    assert(checkpoint !== null);
    assert.deepEqual(await verifyAuditCheckpoints(t.deps.db.read, key, target), {
      ok: true,
      checked: 2,
      skipped: 0,
      recorded: 2,
    });
    // A crash in the middle of a write leaves a line without its end; the next checkpoint starts a line of its own.
    await Deno.writeTextFile(path, '{"seq":7,"hash":"ab', { append: true });
    await writeAuditCheckpoint(t.deps.db, key, target);
    assert.deepEqual(await verifyAuditCheckpoints(t.deps.db.read, key, target), {
      ok: true,
      checked: 3,
      skipped: 1,
      recorded: 3,
    });
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    assert(!path.startsWith(`${t.dataDir}/`), "the checkpoints live outside the data folder");

    // Someone holding the database and its key rewrites row 3 and re-chains everything after it.
    await t.deps.db.transaction(async (tx) => {
      await tx.run(sql`DROP TRIGGER audit_trail_no_update`);
      await tx.run(sql`UPDATE audit_trail SET action = 'delete' WHERE seq = 3`);
      await rechainFrom(tx, 3, (row) => computeAuditHash(row, key));
      await tx.run(sql.raw(APPEND_ONLY_TRIGGERS.audit_trail_no_update));
    });
    assert((await verifyAuditChain(t.deps.db.read)).ok, "the chain alone cannot tell");
    const rewritten = await verifyAuditCheckpoints(t.deps.db.read, key, target);
    assert(!rewritten.ok);
    assert.match(rewritten.problem, /differs from the checkpoint .*: the trail was rewritten/);
    const out = await runAuditVerify(t);
    assert.equal(out.success, false);
    assert.match(new TextDecoder().decode(out.stderr), /Checkpoints BROKEN/);
  } finally {
    await t.close();
  }
});

Deno.test("checkpoints catch removed rows and refuse a forged line", async () => {
  const t = await createTestApp();
  const target = checkpointTargetOf(t.deps.config);
  const path = target.path;
  try {
    const key = await useAuditChainKey(t.deps.config, { create: false });
    await auditRowsFor(t, 3);
    const checkpoint = (await writeAuditCheckpoint(t.deps.db, key, target))!;
    await t.deps.db.transaction(async (tx) => {
      await tx.run(sql`DROP TRIGGER audit_trail_no_delete`);
      await tx.run(sql`DELETE FROM audit_trail WHERE seq = ${checkpoint.seq}`);
    });
    const cut = await verifyAuditCheckpoints(t.deps.db.read, key, target);
    assert(!cut.ok);
    assert.match(cut.problem, new RegExp(`names row ${checkpoint.seq}, which the trail no longer holds`));

    const forged = { ...checkpoint, seq: 1, hash: "f".repeat(64) };
    await Deno.writeTextFile(path, `${JSON.stringify(forged)}\n`);
    const refused = await verifyAuditCheckpoints(t.deps.db.read, key, target);
    assert(!refused.ok);
    assert.match(refused.problem, /line 1: its signature does not verify/);
  } finally {
    await t.close();
  }
});

/** As an attacker with file access would: triggers dropped, the trail's last rows deleted, triggers put back. */
async function deleteRowsFrom(t: TestApp, fromSeq: number) {
  await t.deps.db.transaction(async (tx) => {
    await tx.run(sql`DROP TRIGGER audit_trail_no_delete`);
    await tx.run(sql`DELETE FROM audit_trail WHERE seq >= ${fromSeq}`);
    await tx.run(sql.raw(APPEND_ONLY_TRIGGERS.audit_trail_no_delete));
  });
}

async function checkpointRecordSeqs(t: TestApp): Promise<number[]> {
  const rows = await t.deps.db.read.all<{ seq: number }>(
    sql`SELECT seq FROM audit_trail WHERE entity_type = 'audit_checkpoint' ORDER BY seq`,
  );
  return rows.map((row) => row.seq);
}

Deno.test("drill: the last rows deleted and the checkpoint file emptied fail audit:verify, naming the checkpoint missing", async () => {
  const t = await createTestApp();
  const target = checkpointTargetOf(t.deps.config);
  try {
    const key = await useAuditChainKey(t.deps.config, { create: false });
    await auditRowsFor(t, 3);
    await writeAuditCheckpoint(t.deps.db, key, target);
    await auditRowsFor(t, 3);
    const [first] = (await Deno.readTextFile(target.path)).trim().split("\n").map((line) => JSON.parse(line));

    // Untouched, the trail and the file verify, and the file holds both checkpoints the trail records.
    const untouched = await runAuditVerify(t);
    const said = new TextDecoder().decode(untouched.stdout);
    assert.equal(untouched.success, true, new TextDecoder().decode(untouched.stderr));
    assert.match(said, /Checkpoints verified: 2 in .*; the file holds all 2 the trail records\./);
    const admin = await t.login();
    const verification = () => t.request("GET", "/api/audit-trail/verification", { cookie: admin });
    assert.deepEqual((await expectJson(await verification(), 200)).checkpoints, {
      verified: true,
      checked: 2,
      recorded: 2,
    });

    const records = await checkpointRecordSeqs(t);
    assert.equal(records.length, 2);
    await deleteRowsFrom(t, records[1] + 1);
    await Deno.writeTextFile(target.path, "");
    assert((await verifyAuditChain(t.deps.db.read)).ok, "the chain alone cannot tell");
    assert.deepEqual(await missingAppendOnlyTriggers(t.deps.db.read), []);

    const out = await runAuditVerify(t);
    assert.equal(out.success, false);
    assert.match(
      new TextDecoder().decode(out.stderr),
      new RegExp(
        `Checkpoints BROKEN: .*the checkpoint at seq ${first.seq} written at ${first.at} is missing from the file ` +
          `\\(the trail recorded it at row ${records[0]}\\)`,
      ),
    );
    const state = await expectJson(await verification(), 200);
    assert.equal(state.checkpoints.verified, false);
    assert.match(state.checkpoints.problem, new RegExp(`checkpoint at seq ${first.seq} .* is missing from the file`));
  } finally {
    await t.close();
  }
});

Deno.test("drill: rows deleted back past every checkpoint's record and the file emptied still fail audit:verify", async () => {
  const t = await createTestApp();
  const target = checkpointTargetOf(t.deps.config);
  try {
    const key = await useAuditChainKey(t.deps.config, { create: false });
    await auditRowsFor(t, 3);
    await writeAuditCheckpoint(t.deps.db, key, target);
    const [firstRecord] = await checkpointRecordSeqs(t);
    assert(firstRecord > 1, "the first administrator's row comes before the first checkpoint");
    await deleteRowsFrom(t, firstRecord);
    await Deno.writeTextFile(target.path, "");
    assert.deepEqual(await checkpointRecordSeqs(t), []);
    assert((await verifyAuditChain(t.deps.db.read)).ok, "the chain alone cannot tell");

    const out = await runAuditVerify(t);
    assert.equal(out.success, false);
    assert.match(
      new TextDecoder().decode(out.stderr),
      /Checkpoints BROKEN: .* holds no checkpoint while the trail holds rows: the file was emptied or replaced/,
    );
  } finally {
    await t.close();
  }
});

Deno.test("the periodic writer checkpoints activity, not the records of checkpoints (no node checkpoints another's records for ever)", async () => {
  const t = await createTestApp();
  const target = checkpointTargetOf(t.deps.config);
  try {
    const key = await useAuditChainKey(t.deps.config, { create: false });
    const writer = startAuditCheckpoints(t.deps.db, key, target, 20);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const settled = (await checkpointRecordSeqs(t)).length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await checkpointRecordSeqs(t)).length, settled, "records alone do not make the trail grow");
    await auditRowsFor(t, 1);
    await writer.stop();
    assert.equal((await checkpointRecordSeqs(t)).length, settled + 1);
    const verified = await verifyAuditCheckpoints(t.deps.db.read, key, target);
    assert(verified.ok, JSON.stringify(verified));
  } finally {
    await t.close();
  }
});

Deno.test("a checkpoint's record keeps its time even when its count of milliseconds passes the Luhn check", async () => {
  const t = await createTestApp();
  const target = checkpointTargetOf(t.deps.config);
  try {
    const key = await useAuditChainKey(t.deps.config, { create: false });
    await auditRowsFor(t, 1);
    // A 13-digit millisecond count whose last digit is its Luhn check digit: shaped like a card number.
    const base = String(Date.UTC(2026, 10, 28, 11, 22, 15, 660)).slice(0, 12);
    const when = new Date(Number(base + luhnCheckDigit(base)));
    await writeAuditCheckpoint(t.deps.db, key, target, when);
    // Only this checkpoint's line is taken out of the file: the one the verification must name.
    const lines = (await Deno.readTextFile(target.path)).trim().split("\n");
    const others = lines.filter((line) => JSON.parse(line).at !== when.toISOString());
    assert.equal(others.length, lines.length - 1);
    await Deno.writeTextFile(target.path, others.map((line) => `${line}\n`).join(""));
    const verification = await verifyAuditCheckpoints(t.deps.db.read, key, target);
    assert.equal(verification.ok, false);
    assert.match(
      verification.ok ? "" : verification.problem,
      new RegExp(`written at ${when.toISOString().replace(/\./g, "\\.")} is missing from the file`),
    );
  } finally {
    await t.close();
  }
});
