import assert from "node:assert/strict";
import { fitColumnWidths, headerWords, pdfTimestamp, summaryEntries } from "../../src/domain/pdf_layout.ts";

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
