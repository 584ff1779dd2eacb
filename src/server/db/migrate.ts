/**
 * Applies db/migrations/*.sql in file-name order, each once, each in its own transaction together
 * with its bookkeeping row. A second start on the same database applies nothing.
 */
import { sql } from "drizzle-orm";
import type { Database } from "./database.ts";

const MIGRATIONS_DIR = new URL("../../../db/migrations/", import.meta.url);

export async function listMigrations(): Promise<{ name: string; sql: string }[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(MIGRATIONS_DIR)) {
    if (entry.isFile && entry.name.endsWith(".sql")) names.push(entry.name);
  }
  names.sort();
  return Promise.all(
    names.map(async (name) => ({ name, sql: await Deno.readTextFile(new URL(name, MIGRATIONS_DIR)) })),
  );
}

/** Applies what is missing, on the database's writer (the primary, for a replicated database). */
export async function migrate(db: Database): Promise<string[]> {
  const applied = new Set(
    await db.transaction(async (tx) => {
      await tx.run(
        sql`CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL)`,
      );
      return (await tx.all<{ name: string }>(sql`SELECT name FROM schema_migrations`)).map((row) => row.name);
    }),
  );
  const newlyApplied: string[] = [];
  for (const migration of await listMigrations()) {
    if (applied.has(migration.name)) continue;
    await db.transaction(async (tx) => {
      // A concurrent process may have applied it since we looked.
      const done = await tx.run(sql`SELECT 1 FROM schema_migrations WHERE name = ${migration.name}`);
      if (done.rows.length > 0) return;
      for (const statement of splitStatements(migration.sql)) await tx.run(sql.raw(statement));
      await tx.run(
        sql`INSERT INTO schema_migrations (name, applied_at) VALUES (${migration.name}, ${
          new Date().toISOString()
        })`,
      );
      newlyApplied.push(migration.name);
    });
  }
  return newlyApplied;
}

/**
 * Splits a migration into statements at semicolons that end a line, keeping CREATE TRIGGER
 * bodies (BEGIN … END;) whole.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  let inTrigger = false;
  for (const line of sql.split("\n")) {
    const trimmed = line.trim();
    if (current.length === 0 && (trimmed === "" || trimmed.startsWith("--"))) continue;
    if (current.length === 0) inTrigger = /^CREATE\s+TRIGGER/i.test(trimmed);
    current.push(line);
    if (!trimmed.endsWith(";")) continue;
    if (inTrigger && !/\bEND;$/i.test(trimmed)) continue;
    statements.push(current.join("\n").trim());
    current = [];
  }
  if (current.join("").trim() !== "") statements.push(current.join("\n").trim());
  return statements;
}

/** The migrations this code needs that the database (read locally) does not carry yet. */
export async function missingMigrations(db: Database): Promise<string[]> {
  const table = await db.statements.get(
    "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?",
    [
      "schema_migrations",
    ],
  );
  const applied = new Set(
    table === undefined
      ? []
      : (await db.statements.all<{ name: string }>("SELECT name FROM schema_migrations", [])).map((row) =>
        row.name
      ),
  );
  return (await listMigrations()).map((migration) => migration.name).filter((name) => !applied.has(name));
}
