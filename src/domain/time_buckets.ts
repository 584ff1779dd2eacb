/**
 * Calendar buckets for charts, in UTC: the server counts rows per bucket, and these name every
 * bucket in a window so empty ones show as zero rather than vanish.
 *
 * @module
 */

/** "YYYY-MM" of the `count` months ending with `now`'s month, oldest first. */
export function lastMonths(now: Date, count: number): string[] {
  const months: string[] = [];
  for (let back = count - 1; back >= 0; back--) {
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    months.push(date.toISOString().slice(0, 7));
  }
  return months;
}

/** "YYYY-MM-DD" of the `count` days ending with `now`'s day, oldest first. */
export function lastDays(now: Date, count: number): string[] {
  const days: string[] = [];
  for (let back = count - 1; back >= 0; back--) {
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - back));
    days.push(date.toISOString().slice(0, 10));
  }
  return days;
}

/** "YYYY-MM-DDTHH" of the `count` hours ending with `now`'s hour, oldest first. */
export function lastHours(now: Date, count: number): string[] {
  const hours: string[] = [];
  const current = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), now.getUTCHours());
  for (let back = count - 1; back >= 0; back--) {
    hours.push(new Date(current - back * MS_PER_HOUR).toISOString().slice(0, 13));
  }
  return hours;
}

const MS_PER_HOUR = 3_600_000;

/** Counts by bucket name, in the buckets' order, 0 where a bucket has no row. */
export function fillBuckets(
  buckets: readonly string[],
  rows: readonly { bucket: string; count: number }[],
): number[] {
  const counts = new Map(rows.map((row) => [row.bucket, row.count]));
  return buckets.map((bucket) => counts.get(bucket) ?? 0);
}

export const HOURS_PER_DAY = 24;
