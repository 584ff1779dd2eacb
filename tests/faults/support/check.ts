/** Opens a data dir's database (the server's own module) and checks the invariants and acknowledged records. */
import { sql } from "drizzle-orm";
import { openDatabase } from "../../../src/server/db/database.ts";
import { useChainKeyOfDatabase } from "../../helpers/test_app.ts";
import { checkInvariants, type InvariantReport } from "./invariants.ts";
import type { StormResult } from "./storm.ts";

/**
 * `dataDir` (when given) also checks generated report files: each completed report's file exists
 * with its recorded size and SHA-256.
 */
export async function checkDatabase(
  databaseUrl: string,
  acked?: StormResult["acked"],
  dataDir?: string,
): Promise<InvariantReport> {
  await useChainKeyOfDatabase(databaseUrl);
  const db = await openDatabase(databaseUrl);
  try {
    const report = await checkInvariants(db.read);
    if (acked) {
      const missing = async (table: string, ids: string[]) => {
        for (const id of new Set(ids)) {
          const rows = await db.read.all(
            sql.raw(`SELECT 1 FROM "${table}" WHERE id = '${id.replace(/'/g, "''")}'`),
          );
          if (rows.length === 0) report.violations.push(`acknowledged ${table} row ${id} is missing`);
        }
      };
      await missing("balance_sweeps", acked.sweeps);
      await missing("institutions", acked.institutions);
      await missing("cards", acked.cards);
      if (acked.reports) await missing("generated_reports", acked.reports.filter(Boolean));
    }
    if (
      dataDir &&
      (await db.read.all(sql`SELECT 1 FROM sqlite_master WHERE name = 'generated_reports'`)).length > 0
    ) {
      const reports = await db.read.all<{ id: string; format: string; size: number; sha256: string }>(
        sql`SELECT id,
          format, size_bytes AS size, sha256 FROM generated_reports WHERE status = 'completed'`,
      );
      for (const r of reports) {
        let bytes: Uint8Array<ArrayBuffer>;
        try {
          bytes = await Deno.readFile(`${dataDir}/reports/${r.id}.${r.format}`);
        } catch {
          report.violations.push(`completed report ${r.id} has no file`);
          continue;
        }
        const digest = Array.from(
          new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)),
          (b) => b.toString(16).padStart(2, "0"),
        ).join("");
        if (bytes.byteLength !== r.size || digest !== r.sha256) {
          report.violations.push(`report ${r.id} file does not match its record`);
        }
      }
      const unaudited = await db.read.all<{ id: string }>(
        sql`SELECT r.id FROM generated_reports r WHERE NOT EXISTS
        (SELECT 1 FROM audit_trail a WHERE a.entity_id = r.id) LIMIT 5`,
      );
      for (const u of unaudited) report.violations.push(`report ${u.id} has no audit row`);
      report.counts.generated_reports = reports.length;
      const recorded = new Set((await db.read.all<{ id: string; format: string }>(
        sql`SELECT id, format FROM generated_reports WHERE status = 'completed'`,
      )).map((r) => `${r.id}.${r.format}`));
      try {
        for await (const entry of Deno.readDir(`${dataDir}/reports`)) {
          if (!recorded.has(entry.name)) {
            report.observations.push(`reports/${entry.name} has no completed record`);
          }
        }
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
    return report;
  } finally {
    db.close();
  }
}
