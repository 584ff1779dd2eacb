/**
 * A fingerprint of the database's business state: every table's row count, the audit trail's last
 * sequence number and the money totals. Tables written by design on any request (request logs,
 * rate-limit counters, sessions, sign-in throttling) are left out.
 */
import { sql } from "drizzle-orm";
import type { Queryable } from "../../../src/server/db/database.ts";

const SIDE_EFFECT_TABLES = /^(api_logs?|.*rate_limit.*|.*_counters?|sessions|login_throttle|.*lease.*)$/;

export async function businessTables(db: Queryable): Promise<string[]> {
  const rows = await db.all<{ name: string }>(sql`SELECT name FROM sqlite_master
    WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%' AND name NOT LIKE '__drizzle%'
    ORDER BY name`);
  return rows.map((r) => r.name).filter((name) => !SIDE_EFFECT_TABLES.test(name));
}

export async function stateFingerprint(db: Queryable): Promise<string> {
  const parts: string[] = [];
  for (const table of await businessTables(db)) {
    const [row] = await db.all<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM "${table}"`));
    parts.push(`${table}=${row.n}`);
  }
  const [audit] = await db.all<{ seq: number | null }>(sql`SELECT max(seq) AS seq FROM audit_trail`);
  parts.push(`audit_max_seq=${audit.seq ?? 0}`);
  const [ledger] = await db.all<{ total: number | null }>(
    sql`SELECT sum(current_balance_minor) + sum(available_balance_minor) AS total FROM ledger_accounts`,
  );
  parts.push(`ledger_total=${ledger.total ?? 0}`);
  const [cards] = await db.all<{ total: number | null }>(
    sql`SELECT sum(current_balance_minor) AS total FROM cards`,
  );
  parts.push(`card_total=${cards.total ?? 0}`);
  return parts.join(" ");
}
