import assert from "node:assert/strict";
import {
  capMinimums,
  chartedSummary,
  countAxisTicks,
  fitColumnWidths,
  headerWords,
  narrowestWidth,
  pdfCellText,
  pdfLocalTimestamp,
  pdfTimestamp,
  spacedJson,
  summaryEntries,
  tableLayout,
  wordPieces,
  wrapText,
} from "../../src/domain/pdf_layout.ts";
import { titleCase } from "../../src/domain/labels.ts";

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
  assert.deepEqual(summaryEntries(counts, 10), [["pending", 7], ["active", 5], ["closed", 1], [
    "suspended",
    1,
  ]]);
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

/** Helvetica-like widths are not needed: one point per character keeps the arithmetic readable. */
const perChar = (text: string) => Array.from(text).length;
const WORDS_AND_HYPHENS = { spaces: true, hyphens: true };

Deno.test("wrapText() wraps between words, moves a word that does not fit to the next line whole", () => {
  assert.deepEqual(wrapText("Correspondent banking", 14, perChar, WORDS_AND_HYPHENS), {
    lines: ["Correspondent", "banking"],
    shortened: false,
  });
  assert.deepEqual(wrapText("a bb ccc dddd", 6, perChar, WORDS_AND_HYPHENS).lines, ["a bb", "ccc", "dddd"]);
  assert.deepEqual(wrapText("", 6, perChar, WORDS_AND_HYPHENS).lines, [""]);
});

Deno.test("wrapText() breaks a word wider than the column only after its hyphens, and shortens with … as last resort", () => {
  assert.deepEqual(wrapText("REG-000001-NATIONAL", 12, perChar, WORDS_AND_HYPHENS), {
    lines: ["REG-000001-", "NATIONAL"],
    shortened: false,
  });
  assert.deepEqual(wrapText("see REG-000001-NATIONAL", 12, perChar, WORDS_AND_HYPHENS).lines, [
    "see REG-",
    "000001-",
    "NATIONAL",
  ]);
  // A leading or doubled hyphen is no break ("-Minus" stays whole).
  assert.deepEqual(wordPieces("-Minus--x", WORDS_AND_HYPHENS), ["-Minus--x"]);
  const hash = "0123456789abcdef";
  assert.deepEqual(wrapText(hash, 8, perChar, WORDS_AND_HYPHENS), { lines: ["0123456…"], shortened: true });
  // A timestamp (no break at all) stays on one line when it fits.
  assert.deepEqual(
    wrapText("2026-01-11 15:13 UTC", 20, perChar, { spaces: false, hyphens: false }).lines,
    ["2026-01-11 15:13 UTC"],
  );
});

Deno.test("narrowestWidth() is the widest piece a line cannot break inside", () => {
  assert.equal(narrowestWidth("Alpha Correspondent-Bank", perChar, WORDS_AND_HYPHENS), 14);
  assert.equal(narrowestWidth("Alpha Correspondent-Bank", perChar, { spaces: true, hyphens: false }), 18);
  assert.equal(narrowestWidth("2026-01-11 15:13 UTC", perChar, { spaces: false, hyphens: false }), 20);
});

Deno.test("capMinimums() lowers only the widest columns, never below a floor, to fit the total", () => {
  assert.deepEqual(capMinimums([10, 20, 30], [5, 5, 5], 100), [10, 20, 30], "they fit: unchanged");
  const capped = capMinimums([10, 200, 300], [5, 5, 5], 210);
  assert.equal(capped[0], 10, "a narrow column keeps its minimum");
  assert.ok(Math.abs(capped[1] - 100) < 0.02 && Math.abs(capped[2] - 100) < 0.02, `${capped}`);
  const floored = capMinimums([10, 200, 300], [5, 150, 5], 210);
  assert.equal(floored[1], 150, "a header's longest word is a floor");
  assert.ok(floored.reduce((a, b) => a + b, 0) <= 210);
});

Deno.test("tableLayout() is portrait when the wished widths fit, landscape otherwise, never under a minimum", () => {
  const pages = { portrait: 500, landscape: 800 };
  const narrow = tableLayout(
    [{ floor: 30, minimum: 40, natural: 90 }, { floor: 20, minimum: 20, natural: 60 }],
    pages,
    170,
  );
  assert.equal(narrow.orientation, "portrait");
  assert.equal(Math.round(narrow.widths.reduce((a, b) => a + b, 0)), 500);
  assert.ok(narrow.widths[0] >= 90 && narrow.widths[1] >= 60, "each at least its widest text");

  const wide = tableLayout(
    Array.from({ length: 6 }, () => ({ floor: 30, minimum: 60, natural: 400 })),
    pages,
    170,
  );
  assert.equal(wide.orientation, "landscape", "6 × 170 wished points do not fit 500");
  assert.ok(wide.widths.every((width) => width >= 60));
  assert.equal(Math.round(wide.widths.reduce((a, b) => a + b, 0)), 800);
});

Deno.test("pdfCellText() shows codes as labels, booleans as Yes/No, timestamps in UTC minutes, and cuts at a word", () => {
  assert.equal(pdfCellText("credit_union", { kind: "text", coded: true }, 300).text, "Credit Union");
  assert.equal(
    pdfCellText("credit_union", { kind: "text" }, 300).text,
    "credit_union",
    "free text stays as typed",
  );
  assert.equal(pdfCellText(true, { kind: "boolean" }, 300).text, "Yes");
  assert.equal(pdfCellText(null, { kind: "text" }, 300).text, "");
  assert.equal(pdfCellText(1027, { kind: "integer" }, 300).text, "1027");
  assert.equal(
    pdfCellText("2026-01-11T15:13:45.123Z", { kind: "timestamp" }, 300).text,
    "2026-01-11 15:13 UTC",
  );
  assert.deepEqual(pdfCellText("Alpha Correspondent Bank", { kind: "text" }, 12), {
    text: "Alpha…",
    shortened: true,
  });
  assert.equal(
    pdfCellText('{"a":1,"b":"x, y: z"}', { kind: "text", json: true }, 300).text,
    '{"a": 1, "b": "x, y: z"}',
    "JSON spaced outside strings only",
  );
});

Deno.test("spacedJson() keeps numbers and escaped quotes exactly", () => {
  assert.equal(
    spacedJson('{"n":12345678901234567890,"s":"a\\",b"}'),
    '{"n": 12345678901234567890, "s": "a\\",b"}',
  );
});

Deno.test("titleCase() is the label the screens and the PDF share", () => {
  assert.equal(titleCase("credit_union"), "Credit Union");
  assert.equal(titleCase("status_change"), "Status Change");
  assert.equal(titleCase("active"), "Active");
});

Deno.test("pdfLocalTimestamp(): a reading on another clock does not look like the PDF's UTC instants", () => {
  assert.equal(pdfLocalTimestamp("2026-11-28 13:09:15 (UTC+01:00)"), "13:09 on Nov 28, 2026 (UTC+01:00)");
  assert.equal(pdfLocalTimestamp("2026-07-01 20:00:00 (UTC-04:00)"), "20:00 on Jul 1, 2026 (UTC-04:00)");
  assert.equal(pdfLocalTimestamp("not a reading"), "not a reading");
});
