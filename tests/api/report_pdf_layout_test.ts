/**
 * Issue 23: the PDF report opens with a summary (values as labels), its table headers never break
 * inside a word, and its timestamps read "YYYY-MM-DD HH:MM UTC". The rendered page's text items (unpdf, the PDF.js text layer: one item
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
    const req = await t.desk();
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
        // Values read as labels; the count table by status, its share, and the type (first on a tie
        // of one value each) charted instead of listed a second time.
        assert.match(first, /By status\nPending\s+1\s+100%/);
        assert.match(first, /Chart: rows by type/);
        assert.doesNotMatch(first, /By type/);
        assert.match(first, /Savings/);
        assert.doesNotMatch(first, /\bsavings\b|\bpending\b/);
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

Deno.test("the PDF summary page carries a bar chart of its largest summary, with axis, labels and values", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    // Every new institution is pending, so the type summary (two values) is the one charted.
    for (const [i, type] of (["savings", "commercial", "savings"] as const).entries()) {
      await expectJson(
        await req("POST", "/api/institutions", {
          body: {
            name: `Chart Bank ${i + 1}`,
            type,
            registrationNumber: `CHART-${i + 1}`,
            address: `${i + 1} Axis Street`,
            phoneNumber: "+1 202 555 0140",
            emailAddress: `ops${i + 1}@chart.example`,
          },
        }),
        201,
      );
    }
    const today = new Date().toISOString().slice(0, 10);
    const res = await req("POST", "/api/reports", {
      body: { type: "institutions", format: "pdf", from: today, to: today },
    });
    assert.equal(res.status, 200);
    const pdf = await getDocumentProxy(new Uint8Array(await res.arrayBuffer()));
    const pageText = async (number: number) =>
      (await (await pdf.getPage(number)).getTextContent()).items.flatMap((item) =>
        "str" in item && item.str ? [{ text: item.str, x: item.transform[4], y: item.transform[5] }] : []
      );
    const first = await pageText(1);
    const title = first.find((item) => item.text === "Chart: rows by type");
    assert.ok(title, "the chart's title is on page 1");
    // The chart stands right of the summary lists: what is drawn from its title's left edge on.
    const chart = first.filter((item) => item.x >= title.x - 1 && item.y <= title.y);
    const at = (text: string) => chart.filter((item) => item.text === text);
    const [savings] = at("Savings");
    const [commercial] = at("Commercial");
    assert.ok(savings && commercial, `bar labels: ${JSON.stringify(chart)}`);
    assert.ok(savings.y > commercial.y, "the larger count is drawn first, at the top");
    // Each bar's value sits on its label's line, right of the label; the axis ticks (0, 1, 2) and
    // its title "Rows" are below the bars.
    const valueOn = (label: { y: number; x: number }, value: string) =>
      at(value).some((item) => Math.abs(item.y - label.y) < 1 && item.x > label.x);
    assert.ok(valueOn(savings, "2"), "savings: 2");
    assert.ok(valueOn(commercial, "1"), "commercial: 1");
    for (const tick of ["0", "1", "2"]) {
      assert.ok(at(tick).some((item) => item.y < commercial.y - 1), `the axis tick ${tick}`);
    }
    assert.ok(at("Rows").some((item) => item.y < commercial.y), "the axis title");
    // The status summary (one value) is listed but not charted, and no chart is drawn past page 1.
    assert.equal(first.filter((item) => item.text.startsWith("Chart: ")).length, 1);
    for (let number = 2; number <= pdf.numPages; number++) {
      assert.ok(!(await pageText(number)).some((item) => item.text.startsWith("Chart: ")), `page ${number}`);
    }
  } finally {
    await t.close();
  }
});
