/**
 * The Reports screen's compliance schedule: filings that administrators schedule, each naming the
 * report type that fulfils it, the day it opens and the day it is due. Its state is computed, never
 * typed in: complete once a report of that type has been generated since the filing opened,
 * otherwise due until its due date and overdue after it.
 *
 * @module
 */

import { parseIsoDate } from "./report.ts";
import { err, ok, type Result } from "./result.ts";

export const MAX_FILING_NAME_LENGTH = 200;

export type FilingState = "due" | "overdue" | "complete";

export interface FilingFacts {
  /** YYYY-MM-DD, the last day on which the filing is on time. */
  dueDate: string;
  /** The first report of the filing's type generated since it opened, or null. */
  fulfilledBy: { generatedAt: string; generatedBy: string } | null;
}

/**
 * "Complete (generated 2026-11-28 by Ada Lovelace)", "Overdue" or "Due 2026-12-05"; `today` is the
 * UTC day (YYYY-MM-DD) the schedule is read on.
 */
export function filingStatus(filing: FilingFacts, today: string): { state: FilingState; label: string } {
  if (filing.fulfilledBy !== null) {
    const { generatedAt, generatedBy } = filing.fulfilledBy;
    return { state: "complete", label: `Complete (generated ${generatedAt.slice(0, 10)} by ${generatedBy})` };
  }
  if (today > filing.dueDate) return { state: "overdue", label: "Overdue" };
  return { state: "due", label: `Due ${filing.dueDate}` };
}

/** Both days real dates, and the filing open on or before its due date. */
export function validateFilingDates(opensOn: string, dueDate: string): Result<{ opensOn: string; dueDate: string }> {
  if (parseIsoDate(opensOn) === null) return err("invalid_date", "Must be a date like 2026-12-01", "opensOn");
  if (parseIsoDate(dueDate) === null) return err("invalid_date", "Must be a date like 2026-12-31", "dueDate");
  if (opensOn > dueDate) return err("range_reversed", "Must not be before the day the filing opens", "dueDate");
  return ok({ opensOn, dueDate });
}
