/** Request and response shapes of the reports API (spec 2.15 and 3: report types and export formats). */
import { z } from "zod";
import {
  DEFAULT_REPORT_FORMAT,
  REPORT_FORMATS,
  REPORT_TYPES,
  validateReportRange,
} from "../../../domain/report.ts";
import { paginationQuery, requiredEnum } from "../../http/validation.ts";

const isoDate = z.string().max(10);

export const createReportSchema = z.object({
  type: requiredEnum(REPORT_TYPES),
  from: isoDate,
  to: isoDate,
  format: z.enum(REPORT_FORMATS).default(DEFAULT_REPORT_FORMAT),
}).superRefine((value, ctx) => {
  const range = validateReportRange(value.from, value.to);
  if (!range.ok) {
    ctx.addIssue({ code: "custom", path: [range.error.field ?? "to"], message: range.error.message });
  }
});
export type CreateReportInput = z.infer<typeof createReportSchema>;

export const reportIdParamSchema = z.object({ id: z.uuid() });

export const reportListQuerySchema = paginationQuery;
export type ReportListQuery = z.infer<typeof reportListQuerySchema>;

export const reportRecordSchema = z.object({
  id: z.string(),
  type: z.enum(REPORT_TYPES),
  label: z.string(),
  from: z.string(),
  to: z.string(),
  format: z.enum(REPORT_FORMATS),
  status: z.enum(["completed", "failed"]),
  fileName: z.string(),
  rowCount: z.number().int().nullable(),
  sizeBytes: z.number().int().nullable(),
  sha256: z.string().nullable(),
  summary: z.unknown().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  createdBy: z.string(),
  createdByName: z.string().nullable(),
  downloadUrl: z.string().nullable(),
});
export type ReportRecord = z.infer<typeof reportRecordSchema>;

export const reportCountersSchema = z.object({
  /** Completed reports, all time. */
  total: z.number().int(),
  /** Completed reports since the first day of the current UTC month. */
  thisMonth: z.number().int(),
  /** Data rows exported by completed reports, all time. */
  rowsExported: z.number().int(),
  failed: z.number().int(),
  lastGeneratedAt: z.string().nullable(),
});
export type ReportCounters = z.infer<typeof reportCountersSchema>;

export const reportListSchema = z.object({
  items: z.array(reportRecordSchema),
  total: z.number().int(),
  counters: reportCountersSchema,
});
export type ReportList = z.infer<typeof reportListSchema>;
