/**
 * Layout rules of the PDF report: timestamps as a reader expects them, and column
 * widths in which no header has to break inside a word.
 *
 * @module
 */

const ISO_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?Z$/;

/** "2026-01-11T15:13:45.123Z" reads "2026-01-11 15:13 UTC"; any other text is left as it is. */
export function pdfTimestamp(value: string): string {
  const match = ISO_TIMESTAMP.exec(value);
  return match ? `${match[1]} ${match[2]} UTC` : value;
}

/**
 * Splits `total` between columns by weight, but gives each at least its minimum (the width of its
 * header's longest word plus padding), taking what the minimums need from the columns that have
 * room to spare, in proportion to their weights. If even the minimums do not fit, they are scaled
 * down together (the caller then uses a smaller header font).
 */
export function fitColumnWidths(
  total: number,
  weights: readonly number[],
  minimums: readonly number[],
): number[] {
  const minimumSum = minimums.reduce((sum, width) => sum + width, 0);
  if (minimumSum >= total) return minimums.map((width) => (width * total) / minimumSum);
  const widths = new Array<number>(weights.length).fill(0);
  const pinned = new Set<number>();
  // Each pass pins the columns whose share falls below their minimum; at most one pass per column.
  for (;;) {
    const free = weights.map((_, i) => i).filter((i) => !pinned.has(i));
    const room = total - [...pinned].reduce((sum, i) => sum + minimums[i], 0);
    const weightSum = free.reduce((sum, i) => sum + weights[i], 0);
    const short = free.filter((i) => (room * weights[i]) / weightSum < minimums[i]);
    if (short.length === 0) {
      for (const i of free) widths[i] = (room * weights[i]) / weightSum;
      for (const i of pinned) widths[i] = minimums[i];
      return widths;
    }
    for (const i of short) pinned.add(i);
  }
}

/** The words of a header, which must each fit on one line. */
export function headerWords(label: string): string[] {
  return label.split(/\s+/).filter(Boolean);
}

/**
 * A summary's rows: values by count, largest first (ties by value), at most `limit` rows; when
 * there are more values, the last row counts the remaining ones together as "Other".
 */
export function summaryEntries(counts: ReadonlyMap<string, number>, limit: number): [string, number][] {
  const sorted = [...counts].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  if (sorted.length <= limit) return sorted;
  const kept = sorted.slice(0, limit - 1);
  const rest = sorted.slice(limit - 1).reduce((sum, [, count]) => sum + count, 0);
  return [...kept, ["Other", rest]];
}

/**
 * Which summary the first page's chart draws: the one with the most rows (the most distinct
 * values), the first of them on a tie; -1 when there is none to draw.
 */
export function chartedSummary(summaries: readonly (readonly unknown[])[]): number {
  let chosen = -1;
  summaries.forEach((entries, i) => {
    if (entries.length > 0 && (chosen === -1 || entries.length > summaries[chosen].length)) chosen = i;
  });
  return chosen;
}

/**
 * The count axis of a bar chart: whole-number ticks from 0 in steps of 1, 2 or 5 times a power of
 * ten, the last at or above `most`, at most `maxTicks` intervals.
 */
export function countAxisTicks(most: number, maxTicks: number): number[] {
  const top = Math.max(1, Math.ceil(most));
  let step = 1;
  for (let magnitude = 1;; magnitude *= 10) {
    const fit = [1, 2, 5].map((factor) => factor * magnitude).find((candidate) =>
      Math.ceil(top / candidate) <= maxTicks
    );
    if (fit !== undefined) {
      step = fit;
      break;
    }
  }
  const intervals = Math.ceil(top / step);
  return Array.from({ length: intervals + 1 }, (_, i) => i * step);
}
