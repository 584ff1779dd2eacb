import assert from "node:assert/strict";
import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../db/schema.ts";
import { migrate } from "../../src/server/db/migrate.ts";
import { createTestApp } from "../helpers/test_app.ts";

const tables: SQLiteTable[] = Object.values(schema as Record<string, unknown>).filter((value): value is SQLiteTable =>
  is(value, SQLiteTable)
);

Deno.test("every column of db/schema.ts exists in the migrated database", async () => {
  const t = await createTestApp();
  try {
    assert(tables.length >= 15);
    const missing: string[] = [];
    for (const table of tables) {
      const config = getTableConfig(table);
      const info = await t.deps.db.readClient.execute(`PRAGMA table_info(${config.name})`);
      const columns = new Set(info.rows.map((row) => String(row.name)));
      for (const column of config.columns) {
        if (!columns.has(column.name)) missing.push(`${config.name}.${column.name}`);
      }
    }
    assert.deepEqual(missing, []);
  } finally {
    await t.close();
  }
});

Deno.test("every foreign key column has an index", async () => {
  const t = await createTestApp();
  try {
    const unindexed: string[] = [];
    for (const table of tables) {
      const name = getTableConfig(table).name;
      const keys = await t.deps.db.readClient.execute(`PRAGMA foreign_key_list(${name})`);
      const indexes = await t.deps.db.readClient.execute(`PRAGMA index_list(${name})`);
      const leading = new Set<string>();
      for (const index of indexes.rows) {
        const cols = await t.deps.db.readClient.execute(`PRAGMA index_info(${String(index.name)})`);
        const first = cols.rows.find((col) => Number(col.seqno) === 0);
        if (first) leading.add(String(first.name));
      }
      const pk = await t.deps.db.readClient.execute(`PRAGMA table_info(${name})`);
      for (const col of pk.rows) if (Number(col.pk) === 1) leading.add(String(col.name));
      for (const key of keys.rows) {
        if (!leading.has(String(key.from))) unindexed.push(`${name}.${String(key.from)}`);
      }
    }
    assert.deepEqual(unindexed, []);
  } finally {
    await t.close();
  }
});

Deno.test("migrate() on an up-to-date database applies nothing", async () => {
  const t = await createTestApp();
  try {
    assert.deepEqual(await migrate(t.deps.db), []);
  } finally {
    await t.close();
  }
});

Deno.test("foreign keys are enforced on the write connection", async () => {
  const t = await createTestApp();
  try {
    await assert.rejects(
      t.deps.db.transaction((tx) =>
        tx.insert(schema.routingCodes).values({ id: crypto.randomUUID(), institutionId: "missing", code: "ABC00000197", prefix: "ABC" })
      ),
      (error: Error) => /FOREIGN KEY/.test(`${error.message} ${String(error.cause)}`),
    );
  } finally {
    await t.close();
  }
});
