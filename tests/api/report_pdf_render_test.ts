/**
 * Issue 23: every PDF report, filled so its columns are as narrow as they get (long values in every
 * column), rendered as a reader sees it, by Poppler (Debian's poppler-utils), not by the library
 * that wrote it:
 * - pdftoppm draws the pages; the first ones are kept as PNG under .test-artifacts/reports/ (beside
 *   the browser suite's .test-artifacts/screens/) for review;
 * - the table header is found in the drawing (its shaded band on page 2), and pdftotext -bbox's
 *   words inside that band must be exactly the words of the column labels: a header broken inside
 *   a word ("Branche" / "s") shows up as fragments that are no label's words;
 * - every date in the text is followed, on the same line, by HH:MM and "UTC"; no raw ISO text;
 * - page 1 carries the summary, and its chart's bars are drawn (the bar colour, right of the
 *   count tables, where only the chart stands); the charted column has no count table of its own;
 * - every word is drawn at 8 pt or more (its pdftotext box is 0.925 em high: Helvetica's ascent
 *   plus descent), and every word in the table is a whole word of the cells as shown, or a run of
 *   its pieces between hyphens: nothing is broken inside a word ("corresponden" / "t"); only the
 *   audit trail's 64-character hashes, wider than any column can be, end shortened with "…";
 * - codes show as labels ("Credit Union", never "credit_union");
 * - a wide report is landscape, a narrow one portrait.
 */
import assert from "node:assert/strict";
import {
  apiLogs,
  INSTITUTION_TYPES,
  institutions,
  routingCodes,
  SWIFT_MEMBERSHIP_TYPES,
  swiftCodes,
} from "../../db/schema.ts";
import { REPORT_TYPES, type ReportType } from "../../src/domain/report.ts";
import { headerWords, pdfCellText } from "../../src/domain/pdf_layout.ts";
import { titleCase } from "../../src/domain/labels.ts";
import { buildReportData, type BuiltReport } from "../../src/server/features/reports/sources.ts";
import { MAX_PDF_CELL_CHARS } from "../../src/server/features/reports/writers.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const PDFTOPPM = "/usr/bin/pdftoppm";
const PDFTOTEXT = "/usr/bin/pdftotext";
const ARTIFACTS = new URL("../../.test-artifacts/reports/", import.meta.url).pathname;
/** Pages kept as PNG per report: the summary and the first table pages. */
const ARTIFACT_PAGES = 3;
/** Rendering resolution: 1 pt is 4/3 px. */
const DPI = 96;
const PX_PER_PT = DPI / 72;
/** The writer's layout (src/server/features/reports/writers.ts): margin, header fill, bar colour, chart's left edge. */
const MARGIN_PT = 28;
const HEADER_FILL: Rgb = [0xe2, 0xe8, 0xf0];
const BAR_FILL: Rgb = [0x1e, 0x40, 0xaf];
const CHART_LEFT_PT = MARGIN_PT + 270;
/** Helvetica's ascent plus descent: pdftotext's word box is this many times the font size high. */
const BOX_HEIGHT_PER_PT = 0.925;
const MIN_TEXT_PT = 8;
/**
 * The audit trail's hashes (64 characters) and the long hex values in its changes are wider than
 * any of its eleven columns can be: the last resort shortens them with "…" and says so at the end.
 */
const MIN_SHORTENED_WORD_CHARS = 32;
const CELLS_SHORTENED =
  `Cells longer than ${MAX_PDF_CELL_CHARS} characters are shortened in this PDF; the CSV, XLSX and XML exports carry the full values.`;
const WORDS_SHORTENED =
  "Words wider than any column can be are shortened with … in this PDF; the CSV, XLSX and XML exports carry the full values.";
/** Where the footer starts, above the bottom margin: text there is not the table's. */
const FOOTER_FROM_BOTTOM_PT = MARGIN_PT + 10;
/** Bar pixels the chart must at least draw: a single bar of 8 pt height and a few pt length is far more. */
const MIN_CHART_BAR_PIXELS = 100;
/** Rows per seeded report: enough for a table page past the summary, few enough to render quickly. */
const ROWS = 40;
const RANGE = { from: "2025-03-01", to: "2025-03-31" };

type Rgb = [number, number, number];

const popplerPresent = (() => {
  try {
    return Deno.statSync(PDFTOPPM).isFile && Deno.statSync(PDFTOTEXT).isFile;
  } catch {
    return false;
  }
})();
if (!popplerPresent && Deno.env.get("CI") !== "true") {
  console.warn(`PDF rendering test skipped: ${PDFTOPPM} not found (apt-get install -y poppler-utils)`);
}

async function run(command: string, args: string[]): Promise<string> {
  const output = await new Deno.Command(command, { args, stdout: "piped", stderr: "piped" }).output();
  if (!output.success) {
    throw new Error(`${command} ${args.join(" ")}: ${new TextDecoder().decode(output.stderr)}`);
  }
  return new TextDecoder().decode(output.stdout);
}

/** A binary PPM (P6) as pdftoppm writes it without -png: width, height and RGB bytes. */
interface Raster {
  width: number;
  height: number;
  pixel(x: number, y: number): Rgb;
}

function parsePpm(bytes: Uint8Array): Raster {
  // Header: "P6", width, height, maxval, each separated by whitespace, then one whitespace byte.
  const fields: string[] = [];
  let at = 0;
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(bytes[at]))) at++;
    let field = "";
    while (!/\s/.test(String.fromCharCode(bytes[at]))) field += String.fromCharCode(bytes[at++]);
    fields.push(field);
  }
  at++;
  assert.equal(fields[0], "P6");
  assert.equal(fields[3], "255");
  const [width, height] = [Number(fields[1]), Number(fields[2])];
  return {
    width,
    height,
    pixel: (x, y) => {
      const i = at + 3 * (y * width + x);
      return [bytes[i], bytes[i + 1], bytes[i + 2]];
    },
  };
}

const near = (a: Rgb, b: Rgb, tolerance = 12) => a.every((value, i) => Math.abs(value - b[i]) <= tolerance);

interface Word {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** pdftotext -bbox: each page's words with their boxes, in points from the top left. */
function parseBbox(html: string): Word[][] {
  const decode = (text: string) =>
    text.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll("&apos;", "'")
      .replaceAll("&amp;", "&");
  return html.split("<page ").slice(1).map((page) =>
    [...page.matchAll(
      /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
    )]
      .map((m) => ({ xMin: +m[1], yMin: +m[2], xMax: +m[3], yMax: +m[4], text: decode(m[5]) }))
  );
}

/** A value of `length` characters: words that fill narrow cells and wrap, as real names and addresses do. */
const long = (start: string, length: number) => {
  let text = start;
  for (let i = 0; text.length < length; i++) {
    text += ` ${["Cooperative", "International", "Settlement", "Correspondent"][i % 4]}`;
  }
  return text.slice(0, length);
};

/** Rows with every reported column filled and long, inside RANGE, straight into the tables. */
async function seed(t: TestApp) {
  const at = (i: number) =>
    new Date(Date.UTC(2025, 2, 2 + (i % 27), 9 + (i % 8), 15 + i % 40, 42, 123)).toISOString();
  await t.deps.db.transaction(async (tx) => {
    for (let i = 0; i < ROWS; i++) {
      const id = `inst-${i}`;
      await tx.insert(institutions).values({
        id,
        name: long(`Institution ${i} Bancorp`, 90),
        type: INSTITUTION_TYPES[i % INSTITUTION_TYPES.length],
        registrationNumber: `REG-${String(i).padStart(6, "0")}-NATIONAL-REGISTER-OF-BANKS`,
        licenseNumber: `LIC-${String(i).padStart(6, "0")}-CENTRAL-BANK-LICENCE`,
        address: long(`${i} Long Avenue, Financial District, Capital City`, 120),
        phoneNumber: "+1 202 555 0199 ext. 12345",
        emailAddress: `operations.department.${i}@very-long-institution-domain.example`,
        numberOfBranches: 1000 + i,
        swiftParticipant: i % 2 === 0,
        swiftMembershipType: i % 2 === 0 ? SWIFT_MEMBERSHIP_TYPES[i % SWIFT_MEMBERSHIP_TYPES.length] : null,
        status: (["pending", "active", "suspended"] as const)[i % 3],
        createdAt: at(i),
        updatedAt: at(i),
      });
      await tx.insert(routingCodes).values({
        id: `rc-${i}`,
        institutionId: id,
        code: `RTN${String(100000 + i)}LONGCODE`,
        prefix: "RTN",
        branchCode: `BR-${String(i).padStart(5, "0")}`,
        description: long(`Main clearing code ${i} for interbank settlement`, 150),
        status: (["active", "inactive", "suspended"] as const)[i % 3],
        createdAt: at(i),
        updatedAt: at(i),
      });
      const bic = `B${String.fromCharCode(65 + (i % 26))}${
        String.fromCharCode(65 + Math.floor(i / 26))
      }KDEFF${String(i).padStart(3, "0")}`;
      await tx.insert(swiftCodes).values({
        id: `bic-${i}`,
        institutionId: id,
        bicCode: bic,
        bankCode: bic.slice(0, 4),
        countryCode: bic.slice(4, 6),
        locationCode: bic.slice(6, 8),
        branchCode: bic.slice(8),
        membershipType: SWIFT_MEMBERSHIP_TYPES[i % SWIFT_MEMBERSHIP_TYPES.length],
        status: (["active", "inactive", "suspended"] as const)[i % 3],
        validFrom: at(i),
        validUntil: "2030-12-31T23:59:59.999Z",
        createdAt: at(i),
        updatedAt: at(i),
      });
      const iban = i % 2 === 0 ? "DE89370400440532013000" : "DE00370400440532013000";
      await tx.insert(apiLogs).values([
        {
          id: `log-iban-${i}`,
          createdAt: at(i),
          endpoint: "/api/iban/validate",
          method: "POST",
          responseStatus: 200,
          responseTime: 12345,
          clientIp: "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
          userAgent: "Mozilla/5.0 (X11; Linux x86_64) long user agent",
          apiKeyId: `api-key-${i}-0123456789abcdef0123456789abcdef`,
          userId: `user-${i}-0123456789abcdef0123456789abcdef`,
          requestPayload: { body: { iban } },
          responsePayload: i % 2 === 0 ? { valid: true, details: { countryCode: "DE" } } : {
            valid: false,
            details: { countryCode: "DE", error: long("Invalid check digits for this account", 120) },
          },
        },
        {
          id: `log-api-${i}`,
          createdAt: at(i),
          endpoint: `/api/institutions/inst-${i}/routing-codes?limit=500&offset=${i}&search=${
            long("very long search", 60)
          }`,
          method: (["GET", "POST", "PATCH", "DELETE"] as const)[i % 4],
          responseStatus: [200, 201, 404, 429][i % 4],
          responseTime: 98765,
          clientIp: "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
          apiKeyId: `api-key-${i}-0123456789abcdef0123456789abcdef`,
          userId: `user-${i}-0123456789abcdef0123456789abcdef`,
        },
      ]);
    }
  });
}

interface Rendered {
  pages: Word[][];
  sizes: { width: number; height: number }[];
  layout: string;
}

async function render(type: ReportType, pdf: Uint8Array, dir: string): Promise<Rendered> {
  const file = `${dir}/${type}.pdf`;
  await Deno.writeFile(file, pdf);
  for (const entry of Deno.readDirSync(ARTIFACTS)) {
    if (entry.name.startsWith(`${type}-page`)) Deno.removeSync(`${ARTIFACTS}${entry.name}`);
  }
  await run(PDFTOPPM, [
    "-r",
    String(DPI),
    "-l",
    String(ARTIFACT_PAGES),
    "-png",
    file,
    `${ARTIFACTS}${type}-page`,
  ]);
  const bbox = await run(PDFTOTEXT, ["-bbox", file, "-"]);
  const pages = parseBbox(bbox);
  const sizes = [...bbox.matchAll(/<page width="([\d.]+)" height="([\d.]+)">/g)].map((m) => ({
    width: +m[1],
    height: +m[2],
  }));
  const layout = await run(PDFTOTEXT, ["-layout", file, "-"]);
  return { pages, sizes, layout };
}

async function raster(file: string, page: number, dir: string): Promise<Raster> {
  const prefix = `${dir}/raster-${page}`;
  await run(PDFTOPPM, [
    "-r",
    String(DPI),
    "-f",
    String(page),
    "-l",
    String(page),
    "-singlefile",
    file,
    prefix,
  ]);
  return parsePpm(await Deno.readFile(`${prefix}.ppm`));
}

/** The table header's band on a table page: the rows of pixels shaded with the header fill at the left margin. */
function headerBand(image: Raster): { top: number; bottom: number } {
  const x = Math.round((MARGIN_PT + 1) * PX_PER_PT);
  let y = 0;
  while (y < image.height && !near(image.pixel(x, y), HEADER_FILL)) y++;
  assert.ok(y < image.height, "a shaded table header");
  const top = y;
  while (y < image.height && near(image.pixel(x, y), HEADER_FILL)) y++;
  return { top: top / PX_PER_PT, bottom: y / PX_PER_PT };
}

/** Every word on every page is drawn at MIN_TEXT_PT or more, read from the height of its box. */
function assertTextSizes(type: ReportType, pages: Word[][]) {
  for (const [p, words] of pages.entries()) {
    for (const word of words) {
      const size = (word.yMax - word.yMin) / BOX_HEIGHT_PER_PT;
      assert.ok(size >= MIN_TEXT_PT - 0.01, `${type} page ${p + 1}: "${word.text}" is ${size.toFixed(2)} pt`);
    }
  }
}

/** The PDF's table columns of a report, with their index in its rows. */
function tableColumns(data: BuiltReport) {
  return data.columns.map((column, index) => ({ column, index })).filter(({ column }) =>
    column.pdfWeight !== undefined
  );
}

/**
 * Each word of the table's labels and cells as the PDF shows them, and every run of a word's
 * pieces between hyphens ("REG-0001-X" also gives "REG-", "0001-X", …): what a line may hold.
 */
async function shownWords(data: BuiltReport): Promise<Set<string>> {
  const words = new Set<string>();
  const add = (text: string) => {
    for (const word of text.split(/\s+/).filter(Boolean)) {
      const pieces = word.split(/(?<=-)/);
      for (let a = 0; a < pieces.length; a++) {
        for (let b = a + 1; b <= pieces.length; b++) words.add(pieces.slice(a, b).join(""));
      }
    }
  };
  const columns = tableColumns(data);
  for (const { column } of columns) add(column.label);
  for await (const rows of data.pages()) {
    for (const row of rows) {
      for (const { column, index } of columns) add(pdfCellText(row[index], column, MAX_PDF_CELL_CHARS).text);
    }
  }
  return words;
}

/**
 * The table pages' words (below page 1, above the footer, but for the closing lines) are whole
 * words of the cells; the only exception is a long hex word (a hash) shortened with "…" in the audit trail.
 */
function assertWholeWords(type: ReportType, rendered: Rendered, shown: Set<string>, rows: number) {
  const closing = new Set(`End of report: ${rows} rows. ${CELLS_SHORTENED} ${WORDS_SHORTENED}`.split(" "));
  const longWords = [...shown].filter((word) => word.length >= MIN_SHORTENED_WORD_CHARS);
  let shortened = 0;
  let checked = 0;
  for (const [p, words] of rendered.pages.entries()) {
    if (p === 0) continue;
    const footer = rendered.sizes[p].height - FOOTER_FROM_BOTTOM_PT;
    for (const word of words) {
      if (word.yMin >= footer || closing.has(word.text)) continue;
      checked++;
      if (shown.has(word.text)) continue;
      const start = word.text.endsWith("…") ? word.text.slice(0, -1) : "";
      assert.ok(
        type === "audit-trail" && start.length >= MIN_SHORTENED_WORD_CHARS / 2 &&
          longWords.some((whole) => whole.startsWith(start)),
        `${type} page ${p + 1}: "${word.text}" is not a whole word of the table`,
      );
      shortened++;
    }
  }
  assert.ok(checked > ROWS, `${type}: table words checked (${checked})`);
  assert.equal(
    rendered.layout.replace(/\s+/g, " ").includes(WORDS_SHORTENED),
    shortened > 0,
    `${type}: the closing note says whether words were shortened (${shortened})`,
  );
}

/** No stored code that has a label of its own ("credit_union", "pending") shows as a word anywhere. */
async function assertLabels(type: ReportType, layout: string, data: BuiltReport) {
  const words = new Set(layout.split(/\s+/));
  const coded = data.columns.map((column, index) => ({ column, index })).filter(({ column }) => column.coded);
  let checked = 0;
  for await (const rows of data.pages()) {
    for (const row of rows) {
      for (const { index } of coded) {
        const code = row[index];
        if (typeof code !== "string" || titleCase(code) === code) continue;
        checked++;
        assert.ok(!words.has(code), `${type}: the code "${code}" shows as "${titleCase(code)}"`);
        assert.ok(layout.includes(titleCase(code)), `${type}: "${titleCase(code)}" is shown`);
      }
    }
  }
  assert.ok(checked > 0, `${type}: codes checked`);
}

/** Page 1: the charted column has no count table ("By type") of its own; every other summarized column has one. */
function assertSummaryNotDuplicated(type: ReportType, first: Word[], data: BuiltReport) {
  const text = first.map((word) => word.text).join(" ");
  const summarized = data.columns.filter((column) => column.summarize).map((column) =>
    column.label.toLowerCase()
  );
  const charted = summarized.filter((label) => text.includes(`Chart: rows by ${label}`));
  assert.equal(charted.length, 1, `${type}: one chart on page 1`);
  for (const label of summarized) {
    assert.equal(text.includes(`By ${label}`), label !== charted[0], `${type}: a count table by ${label}`);
  }
}

Deno.test({
  name:
    "every PDF report rendered by Poppler: whole header words in narrow columns, UTC minutes, summary and chart on page 1",
  ignore: !popplerPresent && Deno.env.get("CI") !== "true",
  fn: async () => {
    assert.ok(popplerPresent, `${PDFTOPPM} and ${PDFTOTEXT} (apt-get install -y poppler-utils)`);
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    const t = await createTestApp({ API_LOG_RETENTION_DAYS: "36500" });
    const dir = await Deno.makeTempDir({ prefix: "cbr-pdf-render-" });
    try {
      const req = await t.desk();
      await seed(t);
      // The audit trail of today: changes with long values made through the API.
      for (let i = 0; i < 6; i++) {
        await expectJson(
          await req("POST", "/api/institutions", {
            body: {
              name: long(`Audited Institution ${i}`, 90),
              type: "commercial",
              registrationNumber: `AUDIT-REG-${i}`,
              address: long(`${i} Audit Avenue`, 120),
              phoneNumber: "+1 202 555 0150",
              emailAddress: `audit.${i}@very-long-institution-domain.example`,
            },
          }),
          201,
        );
      }
      const today = new Date().toISOString().slice(0, 10);
      for (const type of REPORT_TYPES) {
        const range = type === "audit-trail" ? { from: today, to: today } : RANGE;
        const res = await req("POST", "/api/reports", { body: { type, format: "pdf", ...range } });
        assert.equal(res.status, 200, `${type}: ${res.status}`);
        const pdf = new Uint8Array(await res.arrayBuffer());
        const rendered = await render(type, pdf, dir);
        const { pages, layout } = rendered;
        assert.ok(pages.length >= 2, `${type}: a summary page and a table page (${pages.length})`);

        // Page 1: the summary and its chart.
        const first = pages[0].map((word) => word.text).join(" ");
        assert.match(first, /\bSummary\b/, `${type}: the summary on page 1`);
        assert.match(first, /Rows: \d+/, `${type}: the row count on page 1`);
        assert.match(first, /Chart: rows by /, `${type}: the chart's title on page 1`);
        const page1 = await raster(`${dir}/${type}.pdf`, 1, dir);
        let bars = 0;
        for (let y = 0; y < page1.height; y++) {
          for (let x = Math.round(CHART_LEFT_PT * PX_PER_PT); x < page1.width; x++) {
            if (near(page1.pixel(x, y), BAR_FILL)) bars++;
          }
        }
        assert.ok(bars >= MIN_CHART_BAR_PIXELS, `${type}: the chart's bars are drawn (${bars} bar pixels)`);

        // Page 2: the header's words, whole, and nothing else inside its band.
        const data = await buildReportData(
          type,
          { db: t.deps.db.read, range, cutoff: new Date().toISOString() },
          { chainColumn: true },
        );
        const labels = data.columns.filter((column) => column.pdfWeight !== undefined).map((column) =>
          column.label
        );
        const band = headerBand(await raster(`${dir}/${type}.pdf`, 2, dir));
        const inBand = pages[1].filter((word) => word.yMin >= band.top - 1 && word.yMax <= band.bottom + 1);
        const expected = labels.flatMap(headerWords).sort();
        assert.deepEqual(
          inBand.map((word) => word.text).sort(),
          expected,
          `${type}: the header's words, each on one line (labels: ${labels.join(" | ")})`,
        );
        // Each label's words stand in one column: left to right in label order.
        const columnOf = (label: string) => inBand.find((word) => word.text === headerWords(label)[0])!.xMin;
        const lefts = labels.map(columnOf);
        assert.deepEqual(lefts, [...lefts].sort((a, b) => a - b), `${type}: the headers in column order`);

        // Timestamps: a date, then on its line the minute and "UTC"; never ISO text.
        assert.doesNotMatch(layout, /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, `${type}: no raw ISO timestamps`);
        assert.match(
          layout,
          /Generated at: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/,
          `${type}: the generation time`,
        );
        assert.match(
          layout,
          /Generated at \(UTC\): \d{2}:\d{2} on [A-Z][a-z]{2} \d{1,2}, \d{4} \(UTC\+00:00\)/,
          `${type}: the generation time on the System Settings' clock`,
        );
        let timestamps = 0;
        for (const words of pages) {
          for (const [i, word] of words.entries()) {
            if (!/^\d{4}-\d{2}-\d{2}$/.test(word.text) || words[i - 1]?.text === "Range:") continue;
            // The report's range reads "2025-03-01 to 2025-03-31": dates, not instants.
            if (words[i + 1]?.text === "to" || words[i - 1]?.text === "to") continue;
            const [minute, zone] = [words[i + 1], words[i + 2]];
            assert.ok(
              minute && zone && /^\d{2}:\d{2}$/.test(minute.text) && zone.text === "UTC" &&
                Math.abs(minute.yMin - word.yMin) < 1 && Math.abs(zone.yMin - word.yMin) < 1,
              `${type}: "${word.text}" is followed on its line by "HH:MM UTC" (${minute?.text} ${zone?.text})`,
            );
            timestamps++;
          }
        }
        assert.ok(timestamps > ROWS / 2, `${type}: timestamps checked (${timestamps})`);

        // 8 pt or more everywhere, whole words in the table, labels for codes, no duplicated summary.
        assertTextSizes(type, pages);
        assertWholeWords(
          type,
          rendered,
          await shownWords(data),
          Number(res.headers.get("x-report-row-count")),
        );
        assert.ok(
          rendered.sizes.every((size) => size.width > size.height),
          `${type}: long values in every column make a wide table, landscape`,
        );
        if (type !== "api-usage") await assertLabels(type, layout, data);
        assertSummaryNotDuplicated(type, pages[0], data);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
      await t.close();
    }
  },
});

Deno.test({
  name: "a PDF report whose columns fit a portrait page is portrait, with the same 8 pt and whole words",
  ignore: !popplerPresent && Deno.env.get("CI") !== "true",
  fn: async () => {
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    const t = await createTestApp();
    const dir = await Deno.makeTempDir({ prefix: "cbr-pdf-render-" });
    try {
      const req = await t.desk();
      const at = "2025-03-05T10:00:00.000Z";
      await t.deps.db.transaction(async (tx) => {
        await tx.insert(institutions).values({
          id: "inst-short",
          name: "Alpha Bank",
          type: "credit_union",
          registrationNumber: "REG-1",
          address: "1 Main St",
          phoneNumber: "+1 555 0100",
          emailAddress: "alpha@bank.test",
          createdAt: at,
          updatedAt: at,
        });
        for (const [i, status] of (["active", "inactive", "suspended"] as const).entries()) {
          await tx.insert(routingCodes).values({
            id: `rc-short-${i}`,
            institutionId: "inst-short",
            code: `02100002${i}`,
            prefix: "RTN",
            branchCode: `00${i}`,
            description: "Main clearing",
            status,
            createdAt: at,
            updatedAt: at,
          });
        }
      });
      const res = await req("POST", "/api/reports", {
        body: { type: "routing-codes", format: "pdf", ...RANGE },
      });
      assert.equal(res.status, 200);
      const rendered = await render("routing-codes", new Uint8Array(await res.arrayBuffer()), dir);
      assert.ok(rendered.sizes.length >= 2);
      assert.ok(
        rendered.sizes.every((size) => size.width < size.height),
        `portrait pages (${JSON.stringify(rendered.sizes)})`,
      );
      assertTextSizes("routing-codes", rendered.pages);
      const data = await buildReportData(
        "routing-codes",
        { db: t.deps.db.read, range: RANGE, cutoff: new Date().toISOString() },
        { chainColumn: false },
      );
      const shown = await shownWords(data);
      const footer = rendered.sizes[1].height - FOOTER_FROM_BOTTOM_PT;
      const closing = new Set("End of report: 3 rows.".split(" "));
      const table = rendered.pages[1].filter((word) => word.yMin < footer && !closing.has(word.text))
        .map((word) => word.text);
      for (const word of ["Alpha", "Bank", "Inactive", "Suspended", "Main", "clearing", "021000021"]) {
        assert.ok(table.includes(word), `"${word}" in the table`);
      }
      for (const word of table) assert.ok(shown.has(word), `"${word}" is a whole word of the table`);
    } finally {
      await Deno.remove(dir, { recursive: true });
      await t.close();
    }
  },
});
