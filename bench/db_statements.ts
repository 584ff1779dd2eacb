/**
 * The per-request session query through the libSQL client (prepared anew on every call) against
 * the same query prepared once (Database.statements in src/server/db/database.ts), on one database file.
 *
 * Part of `deno task bench`; alone: `node_modules/.bin/deno run -A bench/db_statements.ts`.
 */
import { sql } from "drizzle-orm";
import { openDatabase } from "../src/server/db/database.ts";
import { migrate } from "../src/server/db/migrate.ts";
import { BENCH_QUICK, type BenchRow, formatNumber } from "./lib/report.ts";

const CALLS = BENCH_QUICK ? 5_000 : 50_000;
const SESSION_SQL = `SELECT s.sess, u.id, u.email, u.first_name, u.last_name, u.profile_image_url, u.role
  FROM sessions s JOIN users u ON u.id = s.user_id
  WHERE s.sid = ? AND s.expire > ? AND u.disabled_at IS NULL`;

async function callsPerSecond(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < CALLS / 10; i++) await fn();
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await fn();
  return CALLS / ((performance.now() - started) / 1000);
}

export async function dbStatementsBench(log: (line: string) => void): Promise<BenchRow[]> {
  const dir = await Deno.makeTempDir({ prefix: "bench-statements-" });
  const db = await openDatabase(`file:${dir}/bench.db`);
  try {
    await migrate(db);
    const user = await db.read.get<{ id: string }>(sql`SELECT id FROM users LIMIT 1`);
    const sid = "0".repeat(64);
    const expire = new Date(Date.now() + 3_600_000).toISOString();
    await db.transaction((tx) =>
      tx.run(
        sql`INSERT INTO sessions (sid, sess, user_id, expire) VALUES (${sid}, '{}', ${user!.id}, ${expire})`,
      )
    );
    const args = [sid, new Date().toISOString()];
    const client = await callsPerSecond(() => db.readClient.execute({ sql: SESSION_SQL, args }));
    const prepared = await callsPerSecond(() => db.statements.get(SESSION_SQL, args));
    log(`session query: client ${formatNumber(client)}/s, prepared ${formatNumber(prepared)}/s`);
    return [{
      what: "Session query per request: prepared once (db.statements) vs the client's execute()",
      reference: `${formatNumber(client)} queries/s`,
      ours: `${formatNumber(prepared)} queries/s`,
      ratio: prepared / client,
      target: "—",
      pass: null,
    }];
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) console.table(await dbStatementsBench(console.log));
