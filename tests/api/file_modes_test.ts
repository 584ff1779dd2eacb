import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../src/server/db/database.ts";
import { narrowReportModes, reportsDir } from "../../src/server/features/reports/service.ts";
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

Deno.test("generated reports are 0600 in a 0700 reports folder", async () => {
  const t = await createTestApp();
  try {
    const today = new Date().toISOString().slice(0, 10);
    const res = await t.request("POST", "/api/reports", {
      cookie: await t.login(),
      body: { type: "audit-trail", format: "csv", from: today, to: today },
    });
    assert.equal(res.status, 200, await res.clone().text());
    await res.body?.cancel();
    const id = res.headers.get("x-report-id");
    const dir = reportsDir(t.deps.config);
    assert.equal(await modeOf(dir), 0o700, "reports folder");
    assert.equal(await modeOf(`${dir}/${id}.csv`), 0o600, "report file");
  } finally {
    await t.close();
  }
});

Deno.test("a reports folder and files left 0755/0644 by an earlier version are narrowed at start", async () => {
  const t = await createTestApp();
  try {
    const dir = reportsDir(t.deps.config);
    await Deno.mkdir(dir, { recursive: true });
    await Deno.chmod(dir, 0o755);
    await Deno.writeTextFile(`${dir}/old.csv`, "a,b\n");
    await Deno.chmod(`${dir}/old.csv`, 0o644);
    await Deno.writeTextFile(`${dir}/old.xlsx`, "not really");
    await Deno.chmod(`${dir}/old.xlsx`, 0o640);
    const lines: string[] = [];
    assert.equal(await narrowReportModes(t.deps.config, (line) => lines.push(line)), 3);
    assert.match(lines.join("\n"), /Narrowed 3 report folder and file mode\(s\) to owner-only/);
    assert.equal(await modeOf(dir), 0o700);
    for (const name of ["old.csv", "old.xlsx"]) assert.equal(await modeOf(`${dir}/${name}`), 0o600, name);

    // The start itself narrows them: a second process opening the same data folder.
    await Deno.chmod(dir, 0o755);
    await Deno.chmod(`${dir}/old.csv`, 0o644);
    const again = await createTestApp({}, { dataDir: t.dataDir });
    await again.close();
    assert.equal(await modeOf(dir), 0o700);
    assert.equal(await modeOf(`${dir}/old.csv`), 0o600);
  } finally {
    await t.close();
  }
});
