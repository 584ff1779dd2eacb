/**
 * Report generation and the record of generated reports.
 *
 * A report is written to DATA_DIR/reports/<id>.<format>.part through the format's stream (one
 * page of rows in memory at a time), synced, renamed to its final name, and only then recorded as
 * completed together with its audit row in one transaction. The download is served from that
 * file, so the caller receives exactly the bytes whose size and SHA-256 were recorded, and a
 * generation that fails part-way never answers 200 with a truncated file: it is recorded as
 * failed (with its own audit row) and leaves no file behind. Reports copy out what the database
 * holds, so like the database they are owner-only: the folder 0700, each file 0600.
 */
import { createHash } from "node:crypto";
import { desc, eq, sql } from "drizzle-orm";
import { generatedReports, SYSTEM_USER_ID, users } from "../../../../db/schema.ts";
import {
  type DateRange,
  REPORT_TYPE_LABELS,
  reportFileName,
  type ReportFormat,
  type ReportType,
  startOfUtcMonth,
} from "../../../domain/report.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import type { Config } from "../../config.ts";
import type { AppDeps } from "../../http/context.ts";
import type { Db } from "../../db/database.ts";
import { AppError, notFound } from "../../http/errors.ts";
import { createPrivateDir, narrowOwnedFolder, PRIVATE_FILE_MODE } from "../../file_modes.ts";
import { readSystemSettings, type SystemSettings } from "../../settings/system_settings.ts";
import type {
  CreateReportInput,
  ReportCounters,
  ReportList,
  ReportListQuery,
  ReportRecord,
} from "./schemas.ts";
import { buildReportData, countReportRows, type SourceContext } from "./sources.ts";
import type { ReportMeta, WriteProgress } from "./writers.ts";

export const REPORTS_DIR_NAME = "reports";
/** A PDF is read by people: past this many rows the export formats serve better (and PDF layout is the slowest). */
export const MAX_PDF_ROWS = 50_000;
const MAX_ERROR_LENGTH = 500;
const PART_SUFFIX = ".part";
export const REPORT_ENTITY_TYPE = "report";

export function reportsDir(config: Config): string {
  return `${config.dataDir.replace(/\/+$/, "")}/${REPORTS_DIR_NAME}`;
}

export function reportFilePath(config: Config, id: string, format: ReportFormat): string {
  return `${reportsDir(config)}/${id}.${format}`;
}

type RecordRow = typeof generatedReports.$inferSelect & {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
};

function toRecord(row: RecordRow): ReportRecord {
  const name = [row.firstName, row.lastName].filter(Boolean).join(" ") || row.email;
  return {
    id: row.id,
    type: row.reportType as ReportType,
    label: REPORT_TYPE_LABELS[row.reportType as ReportType] ?? row.reportType,
    from: row.dateFrom,
    to: row.dateTo,
    format: row.format as ReportFormat,
    status: row.status,
    fileName: row.fileName,
    rowCount: row.rowCount,
    sizeBytes: row.sizeBytes,
    sha256: row.sha256,
    summary: row.summary ?? null,
    error: row.error,
    createdAt: row.createdAt,
    completedAt: row.completedAt,
    createdBy: row.createdBy,
    createdByName: name ?? null,
    downloadUrl: row.status === "completed" ? `/api/reports/${row.id}/download` : null,
  };
}

const recordColumns = {
  report: generatedReports,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
};

async function readRecord(db: Db, id: string): Promise<ReportRecord | null> {
  const [row] = await db.select(recordColumns).from(generatedReports)
    .leftJoin(users, eq(users.id, generatedReports.createdBy))
    .where(eq(generatedReports.id, id));
  return row
    ? toRecord({ ...row.report, firstName: row.firstName, lastName: row.lastName, email: row.email })
    : null;
}

export async function listReports(db: Db, query: ReportListQuery, now = new Date()): Promise<ReportList> {
  const rows = await db.select(recordColumns).from(generatedReports)
    .leftJoin(users, eq(users.id, generatedReports.createdBy))
    .orderBy(desc(generatedReports.createdAt), desc(generatedReports.id))
    .limit(query.limit)
    .offset(query.offset);
  const monthStart = `${startOfUtcMonth(now)}T00:00:00.000Z`;
  const t = generatedReports;
  const [totals] = await db.select({
    all: sql<number>`count(*)`,
    total: sql<number>`coalesce(sum(${t.status} = 'completed'), 0)`,
    thisMonth: sql<number>`coalesce(sum(${t.status} = 'completed' AND ${t.createdAt} >= ${monthStart}), 0)`,
    rowsExported: sql<number>`coalesce(sum(CASE WHEN ${t.status} = 'completed' THEN ${t.rowCount} END), 0)`,
    failed: sql<number>`coalesce(sum(${t.status} = 'failed'), 0)`,
    lastGeneratedAt: sql<string | null>`max(CASE WHEN ${t.status} = 'completed' THEN ${t.completedAt} END)`,
  }).from(t);
  const counters: ReportCounters = {
    total: totals.total,
    thisMonth: totals.thisMonth,
    rowsExported: totals.rowsExported,
    failed: totals.failed,
    lastGeneratedAt: totals.lastGeneratedAt,
  };
  return {
    items: rows.map((row) =>
      toRecord({ ...row.report, firstName: row.firstName, lastName: row.lastName, email: row.email })
    ),
    total: totals.all,
    counters,
  };
}

export interface GenerationRequester {
  actor: Actor;
  /** Printed in the report as "Generated by". */
  label: string;
}

export interface ReportFile {
  record: ReportRecord;
  path: string;
}

interface WrittenFile {
  sizeBytes: number;
  sha256: string;
}

/** Streams `stream` into a new file at `path` (never overwriting), hashing as it goes, and syncs it to disk. */
async function writeStreamToFile(stream: ReadableStream<Uint8Array>, path: string): Promise<WrittenFile> {
  const file = await Deno.open(path, { write: true, createNew: true, mode: PRIVATE_FILE_MODE });
  const writer = file.writable.getWriter();
  const hash = createHash("sha256");
  let sizeBytes = 0;
  try {
    for await (const chunk of stream) {
      hash.update(chunk);
      sizeBytes += chunk.byteLength;
      await writer.write(chunk);
    }
    await file.syncData();
    await writer.close();
  } catch (error) {
    await writer.abort(error).catch(() => {});
    throw error;
  }
  return { sizeBytes, sha256: hash.digest("hex") };
}

async function removeIfPresent(path: string): Promise<void> {
  await Deno.remove(path).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text || "unknown error").slice(0, MAX_ERROR_LENGTH);
}

/** What a report's row and its audit rows say of it, whether it completes or fails. */
interface ReportBase {
  id: string;
  reportType: ReportType;
  dateFrom: string;
  dateTo: string;
  format: ReportFormat;
  fileName: string;
}

export async function generateReport(
  deps: AppDeps,
  requester: GenerationRequester,
  input: CreateReportInput,
): Promise<ReportFile> {
  const type = input.type;
  const format = input.format;
  const range: DateRange = { from: input.from, to: input.to };
  const id = crypto.randomUUID();
  const createdAt = new Date().toISOString();
  const fileName = reportFileName(type, range, format);
  const context = { db: deps.db.read, range, cutoff: createdAt };

  if (format === "pdf") await assertPdfFits(type, context);

  const finalPath = reportFilePath(deps.config, id, format);
  const partPath = `${finalPath}${PART_SUFFIX}`;
  const base = { id, reportType: type, dateFrom: range.from, dateTo: range.to, format, fileName };
  try {
    await createPrivateDir(reportsDir(deps.config));
    await writeAndRecord(deps, requester, { base, context, createdAt, partPath, finalPath });
  } catch (error) {
    await removeIfPresent(partPath).catch(() => {});
    await removeIfPresent(finalPath).catch(() => {});
    const reason = describeError(error);
    console.error(`report ${id} (${type}, ${format}) failed:`, error);
    await recordFailure(deps, requester.actor, { ...base, createdAt }, reason).catch((recordError) =>
      console.error(`report ${id}: recording the failure failed too:`, recordError)
    );
    throw new AppError("internal", "Report generation failed; no report was recorded as completed", {
      extra: { reportId: id },
    });
  }
  const record = await readRecord(deps.db.read, id);
  if (!record) throw new Error(`report ${id} was committed but cannot be read back`);
  return { record, path: finalPath };
}

async function assertPdfFits(type: ReportType, context: SourceContext) {
  const rows = await countReportRows(type, context);
  if (rows > MAX_PDF_ROWS) {
    const message =
      `A PDF report holds at most ${MAX_PDF_ROWS} rows and this range has ${rows}: choose CSV, XLSX or XML, or a shorter range`;
    throw new AppError("unprocessable", message, { field: "format", fields: { format: message } });
  }
}

/** What a report's header says of the system, from the System Settings' General tab. */
const reportSystem = (settings: SystemSettings) => ({
  systemName: settings.systemName,
  countryCode: settings.countryCode,
  currency: settings.currency,
  timezone: settings.timezone,
});

/** Writes the file under its part name, renames it into place, then records it with its audit row. */
async function writeAndRecord(
  deps: AppDeps,
  requester: GenerationRequester,
  job: {
    base: ReportBase;
    context: SourceContext;
    createdAt: string;
    partPath: string;
    finalPath: string;
  },
) {
  const { base, context, createdAt } = job;
  const data = await buildReportData(base.reportType, context, { chainColumn: base.format === "csv" });
  const meta: ReportMeta = {
    id: base.id,
    type: base.reportType,
    title: REPORT_TYPE_LABELS[base.reportType],
    range: context.range,
    generatedAt: createdAt,
    generatedBy: requester.label,
    ...reportSystem(await readSystemSettings(deps.db)),
  };
  const progress: WriteProgress = { rows: 0 };
  // Loaded on the first report: pdfkit and exceljs take a large share of the process's memory from
  // the moment they are imported, and most processes never write a report.
  const { writeReport } = await import("./writers.ts");
  const written = await writeStreamToFile(writeReport(base.format, meta, data, progress), job.partPath);
  await Deno.rename(job.partPath, job.finalPath);
  const row = {
    ...base,
    status: "completed" as const,
    rowCount: progress.rows,
    sizeBytes: written.sizeBytes,
    sha256: written.sha256,
    summary: data.summary,
    createdBy: requester.actor.userId,
    createdAt,
    completedAt: new Date().toISOString(),
  };
  await deps.db.transaction(async (tx) => {
    await tx.insert(generatedReports).values(row);
    await recordAudit(tx, requester.actor, {
      entityType: REPORT_ENTITY_TYPE,
      entityId: base.id,
      action: "generate",
      changes: {
        before: null,
        after: {
          ...base,
          status: row.status,
          rowCount: row.rowCount,
          sizeBytes: row.sizeBytes,
          sha256: row.sha256,
          summary: row.summary,
        },
      },
    });
  });
}

async function recordFailure(
  deps: AppDeps,
  actor: Actor,
  base: ReportBase & { createdAt: string },
  reason: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await tx.insert(generatedReports).values({
      ...base,
      status: "failed",
      error: reason,
      createdBy: actor.userId,
    });
    await recordAudit(tx, actor, {
      entityType: REPORT_ENTITY_TYPE,
      entityId: base.id,
      action: "generate_failed",
      changes: { before: null, after: { ...base, status: "failed", error: reason } },
    });
  });
}

/** The stored file of a completed report, checked against its recorded size. */
export async function openReportFile(deps: AppDeps, id: string): Promise<ReportFile & { file: Deno.FsFile }> {
  const record = await readRecord(deps.db.read, id);
  if (!record) throw notFound("Report");
  if (record.status !== "completed") {
    throw new AppError("conflict", "This report failed to generate and has no file");
  }
  const path = reportFilePath(deps.config, id, record.format);
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw notFound("Report file");
    throw error;
  }
  const { size } = await file.stat();
  if (size !== record.sizeBytes) {
    file.close();
    throw new AppError("internal", "The stored report file does not match its record");
  }
  return { record, path, file };
}

/** At start: a reports folder and files left readable to others by an earlier version are narrowed. */
export async function narrowReportModes(config: Config, log: (line: string) => void): Promise<number> {
  const narrowed = await narrowOwnedFolder(reportsDir(config));
  if (narrowed > 0) log(`Narrowed ${narrowed} report folder and file mode(s) to owner-only (0700/0600).`);
  return narrowed;
}

/**
 * A report whose process died mid-write leaves `<id>.<format>.part` with no record. Another live
 * process may be writing a .part right now, so only files untouched for this long are removed.
 */
export const STALE_PART_FILE_AGE_MS = 10 * 60_000;

export async function removeStaleReportParts(
  config: Config,
  log: (line: string) => void,
  now = Date.now(),
): Promise<number> {
  let removed = 0;
  try {
    for await (const entry of Deno.readDir(reportsDir(config))) {
      if (!entry.isFile || !entry.name.endsWith(PART_SUFFIX)) continue;
      const path = `${reportsDir(config)}/${entry.name}`;
      const modifiedMs = (await Deno.stat(path)).mtime?.getTime() ?? 0;
      if (now - modifiedMs < STALE_PART_FILE_AGE_MS) continue;
      await Deno.remove(path).catch((error) => {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      });
      removed += 1;
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (removed > 0) log(`Removed ${removed} unfinished report file(s) left by an interrupted generation.`);
  return removed;
}

/** Records deleted per pruning transaction, so pruning never holds the write lock for long. */
const REPORT_PRUNE_CHUNK_ROWS = 500;

/**
 * Deletes the reports generated before the System Settings' report retention, records and files,
 * one audit row per transaction; nothing while the retention is unset. Run at headquarters and on a
 * standalone node; a report's file is removed where this runs (reports are generated there too,
 * and a file whose record is gone is never served).
 */
export async function pruneReports(deps: Pick<AppDeps, "db" | "config">, nowMs: number): Promise<number> {
  const { reportRetentionDays } = await readSystemSettings(deps.db);
  if (reportRetentionDays === null) return 0;
  const cutoff = new Date(nowMs - reportRetentionDays * 86_400_000).toISOString();
  let total = 0;
  for (;;) {
    const gone = await deps.db.transaction(async (tx) => {
      const rows = await tx.all<{ id: string; format: ReportFormat }>(sql`DELETE FROM generated_reports
        WHERE id IN (SELECT id FROM generated_reports WHERE created_at < ${cutoff} LIMIT ${REPORT_PRUNE_CHUNK_ROWS})
        RETURNING id, format`);
      if (rows.length > 0) {
        await recordAudit(tx, PRUNING_ACTOR, {
          entityType: REPORT_ENTITY_TYPE,
          entityId: "retention",
          action: "prune",
          changes: { deleted: rows.length, before: cutoff, retentionDays: reportRetentionDays },
        });
      }
      return rows;
    });
    for (const row of gone) await removeIfPresent(reportFilePath(deps.config, row.id, row.format));
    total += gone.length;
    if (gone.length < REPORT_PRUNE_CHUNK_ROWS) return total;
  }
}

const PRUNING_ACTOR: Actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: "report-retention" };

export const REPORT_PRUNE_INTERVAL_MS = 3_600_000;

/** Prunes old reports hourly at headquarters and on a standalone node; returns the stop function, or null. */
export function startReportRetention(deps: AppDeps, log: (line: string) => void): (() => void) | null {
  if (deps.config.role === "regional") return null;
  const timer = setInterval(() => {
    pruneReports(deps, deps.clock.now()).then(
      (removed) => removed > 0 && log(`Removed ${removed} report(s) past the report retention.`),
      (error) => log(`Pruning old reports failed: ${error instanceof Error ? error.message : error}`),
    );
  }, REPORT_PRUNE_INTERVAL_MS);
  return () => clearInterval(timer);
}
