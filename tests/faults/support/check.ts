/** Opens a data dir's database (the server's own module) and checks the invariants and acknowledged records. */
import { sql } from "drizzle-orm";
import { openDatabase } from "../../../src/server/db.ts";
import { checkInvariants, type InvariantReport } from "./invariants.ts";
import type { StormResult } from "./storm.ts";

export async function checkDatabase(databaseUrl: string, acked?: StormResult["acked"]): Promise<InvariantReport> {
  const db = await openDatabase(databaseUrl);
  try {
    const report = await checkInvariants(db.read);
    if (acked) {
      const missing = async (table: string, ids: string[]) => {
        for (const id of new Set(ids)) {
          const rows = await db.read.all(sql.raw(`SELECT 1 FROM "${table}" WHERE id = '${id.replace(/'/g, "''")}'`));
          if (rows.length === 0) report.violations.push(`acknowledged ${table} row ${id} is missing`);
        }
      };
      await missing("balance_sweeps", acked.sweeps);
      await missing("institutions", acked.institutions);
      await missing("cards", acked.cards);
    }
    return report;
  } finally {
    db.close();
  }
}
