/**
 * The reconciliation, run on a schedule at headquarters or on a standalone node, so that a difference
 * is heard of without anyone asking GET /api/ledger-accounts/reconciliation. A difference is announced
 * once: the event carries a fingerprint of the problems found, and the same set of problems found
 * again is not announced again (a different set is).
 */
import { sql } from "drizzle-orm";
import { createHash } from "node:crypto";
import { SYSTEM_USER_ID } from "../../../../db/schema.ts";
import { recordAudit } from "../../audit/trail.ts";
import type { Database } from "../../db/database.ts";
import { publishEvent } from "../../events/outbox.ts";
import { type PeriodicTask, startPeriodic } from "../../periodic.ts";
import { reconcile, type ReconciliationReport } from "./reconciliation.ts";

/** How often the ledger is reconciled in the background. */
export const RECONCILIATION_WATCH_INTERVAL_MS = 15 * 60_000;

const WATCH_ACTOR = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: "reconciliation-watch" };

/** The same problems give the same fingerprint, whatever order they were found in. */
function fingerprintOf(report: ReconciliationReport): string {
  const keys = report.problems.map((problem) =>
    [problem.code, problem.accountId, problem.sweepId, problem.entryId, problem.currency].join("|")
  ).sort();
  return createHash("sha256").update(`${report.problemCount}\n${keys.join("\n")}`).digest("hex");
}

/** Reconciles once; announces a difference not announced before. Returns whether it announced. */
export async function watchReconciliation(db: Database): Promise<boolean> {
  const report = await reconcile(db.readClient);
  if (report.ok) return false;
  const fingerprint = fingerprintOf(report);
  return await db.transaction(async (tx) => {
    const [last] = await tx.all<{ fingerprint: string | null }>(sql`SELECT json_extract(data, '$.fingerprint')
      AS fingerprint FROM events WHERE kind = 'reconciliation_difference' ORDER BY seq DESC LIMIT 1`);
    if (last?.fingerprint === fingerprint) return false;
    const first = report.problems[0];
    const summary = `Reconciliation found ${report.problemCount} difference${report.problemCount === 1 ? "" : "s"}` +
      ` between balances and the journal, first: ${first?.message ?? "see the reconciliation"}`;
    await recordAudit(tx, WATCH_ACTOR, {
      entityType: "ledger_reconciliation",
      entityId: report.checkedAt,
      action: "difference_found",
      changes: { problemCount: report.problemCount, problems: report.problems.slice(0, 10), fingerprint },
    });
    await publishEvent(tx, {
      kind: "reconciliation_difference",
      subjectType: "ledger_reconciliation",
      subjectId: report.checkedAt,
      summary,
      data: { fingerprint, problemCount: report.problemCount, checkedAt: report.checkedAt },
      audience: { roles: ["administrator", "auditor"] },
    });
    return true;
  });
}

export function startReconciliationWatch(db: Database): PeriodicTask {
  return startPeriodic("Reconciliation watch", RECONCILIATION_WATCH_INTERVAL_MS, async () => {
    await watchReconciliation(db);
  });
}
