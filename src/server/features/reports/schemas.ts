/** Request and response shapes of the reports API (spec 2.15 and 3: report types and export formats). */
import { z } from "zod";
import {
  DEFAULT_REPORT_FORMAT,
  REPORT_FORMATS,
  REPORT_TYPES,
  type ReportType,
  validateReportRange,
} from "../../../domain/report.ts";
import { type FilingState, MAX_FILING_NAME_LENGTH } from "../../../domain/compliance_schedule.ts";
import { paginationQuery, requiredEnum, requiredText } from "../../http/validation.ts";

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

/** A filing of the compliance schedule as an administrator enters it (src/domain/compliance_schedule.ts). */
export const createFilingSchema = z.object({
  name: requiredText(MAX_FILING_NAME_LENGTH),
  reportType: requiredEnum(REPORT_TYPES),
  opensOn: z.string().trim().max(10),
  dueDate: z.string().trim().max(10),
});
export type CreateFilingInput = z.infer<typeof createFilingSchema>;

/** A change to a filing: any of its fields, at least one. */
export const updateFilingSchema = createFilingSchema.partial().refine(
  (value) => Object.values(value).some((field) => field !== undefined),
  { message: "Give at least one of name, reportType, opensOn, dueDate" },
);
export type UpdateFilingInput = z.infer<typeof updateFilingSchema>;

export const filingIdParamSchema = z.object({ id: z.uuid() });

export interface ComplianceFiling {
  id: string;
  name: string;
  reportType: ReportType;
  opensOn: string;
  dueDate: string;
  state: FilingState;
  /** "Due 2026-12-05", "Overdue" or "Complete (generated 2026-11-28 by Ada Lovelace)". */
  label: string;
  /** The report that fulfilled the filing, when one did. */
  fulfilledBy: { reportId: string; generatedAt: string; generatedBy: string } | null;
}
