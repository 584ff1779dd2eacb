import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../src/server/db/database.ts";
import { createTestApp } from "../helpers/test_app.ts";

const modeOf = async (path: string) => (await Deno.stat(path)).mode! & 0o777;

Deno.test("a new data folder is created 0700 and console.db, -wal and -shm 0600", async () => {
  const parent = await Deno.makeTempDir({ prefix: "cbr-modes-" });
  const dataDir = `${parent}/data`;
  try {
    const t = await createTestApp({}, { dataDir });
    try {
      // A write makes sure the WAL and its index exist while the database is open.
      await t.deps.db.transaction((tx) => tx.run(sql`UPDATE users SET updated_at = updated_at`));
      assert.equal(await modeOf(dataDir), 0o700, "data folder");
      for (const name of ["console.db", "console.db-wal", "console.db-shm", "secrets.key"]) {
        assert.equal(await modeOf(`${dataDir}/${name}`), 0o600, name);
      }
    } finally {
      await t.close();
    }
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("database files left world-readable by an earlier version are narrowed to 0600 at open", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cbr-modes-" });
  try {
    const path = `${dir}/old.db`;
    // An earlier version's process still has the database open, its files world-readable.
    const earlier = await openDatabase(`file:${path}`);
    try {
      await earlier.transaction((tx) => tx.run(sql`CREATE TABLE t (x)`));
      for (const file of [path, `${path}-wal`, `${path}-shm`]) await Deno.chmod(file, 0o644);
      const again = await openDatabase(`file:${path}`);
      again.close();
      for (const file of [path, `${path}-wal`, `${path}-shm`]) assert.equal(await modeOf(file), 0o600, file);
    } finally {
      earlier.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
