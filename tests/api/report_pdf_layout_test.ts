/**
 * Issue 23: the PDF report opens with a summary, its table headers never break inside a word, and its
 * timestamps read "YYYY-MM-DD HH:MM UTC". The rendered page's text items (unpdf, the PDF.js text layer: one item
 * per drawn line) are checked: every header word appears whole in one item.
 */
import assert from "node:assert/strict";
import { getDocumentProxy } from "unpdf";
import { REPORT_TYPES } from "../../src/domain/report.ts";
import { headerWords } from "../../src/domain/pdf_layout.ts";
import { buildReportData } from "../../src/server/features/reports/sources.ts";
import { createTestApp, expectJson } from "../helpers/test_app.ts";

Deno.test("every PDF report: a summary first, headers whole words, timestamps in 'YYYY-MM-DD HH:MM UTC'", async () => {
  const t = await createTestApp();
  try {
    const req = t.as(await t.login());
    await expectJson(
      await req("POST", "/api/institutions", {
        body: {
          name: "Layout Savings Bank",
          type: "savings",
          registrationNumber: "LAYOUT-1",
          address: "5 Column Road",
          phoneNumber: "+1 202 555 0130",
          emailAddress: "ops@layout.example",
        },
      }),
      201,
    );
    const today = new Date().toISOString().slice(0, 10);
    for (const type of REPORT_TYPES) {
      const res = await req("POST", "/api/reports", {
        body: { type, format: "pdf", from: today, to: today },
      });
      assert.equal(res.status, 200, `${type}: ${res.status}`);
      const pdf = await getDocumentProxy(new Uint8Array(await res.arrayBuffer()));
      const pageItems: string[][] = [];
      for (let number = 1; number <= pdf.numPages; number++) {
        const content = await (await pdf.getPage(number)).getTextContent();
        pageItems.push(content.items.map((item) => ("str" in item ? item.str : "")).filter(Boolean));
      }
      const items = pageItems.flat();
      const text = items.join("\n");
      // The first page opens with the summary: the row count and counts by status, type or outcome.
      const first = pageItems[0].join("\n");
      assert.match(first, /Summary/, `${type}: a summary first`);
      assert.match(first, /Rows: \d+|No rows in this range\./, `${type}: the row count`);
      assert.match(text, /Generated at: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/, `${type}: the generation time`);
      assert.doesNotMatch(text, /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, `${type}: no raw ISO timestamps`);
      const data = await buildReportData(
        type,
        { db: t.deps.db.read, range: { from: today, to: today }, cutoff: new Date().toISOString() },
        { chainColumn: true },
      );
      const labels = data.columns.filter((column) => column.pdfWeight !== undefined).map((column) =>
        column.label
      );
      assert.ok(labels.length > 0);
      if (type === "institutions") {
        assert.match(first, /Rows: 1\b/);
        assert.match(first, /By status\npending\s+1\b/);
        assert.match(first, /By type\nsavings\s+1\b/);
      }
      for (const label of labels) {
        for (const word of headerWords(label)) {
          assert.ok(
            items.some((item) => item.split(/\s+/).includes(word)),
            `${type}: the header word "${word}" of "${label}" is broken across lines`,
          );
        }
      }
    }
  } finally {
    await t.close();
  }
});
