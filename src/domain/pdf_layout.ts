/**
 * Layout rules of the PDF report: what a cell shows (labels for codes, timestamps as a reader
 * expects them), where its text may wrap (never inside a word), the page's orientation and the
 * column widths, all decided from the widths measured in the font the table is drawn in.
 *
 * @module
 */

import { titleCase } from "./labels.ts";
import { type Cell, PDF_ELLIPSIS, pdfText } from "./report_encoding.ts";

const ISO_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?Z$/;

/** "2026-01-11T15:13:45.123Z" reads "2026-01-11 15:13 UTC"; any other text is left as it is. */
export function pdfTimestamp(value: string): string {
  const match = ISO_TIMESTAMP.exec(value);
  return match ? `${match[1]} ${match[2]} UTC` : value;
}

const LOCAL_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}:\d{2}):\d{2} \((UTC[+-]\d{2}:\d{2})\)$/;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A local clock reading ("2026-11-28 13:09:15 (UTC+01:00)", system_settings.ts localTimestamp) reads
 * "13:09 on Nov 28, 2026 (UTC+01:00)": the PDF writes every instant as a date with "HH:MM UTC", so a
 * reading on another clock must not look like one.
 */
export function pdfLocalTimestamp(value: string): string {
  const match = LOCAL_TIMESTAMP.exec(value);
  if (!match) return value;
  const [, year, month, day, minute, offset] = match;
  return `${minute} on ${MONTHS[Number(month) - 1]} ${Number(day)}, ${year} (${offset})`;
}

/**
 * Splits `total` between columns by weight, but gives each at least its minimum (the width of its
 * header's longest word plus padding), taking what the minimums need from the columns that have
 * room to spare, in proportion to their weights. If even the minimums do not fit, they are scaled
 * down together (capMinimums() keeps the writer's minimums within the page first).
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

/** Where a cell's text may wrap: at spaces, after hyphens inside a word; neither keeps it on one line. */
export interface WrapRule {
  spaces: boolean;
  hyphens: boolean;
}

/** Measures a text's width in points in the font it will be drawn in. */
export type Measure = (text: string) => number;

/** A text's words under a wrap rule: split at spaces, or the whole text as one word. */
export function wrapWords(text: string, rule: WrapRule): string[] {
  return rule.spaces ? text.split(/ +/).filter(Boolean) : [text];
}

/**
 * The pieces of a word that a line may end between: after each hyphen that follows a letter or
 * digit and comes before one ("REG-0001-X" → "REG-", "0001-", "X"), when the rule allows it.
 */
export function wordPieces(word: string, rule: WrapRule): string[] {
  return rule.hyphens ? word.split(/(?<=[^\s-]-)(?=[^-])/) : [word];
}

/**
 * A word that fits `width`, or, when it cannot fit whole (the last resort, see docs/reports.md),
 * its longest beginning that fits with an ellipsis after it.
 */
export function fitWord(word: string, width: number, measure: Measure): string {
  if (measure(word) <= width) return word;
  const chars = Array.from(word);
  let kept = chars.length - 1;
  while (kept > 1 && measure(chars.slice(0, kept).join("") + PDF_ELLIPSIS) > width) kept--;
  return chars.slice(0, kept).join("") + PDF_ELLIPSIS;
}

/**
 * A cell's lines within `width`: words go on the line while they fit; a word that does not fit
 * starts the next line whole; only a word wider than the whole column is broken, after its
 * hyphens, and a piece still too wide is shortened by {@linkcode fitWord} (then `shortened`).
 * Never inside a word.
 */
export function wrapText(
  text: string,
  width: number,
  measure: Measure,
  rule: WrapRule,
): { lines: string[]; shortened: boolean } {
  const lines: string[] = [];
  let line = "";
  let shortened = false;
  const place = (piece: string, joiner: string) => {
    const candidate = `${line}${joiner}${piece}`;
    if (line !== "" && measure(candidate) <= width) {
      line = candidate;
      return;
    }
    if (line !== "") lines.push(line);
    line = fitWord(piece, width, measure);
    if (line !== piece) shortened = true;
  };
  for (const word of wrapWords(text, rule)) {
    if (line === "" || measure(`${line} ${word}`) > width) {
      if (measure(word) > width) {
        wordPieces(word, rule).forEach((piece, i) => place(piece, i === 0 ? " " : ""));
        continue;
      }
      if (line !== "") lines.push(line);
      line = word;
    } else {
      line = `${line} ${word}`;
    }
  }
  lines.push(line);
  return { lines, shortened };
}

/** The narrowest width at which `text` wraps without shortening a word: its widest unbreakable piece. */
export function narrowestWidth(text: string, measure: Measure, rule: WrapRule): number {
  let widest = 0;
  for (const word of wrapWords(text, rule)) {
    for (const piece of wordPieces(word, rule)) widest = Math.max(widest, measure(piece));
  }
  return widest;
}

/**
 * Lowers the largest minimums to one common cap so that they add up to at most `total`: when the
 * longest words of all columns cannot stand side by side even on a landscape page, the widest
 * columns give way first, and only their longest words are then shortened. No column goes below
 * its floor (its header's longest word, which always stands whole).
 */
export function capMinimums(minimums: readonly number[], floors: readonly number[], total: number): number[] {
  const capped = (cap: number) => minimums.map((minimum, i) => Math.max(floors[i], Math.min(minimum, cap)));
  const sum = (widths: number[]) => widths.reduce((a, b) => a + b, 0);
  if (sum(capped(Infinity)) <= total) return capped(Infinity);
  let [low, high] = [0, Math.max(...minimums)];
  // The sum grows with the cap: halve the interval until the cap is known to a hundredth of a point.
  while (high - low > CAP_PRECISION_PT) {
    const middle = (low + high) / 2;
    if (sum(capped(middle)) <= total) low = middle;
    else high = middle;
  }
  return capped(low);
}

const CAP_PRECISION_PT = 0.01;

export type PageOrientation = "portrait" | "landscape";

/**
 * What the first pass measured of one column, padding included: its header's longest word
 * (`floor`), its widest unbreakable piece of header or cell (`minimum`) and its widest text.
 */
export interface ColumnMeasure {
  floor: number;
  minimum: number;
  natural: number;
}

/**
 * The table's orientation and column widths. Each column would like its widest text on one line,
 * up to `comfortableWidth` (a longer text wraps); the page is portrait when those widths fit its
 * width and landscape otherwise. Widths then follow the wished widths, each at least the column's
 * widest unbreakable piece (capped by {@linkcode capMinimums} when even those do not fit).
 */
export function tableLayout(
  columns: readonly ColumnMeasure[],
  pageWidths: Readonly<Record<PageOrientation, number>>,
  comfortableWidth: number,
): { orientation: PageOrientation; widths: number[] } {
  const wished = columns.map(({ minimum, natural }) =>
    Math.max(minimum, Math.min(natural, comfortableWidth))
  );
  const orientation = wished.reduce((sum, width) => sum + width, 0) <= pageWidths.portrait
    ? "portrait"
    : "landscape";
  const total = pageWidths[orientation];
  const minimums = capMinimums(
    columns.map(({ minimum }) => minimum),
    columns.map(({ floor }) => floor),
    total,
  );
  return { orientation, widths: fitColumnWidths(total, wished, minimums) };
}

/**
 * Text longer than `maxChars` cut at the last space before the limit, with an ellipsis, so that
 * no word is left half; a text without a space in reach is cut at the limit.
 */
export function shortenAtWord(text: string, maxChars: number): { text: string; shortened: boolean } {
  const chars = Array.from(text);
  if (chars.length <= maxChars) return { text, shortened: false };
  const cut = chars.slice(0, maxChars - 1).join("");
  const space = cut.lastIndexOf(" ");
  return {
    text: `${(space > 0 ? cut.slice(0, space) : cut).trimEnd()}${PDF_ELLIPSIS}`,
    shortened: true,
  };
}

/**
 * JSON text with a space after each comma and colon outside strings, so that it can wrap between
 * members; exact (the text is not parsed and re-written, so no number is rounded).
 */
export function spacedJson(text: string): string {
  let out = "";
  let inString = false;
  let escaped = false;
  for (const char of text) {
    out += char;
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "," || char === ":") out += " ";
  }
  return out;
}

/** What decides how a column's cells read on paper. */
export interface PdfColumnShow {
  kind: "text" | "integer" | "boolean" | "timestamp";
  /** A stored code (a status, a type, an action), shown by its label. */
  coded?: true;
  /** JSON text, spaced so that it can wrap between members. */
  json?: true;
}

/** How the cells of a column may wrap: a timestamp stays on one line, other text wraps at spaces and hyphens. */
export function columnWrapRule(show: PdfColumnShow): WrapRule {
  return show.kind === "timestamp" ? { spaces: false, hyphens: false } : { spaces: true, hyphens: true };
}

/**
 * A cell as the PDF shows it: codes by their label ("credit_union" reads "Credit Union"),
 * booleans as Yes / No, timestamps as "2026-01-11 15:13 UTC", text longer than `maxChars` cut
 * at a word with an ellipsis, in the characters the standard fonts draw.
 */
export function pdfCellText(
  cell: Cell,
  show: PdfColumnShow,
  maxChars: number,
): { text: string; shortened: boolean } {
  if (cell === null) return { text: "", shortened: false };
  if (typeof cell === "boolean") return { text: cell ? "Yes" : "No", shortened: false };
  if (typeof cell === "number") return { text: String(cell), shortened: false };
  let text = cell;
  if (show.kind === "timestamp") text = pdfTimestamp(cell);
  else if (show.coded) text = titleCase(cell);
  else if (show.json) text = spacedJson(cell);
  return shortenAtWord(pdfText(text, Infinity), maxChars);
}
