/**
 * `deno task backup` and `deno task restore` against a real sqld (docs/deployment.md, "Backup and
 * restore"), each run as its own process with its task's permissions: a backup taken while a writer
 * keeps writing, restored into the stopped primary, serves exactly the rows up to the backup; a
 * tampered copy, a running sqld and a folder that is not sqld's are refused; the previous db-path is
 * kept; an embedded replica made before the restore copies the restored database again at its next
 * sync.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createClient } from "@libsql/client";
import NativeDatabase from "libsql";
import { logIdFromBytes, type Manifest, readManifest } from "../../src/server/backup/manifest.ts";
import { type LonePrimary, startLonePrimary } from "./support/lone_primary.ts";
import { runTask } from "./support/tasks.ts";

const ROWS_BEFORE_WRITER = 300;
/** Rows the writer adds before the backup starts, and again after it ends, so the backup lands mid-stream. */
const WRITER_ROWS_AROUND_BACKUP = 25;
const ROWS_AFTER_BACKUP = 50;
const WAIT_STEP_MS = 20;

type Row = { id: number; tag: string };

async function rowsOf(client: ReturnType<typeof createClient>): Promise<Row[]> {
  const result = await client.execute("SELECT id, tag FROM probe ORDER BY id");
  return result.rows.map((row) => ({ id: Number(row.id), tag: String(row.tag) }));
}

/** Inserts one row at a time, tagged "during", until stopped; counts the rows it committed. */
function startWriter(primary: LonePrimary) {
  const client = primary.client();
  let stopping = false;
  let written = 0;
  const done = (async () => {
    while (!stopping) {
      await client.execute("INSERT INTO probe (tag, payload) VALUES ('during', randomblob(500))");
      written++;
    }
    client.close();
  })();
  return {
    written: () => written,
    async until(count: number) {
      while (written < count) await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    },
    async stop() {
      stopping = true;
      await done;
    },
  };
}

/** The rows of a backup's file, read from a scratch copy so the backup folder gains no -wal or -shm file. */
async function rowsOfBackup(dir: string, manifest: Manifest, scratch: string): Promise<Row[]> {
  await Deno.copyFile(`${dir}/${manifest.file}`, scratch);
  const client = createClient({ url: `file:${scratch}` });
  try {
    return await rowsOf(client);
  } finally {
    client.close();
  }
}

/** sqld's replication log id, from the header of its log file (bytes 16–31). */
async function sqldLogId(dbPath: string): Promise<string> {
  return logIdFromBytes((await Deno.readFile(`${dbPath}/dbs/default/wallog`)).subarray(16, 32));
}

async function siblingsOf(dbPath: string): Promise<string[]> {
  const parent = dbPath.slice(0, dbPath.lastIndexOf("/"));
  const name = dbPath.slice(dbPath.lastIndexOf("/") + 1);
  const found: string[] = [];
  for await (const entry of Deno.readDir(parent)) {
    if (entry.name.startsWith(`${name}.`)) found.push(entry.name);
  }
  return found.sort();
}

function plainCount(db: NativeDatabase.Database): { count: number; maxId: number } {
  const row = db.prepare("SELECT count(*) AS count, max(id) AS maxId FROM probe").get() as {
    count: number;
    maxId: number;
  };
  return { count: row.count, maxId: row.maxId };
}

Deno.test({
  name: "backup of a primary under writes, restore into the stopped primary: exactly the backup's rows",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const primary = await startLonePrimary("cbr-backup-");
    const client = primary.client();
    const out = `${primary.dir}/backups`;
    try {
      await client.execute(
        "CREATE TABLE probe (id INTEGER PRIMARY KEY, tag TEXT NOT NULL, payload BLOB NOT NULL)",
      );
      // The console's record of applied migrations (src/server/db/migrate.ts), not in name order.
      await client.execute(
        "CREATE TABLE schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL)",
      );
      await client.execute(
        "INSERT INTO schema_migrations VALUES ('0002_b.sql', 'x'), ('1340_role_grants.sql', 'x'), ('0100_c.sql', 'x')",
      );
      await client.execute({
        sql: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
              INSERT INTO probe (tag, payload) SELECT 'before', randomblob(2000) FROM n`,
        args: [ROWS_BEFORE_WRITER],
      });

      await t.step("a backup with a token the primary refuses fails and leaves no folder", async () => {
        const refused = "not-a-token-of-this-primary";
        const run = await runTask("backup", ["--out", out], {
          DATABASE_SYNC_URL: primary.url,
          DATABASE_AUTH_TOKEN: refused,
        });
        assert.equal(run.code, 1);
        assert.match(run.stderr, /the primary did not accept the handshake .*is the token right/);
        assert.ok(!`${run.stdout}${run.stderr}`.includes(refused));
        assert.deepEqual([...Deno.readDirSync(out)], []);
      });

      let backupDir = "";
      let manifest: Manifest | null = null;
      let backupRows: Row[] = [];
      await t.step("a backup taken while a writer keeps writing is one consistent point", async () => {
        const writer = startWriter(primary);
        await writer.until(WRITER_ROWS_AROUND_BACKUP);
        const run = await runTask("backup", ["--out", out, "--token-file", primary.tokenFile], {
          DATABASE_SYNC_URL: primary.url,
        });
        const writtenAtEnd = writer.written();
        await writer.until(writtenAtEnd + WRITER_ROWS_AROUND_BACKUP);
        await writer.stop();
        assert.equal(run.code, 0, run.stderr);
        assert.ok(!`${run.stdout}${run.stderr}`.includes(primary.token), "the token is never printed");

        const entries = [...Deno.readDirSync(out)].map((entry) => entry.name);
        assert.equal(entries.length, 1, `one backup folder and no partial one: ${entries}`);
        backupDir = `${out}/${entries[0]}`;
        manifest = await readManifest(backupDir);
        assert.equal(manifest.sourceUrl, `${primary.url}/`);
        assert.ok(manifest.frameNo !== null && manifest.frameNo > 0);
        assert.equal(manifest.logId, await sqldLogId(primary.dbPath), "the log sqld's own header names");
        assert.equal(manifest.lastMigration, "1340_role_grants.sql");
        const bytes = await Deno.readFile(`${backupDir}/${manifest.file}`);
        assert.equal(createHash("sha256").update(bytes).digest("hex"), manifest.sha256);
        assert.equal(bytes.byteLength, manifest.sizeBytes);
        assert.deepEqual([...Deno.readDirSync(backupDir)].map((entry) => entry.name).sort(), [
          "manifest.json",
          manifest.file,
        ]);
        assert.equal(Deno.statSync(out).mode! & 0o777, 0o700);
        assert.equal(Deno.statSync(backupDir).mode! & 0o777, 0o700);
        assert.equal(Deno.statSync(`${backupDir}/manifest.json`).mode! & 0o777, 0o600);
        assert.equal(Deno.statSync(`${backupDir}/${manifest.file}`).mode! & 0o777, 0o600);

        backupRows = await rowsOfBackup(backupDir, manifest, `${primary.dir}/backup-rows.db`);
        // One writer commits one row at a time: a consistent copy holds rows 1..n and nothing else.
        assert.deepEqual(backupRows.map((row) => row.id), backupRows.map((_, i) => i + 1));
        const during = backupRows.filter((row) => row.tag === "during").length;
        assert.ok(
          during >= WRITER_ROWS_AROUND_BACKUP,
          `the writer's rows before the backup are in it (${during})`,
        );
        assert.ok(during < writer.written(), "the writer's later rows are not");
      });
      assert.ok(manifest !== null);
      const taken: Manifest = manifest;

      await client.execute({
        sql: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
              INSERT INTO probe (tag, payload) SELECT 'after', randomblob(100) FROM n`,
        args: [ROWS_AFTER_BACKUP],
      });
      const replicaPath = `${primary.dir}/console-replica.db`;
      const replica = primary.replica(replicaPath);
      replica.sync();
      const reader = new NativeDatabase(replicaPath);
      assert.equal(
        plainCount(reader).count,
        (await rowsOf(client)).length,
        "the replica holds the later rows",
      );

      await t.step("restore refuses while sqld runs on the db-path, and changes nothing", async () => {
        const run = await runTask("restore", ["--from", backupDir, "--db-path", primary.dbPath]);
        assert.equal(run.code, 1);
        assert.match(run.stderr, new RegExp(`has ${primary.dbPath} open \\(pid ${primary.pid()}\\)`));
        assert.deepEqual(await siblingsOf(primary.dbPath), []);
      });

      await primary.stop();
      await t.step("restore refuses a tampered copy, and changes nothing", async () => {
        const tampered = `${primary.dir}/tampered`;
        await Deno.mkdir(tampered);
        await Deno.copyFile(`${backupDir}/manifest.json`, `${tampered}/manifest.json`);
        const bytes = await Deno.readFile(`${backupDir}/${taken.file}`);
        bytes[Math.floor(bytes.byteLength / 2)] ^= 0xff;
        await Deno.writeFile(`${tampered}/${taken.file}`, bytes);
        const run = await runTask("restore", ["--from", tampered, "--db-path", primary.dbPath]);
        assert.equal(run.code, 1);
        assert.match(run.stderr, /is not the copy its manifest describes \(SHA-256 [0-9a-f]{64}/);
        assert.match(run.stderr, /altered or damaged, nothing was changed/);
        assert.deepEqual(await siblingsOf(primary.dbPath), []);
      });

      await t.step("restore refuses a db-path that is not sqld's, and moves nothing", async () => {
        const keys = `${primary.dir}/keys`;
        const run = await runTask("restore", ["--from", backupDir, "--db-path", keys]);
        assert.equal(run.code, 1);
        assert.match(
          run.stderr,
          /is not sqld's db-path \(it holds no dbs or metastore\); nothing was changed/,
        );
        assert.ok(Deno.statSync(`${keys}/primary-public.pem`).isFile);
        assert.deepEqual(await siblingsOf(keys), []);
      });

      await t.step("restore sets the db-path aside and sqld serves exactly the backup's rows", async () => {
        const run = await runTask("restore", ["--from", backupDir, "--db-path", primary.dbPath]);
        assert.equal(run.code, 0, run.stderr);
        const siblings = await siblingsOf(primary.dbPath);
        assert.equal(siblings.length, 1);
        assert.match(siblings[0], /^primary\.sqld\.replaced-\d{8}T\d{6}-\d{3}Z$/);
        assert.ok(run.stdout.includes(siblings[0]), run.stdout);
        const kept = `${primary.dir}/${siblings[0]}/dbs/default`;
        assert.ok(Deno.statSync(`${kept}/wallog`).isFile, "the previous db-path is kept whole");
        assert.ok(Deno.statSync(`${kept}/data`).isFile);
        assert.deepEqual([...Deno.readDirSync(`${primary.dbPath}/dbs/default`)].map((entry) => entry.name), [
          "data",
        ]);
        assert.equal(Deno.statSync(`${primary.dbPath}/dbs/default/data`).mode! & 0o777, 0o600);

        await primary.start();
        assert.deepEqual(await rowsOf(client), backupRows);
        const integrity = await client.execute("PRAGMA integrity_check");
        assert.deepEqual(integrity.rows.map((row) => row[0]), ["ok"]);
        assert.notEqual(await sqldLogId(primary.dbPath), taken.logId, "sqld made a new replication log");
      });

      await t.step(
        "a replica made before the restore copies the restored database at its next sync",
        async () => {
          replica.sync();
          const fresh = new NativeDatabase(replicaPath);
          try {
            const expected = { count: backupRows.length, maxId: backupRows.length };
            assert.deepEqual(plainCount(fresh), expected);
            assert.deepEqual(
              plainCount(reader),
              expected,
              "a connection opened before the restore reads it too",
            );
            await client.execute("INSERT INTO probe (tag, payload) VALUES ('restored', randomblob(10))");
            replica.sync();
            assert.deepEqual(plainCount(fresh), { count: expected.count + 1, maxId: expected.maxId + 1 });
          } finally {
            fresh.close();
          }
        },
      );
      reader.close();
      replica.close();
    } finally {
      client.close();
      await primary.remove();
    }
  },
});

Deno.test({
  name: "a backup gives up once its sync timeout passes, leaves no folder and prints no token",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    // A primary that takes connections and never answers.
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const held: Deno.Conn[] = [];
    const accepting = (async () => {
      for await (const conn of listener) held.push(conn);
    })();
    const out = await Deno.makeTempDir({ prefix: "cbr-backup-timeout-" });
    const token = "a-token-that-must-not-be-printed";
    try {
      const run = await runTask("backup", ["--out", out, "--sync-timeout-s", "1"], {
        DATABASE_SYNC_URL: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
        DATABASE_AUTH_TOKEN: token,
      });
      assert.equal(run.code, 1);
      assert.match(run.stderr, /the primary's copy did not arrive within 1 s/);
      assert.ok(!`${run.stdout}${run.stderr}`.includes(token));
      assert.deepEqual([...Deno.readDirSync(out)], []);
    } finally {
      listener.close();
      for (const conn of held) conn.close();
      await accepting.catch(() => {});
      await Deno.remove(out, { recursive: true });
    }
  },
});
