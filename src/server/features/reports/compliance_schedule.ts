/**
 * The compliance schedule: filings administrators schedule, each fulfilled by a report type. Whether
 * a filing is complete is read from the generated reports each time (the first completed report of
 * its type generated since it opened), so the schedule cannot say "Complete" without a report to
 * show for it. Every change commits with its audit row.
 */
import { eq, sql } from "drizzle-orm";
import { complianceFilings } from "../../../../db/schema.ts";
import { filingStatus, validateFilingDates } from "../../../domain/compliance_schedule.ts";
import type { ReportType } from "../../../domain/report.ts";
import { type Actor, recordAudit, recordCreation } from "../../audit/trail.ts";
import type { Database, Queryable } from "../../db/database.ts";
import { personNameSql } from "../../db/person_name.ts";
import { fromDomainError, notFound } from "../../http/errors.ts";
import type { ComplianceFiling, CreateFilingInput, UpdateFilingInput } from "./schemas.ts";

export const FILING_AUDIT_ENTITY = "compliance_filing";

interface FilingRow {
  id: string;
  name: string;
  reportType: ReportType;
  opensOn: string;
  dueDate: string;
  reportId: string | null;
  generatedAt: string | null;
  generatedBy: string | null;
}

function present(row: FilingRow, today: string): ComplianceFiling {
  const fulfilledBy = row.reportId === null
    ? null
    : { reportId: row.reportId, generatedAt: row.generatedAt ?? "", generatedBy: row.generatedBy ?? "" };
  return {
    id: row.id,
    name: row.name,
    reportType: row.reportType,
    opensOn: row.opensOn,
    dueDate: row.dueDate,
    ...filingStatus({ dueDate: row.dueDate, fulfilledBy }, today),
    fulfilledBy,
  };
}

async function selectFilings(db: Queryable, where: ReturnType<typeof sql>, now: Date) {
  const rows = await db.all<FilingRow>(sql`SELECT f.id, f.name, f.report_type AS reportType,
      f.opens_on AS opensOn, f.due_date AS dueDate, r.id AS reportId, r.created_at AS generatedAt,
      ${personNameSql("u")} AS generatedBy
    FROM compliance_filings f
    LEFT JOIN generated_reports r ON r.id = (SELECT g.id FROM generated_reports g
      WHERE g.report_type = f.report_type AND g.status = 'completed' AND g.created_at >= f.opens_on
      ORDER BY g.created_at, g.id LIMIT 1)
    LEFT JOIN users u ON u.id = r.created_by
    WHERE ${where}
    ORDER BY f.due_date, f.name, f.id`);
  const today = now.toISOString().slice(0, 10);
  return rows.map((row) => present(row, today));
}

export function listFilings(db: Queryable, now = new Date()): Promise<ComplianceFiling[]> {
  return selectFilings(db, sql`1 = 1`, now);
}

async function findFiling(db: Queryable, id: string): Promise<ComplianceFiling> {
  const [found] = await selectFilings(db, sql`f.id = ${id}`, new Date());
  if (found === undefined) throw notFound("Compliance filing");
  return found;
}

function checkedDates(opensOn: string, dueDate: string) {
  const dates = validateFilingDates(opensOn, dueDate);
  if (!dates.ok) throw fromDomainError(dates.error);
  return dates.value;
}

/** What the audit row keeps of a filing: what an administrator set, not the computed state. */
const settings = (filing: ComplianceFiling) => ({
  name: filing.name,
  reportType: filing.reportType,
  opensOn: filing.opensOn,
  dueDate: filing.dueDate,
});

export async function createFiling(db: Database, actor: Actor, input: CreateFilingInput): Promise<ComplianceFiling> {
  const { opensOn, dueDate } = checkedDates(input.opensOn, input.dueDate);
  const id = crypto.randomUUID();
  return await db.transaction(async (tx) => {
    await tx.insert(complianceFilings).values({
      id,
      name: input.name,
      reportType: input.reportType,
      opensOn,
      dueDate,
      createdBy: actor.userId,
      createdAt: new Date().toISOString(),
    });
    const created = await findFiling(tx, id);
    await recordCreation(tx, actor, FILING_AUDIT_ENTITY, id, settings(created));
    return created;
  });
}

export async function updateFiling(
  db: Database,
  actor: Actor,
  id: string,
  input: UpdateFilingInput,
): Promise<ComplianceFiling> {
  return await db.transaction(async (tx) => {
    const before = await findFiling(tx, id);
    const next = { ...settings(before), ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
    const { opensOn, dueDate } = checkedDates(next.opensOn, next.dueDate);
    await tx.update(complianceFilings).set({
      name: next.name,
      reportType: next.reportType,
      opensOn,
      dueDate,
      updatedBy: actor.userId,
      updatedAt: new Date().toISOString(),
    }).where(eq(complianceFilings.id, id));
    const after = await findFiling(tx, id);
    await recordAudit(tx, actor, {
      entityType: FILING_AUDIT_ENTITY,
      entityId: id,
      action: "update",
      changes: { before: settings(before), after: settings(after) },
    });
    return after;
  });
}

export async function removeFiling(db: Database, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findFiling(tx, id);
    await tx.delete(complianceFilings).where(eq(complianceFilings.id, id));
    await recordAudit(tx, actor, {
      entityType: FILING_AUDIT_ENTITY,
      entityId: id,
      action: "delete",
      changes: { before: settings(before), after: null },
    });
  });
}
