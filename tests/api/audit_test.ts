import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { recordAudit, verifyAuditChain } from "../../src/server/audit.ts";
import { SYSTEM_USER_ID } from "../../db/schema.ts";
import { createTestApp } from "../helpers/test_app.ts";

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
