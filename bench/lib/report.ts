/** One row of the bench table, and its rendering to the terminal and to bench/RESULTS.md. */
export interface BenchRow {
  what: string;
  reference: string;
  ours: string;
  /** ours against reference; the target says which way is better (≥ for speed, ≤ for cost); null when not comparable. */
  ratio: number | null;
  target: string;
  /** null: informational row without a target, or a row that could not be measured. */
  pass: boolean | null;
  note?: string;
}

export const BENCH_QUICK = Deno.env.get("BENCH_QUICK") === "1";

export function verdict(row: BenchRow): string {
  if (row.pass === true) return "pass";
  if (row.pass === false) return "MISS";
  return row.target === "—" ? "info" : "n/a";
}

/** Three significant digits, so a ratio just under its target never prints as the target itself. */
export function formatRatio(ratio: number | null): string {
  return ratio === null ? "—" : `${ratio < 0.001 ? ratio.toExponential(1) : Number(ratio.toPrecision(3))}×`;
}

export function formatNumber(value: number, digits = 0): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function formatMs(ms: number): string {
  return ms < 10 ? `${ms.toFixed(2)} ms` : `${formatNumber(ms, 1)} ms`;
}

function cells(row: BenchRow): string[] {
  return [row.what, row.reference, row.ours, formatRatio(row.ratio), row.target, verdict(row)];
}

const HEADERS = ["what", "reference", "ours", "ratio", "target", "result"];

export function renderTerminalTable(rows: BenchRow[]): string {
  const all = [HEADERS, ...rows.map(cells)];
  const widths = HEADERS.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((cell, i) => cell.padEnd(widths[i])).join(" | ");
  const out = [
    line(HEADERS),
    widths.map((w) => "-".repeat(w)).join("-+-"),
    ...rows.map((r) => line(cells(r))),
  ];
  const notes = rows.filter((r) => r.note).map((r) => `  * ${r.what}: ${r.note}`);
  return [...out, ...(notes.length > 0 ? ["", "notes:", ...notes] : [])].join("\n");
}

const escapeCell = (text: string) => text.replaceAll("|", "\\|");

export function renderMarkdownTable(rows: BenchRow[]): string {
  const head = `| ${HEADERS.join(" | ")} |\n|${HEADERS.map(() => "---").join("|")}|`;
  const body = rows.map((r) =>
    `| ${cells(r).map(escapeCell).map((c, i) => i === 5 && c === "MISS" ? "**MISS**" : c).join(" | ")} |`
  );
  const notes = rows.filter((r) => r.note).map((r) => `- ${escapeCell(r.what)}: ${r.note}`);
  return [head, ...body, ...(notes.length > 0 ? ["", "Notes:", "", ...notes] : [])].join("\n");
}

/** A row for a benchmark that could not run (a feature not yet built, a tool missing). */
export function unavailableRow(what: string, target: string, reason: string): BenchRow {
  return { what, reference: "—", ours: "not measured", ratio: null, target, pass: null, note: reason };
}
