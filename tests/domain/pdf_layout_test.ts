import assert from "node:assert/strict";
import {
  chartedSummary,
  countAxisTicks,
  fitColumnWidths,
  headerWords,
  pdfTimestamp,
  summaryEntries,
} from "../../src/domain/pdf_layout.ts";

Deno.test("pdfTimestamp() reads 'YYYY-MM-DD HH:MM UTC' and leaves other text alone", () => {
  assert.equal(pdfTimestamp("2026-01-11T15:13:45.123Z"), "2026-01-11 15:13 UTC");
  assert.equal(pdfTimestamp("2026-01-11T15:13Z"), "2026-01-11 15:13 UTC");
  assert.equal(pdfTimestamp("2026-01-11"), "2026-01-11");
  assert.equal(pdfTimestamp("Alpha Bank"), "Alpha Bank");
});

Deno.test("fitColumnWidths() keeps the total, honours every minimum, and otherwise follows the weights", () => {
  const widths = fitColumnWidths(100, [1, 1, 8], [30, 5, 5]);
  assert.equal(Math.round(widths.reduce((a, b) => a + b, 0)), 100);
  assert.ok(widths[0] >= 30 - 1e-9);
  assert.ok(widths.every((width, i) => width >= [30, 5, 5][i] - 1e-9));
  assert.ok(Math.abs(widths[2] / widths[1] - 8) < 1e-9, "the unpinned columns keep their weights' ratio");

  assert.deepEqual(fitColumnWidths(100, [1, 1], [10, 10]), [50, 50]);
  const cramped = fitColumnWidths(30, [1, 1], [20, 40]);
  assert.deepEqual(cramped.map((w) => Math.round(w)), [10, 20]);
});

Deno.test("headerWords() splits a header at spaces", () => {
  assert.deepEqual(headerWords("Correspondent  Banking Code"), ["Correspondent", "Banking", "Code"]);
});

Deno.test("summaryEntries() lists values by count and folds the tail into Other", () => {
  const counts = new Map([["active", 5], ["pending", 7], ["suspended", 1], ["closed", 1]]);
  assert.deepEqual(summaryEntries(counts, 10), [["pending", 7], ["active", 5], ["closed", 1], ["suspended", 1]]);
  assert.deepEqual(summaryEntries(counts, 3), [["pending", 7], ["active", 5], ["Other", 2]]);
});

Deno.test("chartedSummary() picks the summary with the most values, the first on a tie, -1 when all are empty", () => {
  assert.equal(chartedSummary([[["pending", 3]], [["savings", 2], ["commercial", 1]]]), 1);
  assert.equal(chartedSummary([[["a", 1], ["b", 1]], [["c", 1], ["d", 1]]]), 0);
  assert.equal(chartedSummary([[], []]), -1);
  assert.equal(chartedSummary([]), -1);
});

Deno.test("countAxisTicks() runs from 0 in steps of 1, 2 or 5 x 10^n to at least the largest count", () => {
  assert.deepEqual(countAxisTicks(0, 5), [0, 1]);
  assert.deepEqual(countAxisTicks(1, 5), [0, 1]);
  assert.deepEqual(countAxisTicks(3, 5), [0, 1, 2, 3]);
  assert.deepEqual(countAxisTicks(7, 5), [0, 2, 4, 6, 8]);
  assert.deepEqual(countAxisTicks(10, 5), [0, 2, 4, 6, 8, 10]);
  assert.deepEqual(countAxisTicks(23, 5), [0, 5, 10, 15, 20, 25]);
  assert.deepEqual(countAxisTicks(50_000, 5), [0, 10_000, 20_000, 30_000, 40_000, 50_000]);
  assert.deepEqual(countAxisTicks(50_001, 5), [0, 20_000, 40_000, 60_000]);
});
