/**
 * Report requests: the report types and export formats of spec section 3, the date range a report
 * covers, and the download's file name.
 *
 * A range is two calendar dates (YYYY-MM-DD), both inclusive, read as UTC days: 2026-01-01 to
 * 2026-01-31 covers every timestamp from 2026-01-01T00:00:00.000Z up to, not including,
 * 2026-02-01T00:00:00.000Z. Ranges are bounded (at most {@linkcode MAX_REPORT_RANGE_YEARS} years)
 * so one request cannot ask for an unbounded scan.
 *
 * @module
 */

import { err, ok, type Result } from "./result.ts";

export const REPORT_TYPES = [
  "institutions",
  "routing-codes",
  "swift-activity",
  "iban-validation",
  "api-usage",
  "audit-trail",
] as const;
export type ReportType = typeof REPORT_TYPES[number];

export const REPORT_FORMATS = ["pdf", "csv", "xlsx", "xml"] as const;
export type ReportFormat = typeof REPORT_FORMATS[number];
export const DEFAULT_REPORT_FORMAT: ReportFormat = "pdf";

export const REPORT_TYPE_LABELS: Readonly<Record<ReportType, string>> = {
  "institutions": "Institutions Report",
  "routing-codes": "Routing Codes Report",
  "swift-activity": "SWIFT Activity Report",
  "iban-validation": "IBAN Validation Report",
  "api-usage": "API Usage Report",
  "audit-trail": "Audit Trail Report",
};

export const REPORT_FORMAT_LABELS: Readonly<Record<ReportFormat, string>> = {
  pdf: "PDF",
  csv: "CSV",
  xlsx: "Excel (XLSX)",
  xml: "XML",
};

export const REPORT_CONTENT_TYPES: Readonly<Record<ReportFormat, string>> = {
  pdf: "application/pdf",
  csv: "text/csv; charset=utf-8; header=present",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xml: "application/xml; charset=utf-8",
};

export const MAX_REPORT_RANGE_YEARS = 5;

export function isReportType(value: string): value is ReportType {
  return (REPORT_TYPES as readonly string[]).includes(value);
}

export function isReportFormat(value: string): value is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(value);
}

export interface DateRange {
  /** First day, YYYY-MM-DD, inclusive. */
  from: string;
  /** Last day, YYYY-MM-DD, inclusive. */
  to: string;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** Milliseconds since the epoch at the start of the UTC day, or null for anything but a real calendar date. */
export function parseIsoDate(text: string): number | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return null;
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  // Date.UTC rolls 2026-02-30 over to March; a real date survives the round trip.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return null;
  }
  return ms;
}

function formatIsoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The UTC day `years` calendar years after the day `ms` (29 February lands on 1 March in a common year). */
function addYears(ms: number, years: number): number {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear() + years, date.getUTCMonth(), date.getUTCDate());
}

export type ReportRangeErrorCode = "invalid_date" | "range_reversed" | "range_too_long";

/**
 * Checks a requested range: both real dates, `from` not after `to`, and the whole range within
 * {@linkcode MAX_REPORT_RANGE_YEARS} years (2021-01-01 to 2025-12-31 is the longest from 2021-01-01).
 */
export function validateReportRange(from: string, to: string): Result<DateRange> {
  const fromMs = parseIsoDate(from);
  if (fromMs === null) {
    return err("invalid_date", "from must be a calendar date in the form YYYY-MM-DD", "from");
  }
  const toMs = parseIsoDate(to);
  if (toMs === null) return err("invalid_date", "to must be a calendar date in the form YYYY-MM-DD", "to");
  if (toMs < fromMs) return err("range_reversed", "to must be on or after from", "to");
  if (toMs + MS_PER_DAY > addYears(fromMs, MAX_REPORT_RANGE_YEARS)) {
    return err("range_too_long", `The range must not exceed ${MAX_REPORT_RANGE_YEARS} years`, "to");
  }
  return ok({ from, to });
}

/** The half-open UTC timestamp interval [start, endExclusive) a valid range covers, as ISO-8601 strings. */
export function rangeBounds(range: DateRange): { start: string; endExclusive: string } {
  const fromMs = parseIsoDate(range.from);
  const toMs = parseIsoDate(range.to);
  if (fromMs === null || toMs === null) throw new Error("rangeBounds() needs a validated range");
  return {
    start: new Date(fromMs).toISOString(),
    endExclusive: new Date(toMs + MS_PER_DAY).toISOString(),
  };
}

/** "institutions_2026-01-01_2026-01-31.pdf": only [a-z0-9_.-], so it needs no escaping in a header. */
export function reportFileName(type: ReportType, range: DateRange, format: ReportFormat): string {
  return `${type}_${range.from}_${range.to}.${format}`;
}

/** The first day of the UTC month that `instant` falls in, YYYY-MM-DD. */
export function startOfUtcMonth(instant: Date): string {
  return formatIsoDate(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), 1));
}
