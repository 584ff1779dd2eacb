/** The database's read statements, batch writers and transactions against a real database file. */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { type Database, inSavepoint, openDatabase, statementsOf } from "../../src/server/db/database.ts";
import { BACKSTOP_CHECKPOINT_PAGES, LOG_WRITER_CHECKPOINT_PAGES } from "../../src/server/db/native.ts";

async function withDatabase(fn: (db: Database) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "cbr-statements-" });
  const db = await openDatabase(`file:${dir}/test.db`);
  try {
    await db.transaction((tx) => tx.run(sql`CREATE TABLE t (id INTEGER PRIMARY KEY, label TEXT)`));
    await fn(db);
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("statements.get() reads what a transaction committed on another connection at once", () =>
  withDatabase(async (db) => {
    const query = "SELECT label FROM t WHERE id = ?";
    assert.equal(await db.statements.get(query, [1]), undefined);
    await db.transaction((tx) => tx.run(sql`INSERT INTO t (id, label) VALUES (1, 'first')`));
    assert.equal((await db.statements.get<{ label: string }>(query, [1]))?.label, "first");
    await db.transaction((tx) => tx.run(sql`UPDATE t SET label = 'second' WHERE id = 1`));
    assert.equal((await db.statements.get<{ label: string }>(query, [1]))?.label, "second");
  }));

Deno.test("writeBatch() commits all of its statements, or none when one fails", () =>
  withDatabase(async (db) => {
    const insert = "INSERT INTO t (id, label) VALUES (?, ?)";
    assert.equal((await db.writeBatch([{ sql: insert, args: [1, "kept"] }]))[0].rowsAffected, 1);
    await assert.rejects(
      db.writeBatch([{ sql: insert, args: [2, "rolled back"] }, {
        sql: "SELECT no_such_column FROM t",
        args: [],
      }]),
      /no_such_column/,
    );
    await assert.rejects(db.writeBatch([{ sql: insert, args: [1, "duplicate id"] }]), /UNIQUE/);
    const rows = await db.statements.all<{ id: number; label: string }>(
      "SELECT id, label FROM t ORDER BY id",
      [],
    );
    assert.deepEqual(rows.map((r) => [r.id, r.label]), [[1, "kept"]]);
  }));

Deno.test("data and bookkeeping batches and transaction() take turns: concurrent writers never interleave", () =>
  withDatabase(async (db) => {
    const insert = "INSERT INTO t (id, label) VALUES (?, ?)";
    const writers = Array.from({ length: 60 }, (_, i) => {
      if (i % 3 === 0) return db.writeBatch([{ sql: insert, args: [i, "statements"] }]);
      if (i % 3 === 1) {
        return db.writeBatch([{ sql: insert, args: [i, "bookkeeping"] }], { channel: "bookkeeping" });
      }
      return db.transaction((tx) => tx.run(sql`INSERT INTO t (id, label) VALUES (${i}, 'builder')`));
    });
    await Promise.all(writers);
    const rows = await db.statements.all<{ label: string; n: number }>(
      "SELECT label, count(*) AS n FROM t GROUP BY label ORDER BY label",
      [],
    );
    assert.deepEqual(rows.map((r) => [r.label, r.n]), [["bookkeeping", 20], ["builder", 20], [
      "statements",
      20,
    ]]);
  }));

Deno.test("statementsOf() runs the same positional SQL inside a query-builder transaction", () =>
  withDatabase(async (db) => {
    const changed = await db.transaction(async (tx) => {
      const statements = statementsOf(tx);
      await statements.run("INSERT INTO t (id, label) VALUES (?, ?)", [1, "it's bound, not spliced"]);
      const row = await statements.get<{ label: string }>("SELECT label FROM t WHERE id = ?", [1]);
      assert.equal(row?.label, "it's bound, not spliced");
      assert.equal(await statements.get("SELECT label FROM t WHERE id = ?", [2]), undefined);
      return await statements.run("UPDATE t SET label = ? WHERE id >= ?", ["updated", 0]);
    });
    assert.equal(changed, 1);
    await assert.rejects(
      db.transaction((tx) => statementsOf(tx).run("SELECT ?, ?", [1])),
      /2 placeholders for 1 arguments/,
    );
  }));

Deno.test("inSavepoint() undoes only the writes of the step that threw, and the transaction goes on", () =>
  withDatabase(async (db) => {
    const insert = "INSERT INTO t (id, label) VALUES (?, ?)";
    await db.transaction(async (tx) => {
      const s = statementsOf(tx);
      await s.run(insert, [1, "before"]);
      await assert.rejects(
        inSavepoint(s, async () => {
          await s.run(insert, [2, "undone"]);
          throw new Error("step refused");
        }),
        /step refused/,
      );
      await inSavepoint(s, () => s.run(insert, [3, "kept step"]));
      await s.run(insert, [4, "after"]);
    });
    const rows = await db.statements.all<{ id: number }>("SELECT id FROM t ORDER BY id", []);
    assert.deepEqual(rows.map((r) => r.id), [1, 3, 4]);
  }));

Deno.test("the request log's writer checkpoints the WAL; the serving thread's connections only far past it", () =>
  withDatabase(async (db) => {
    const threshold = "PRAGMA wal_autocheckpoint";
    const pages = (row: Record<string, unknown> | undefined) => Number(Object.values(row ?? {})[0]);
    assert.equal(
      pages((await db.read.all<Record<string, unknown>>(sql.raw(threshold)))[0]),
      BACKSTOP_CHECKPOINT_PAGES,
    );
    assert.equal(pages(await db.statements.get(threshold, [])), BACKSTOP_CHECKPOINT_PAGES);
    const inBatch = async (channel: "data" | "bookkeeping" | "log") =>
      pages((await db.writeBatch([{ sql: threshold, args: [], returnsRows: true }], { channel }))[0].rows[0]);
    assert.equal(await inBatch("data"), BACKSTOP_CHECKPOINT_PAGES);
    assert.equal(await inBatch("bookkeeping"), 0);
    assert.equal(await inBatch("log"), LOG_WRITER_CHECKPOINT_PAGES);
    assert.ok(BACKSTOP_CHECKPOINT_PAGES > LOG_WRITER_CHECKPOINT_PAGES);
  }));
