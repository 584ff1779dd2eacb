/**
 * Bulk import of the registry at 100,000 rows (25,000 institutions, each with two routing codes and
 * one BIC): the dry run (POST /api/directory/imports/dry-run), one request through app.request()
 * in process on a fresh database, and the apply: the approval of the submitted import (which queues
 * it) and the applier's round that applies it in one transaction (features/registry_import/applier.ts).
 * Targets: dry run ≤ 15 s, apply ≤ 30 s.
 *
 * Run alone: `node_modules/.bin/deno run -A bench/registry_import.ts`
 * (IMPORT_BENCH_INSTITUTIONS overrides the 25,000 institutions for a smoke run.)
 */
import { applyQueuedImports } from "../src/server/features/registry_import/applier.ts";
import { directoryFile, generatedRecords } from "../tests/helpers/directory_import.ts";
import { operatorOf, seededStaff } from "../tests/helpers/staff.ts";
import { createTestApp, expectJson } from "../tests/helpers/test_app.ts";
import { type BenchRow, formatMs } from "./lib/report.ts";
import { sql } from "drizzle-orm";

const INSTITUTIONS = Number(Deno.env.get("IMPORT_BENCH_INSTITUTIONS") ?? 25_000);
/** Each generated institution comes with two routing codes and a BIC. */
const ROWS = INSTITUTIONS * 4;
export const TARGET_DRY_RUN_MS = 15_000;
export const TARGET_APPLY_MS = 30_000;
const CSV = { "content-type": "text/csv" };

export async function registryImportBench(log: (line: string) => void): Promise<BenchRow[]> {
  const t = await createTestApp();
  try {
    const operator = await operatorOf(t);
    const approver = await seededStaff(t, "bench-approver@centralbank.test", ["approver"]);
    const text = directoryFile(generatedRecords(INSTITUTIONS));
    log(
      `registry import: ${ROWS.toLocaleString("en-US")} rows, ${(text.length / 1024 / 1024).toFixed(1)} MiB`,
    );
    let started = performance.now();
    const dryRun = await t.request("POST", "/api/directory/imports/dry-run", {
      cookie: operator.cookie,
      body: text,
      headers: CSV,
    });
    const report = await expectJson<{ valid: boolean; rows: number }>(dryRun, 200);
    const dryRunMs = performance.now() - started;
    if (!report.valid || report.rows !== ROWS) {
      throw new Error(`the generated file did not pass: ${JSON.stringify(report)}`);
    }
    log(`  dry run ${formatMs(dryRunMs)}`);
    started = performance.now();
    const submitted = await expectJson<{ approvalRequest: { id: string } }>(
      await t.request("POST", "/api/directory/imports?requestReason=Bench", {
        cookie: operator.cookie,
        body: text,
        headers: CSV,
      }),
      202,
    );
    const submitMs = performance.now() - started;
    log(`  submission ${formatMs(submitMs)}`);
    started = performance.now();
    await expectJson(
      await t.request("POST", `/api/approvals/${submitted.approvalRequest.id}/approve`, {
        cookie: approver.cookie,
        body: { reason: "Bench" },
      }),
      200,
    );
    const approveMs = performance.now() - started;
    if (await applyQueuedImports(t.deps.db, () => t.deps.clock.now()) !== 1) {
      throw new Error("the applier did not settle the approved import");
    }
    const applyMs = performance.now() - started;
    const [{ state }] = await t.deps.db.read.all<{ state: string }>(
      sql`SELECT apply_state AS state FROM registry_imports`,
    );
    if (state !== "applied") throw new Error(`the import ended ${state}, not applied`);
    log(`  apply ${formatMs(applyMs)}`);
    const rows = ROWS.toLocaleString("en-US");
    return [
      {
        what: `Registry import dry run, ${rows} rows`,
        reference: "—",
        ours: formatMs(dryRunMs),
        ratio: null,
        target: `≤ ${TARGET_DRY_RUN_MS / 1000} s`,
        pass: dryRunMs <= TARGET_DRY_RUN_MS,
        note: "parse, check and classify against the registry; one request through app.request()",
      },
      {
        what: `Registry import apply, ${rows} rows`,
        reference: "—",
        ours: formatMs(applyMs),
        ratio: null,
        target: `≤ ${TARGET_APPLY_MS / 1000} s`,
        pass: applyMs <= TARGET_APPLY_MS,
        note:
          `the approval (${formatMs(approveMs)}, queues it) and the applier: judged again, inserted with ` +
          `their versions in one transaction; submission took ${formatMs(submitMs)}`,
      },
    ];
  } finally {
    await t.close();
  }
}

if (import.meta.main) {
  const rows = await registryImportBench((line) => console.log(line));
  for (const row of rows) {
    console.log(`${row.what}: ${row.ours} (target ${row.target}) ${row.pass ? "pass" : "MISS"}`);
  }
}
