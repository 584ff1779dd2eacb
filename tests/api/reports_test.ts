import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { parse as parseCsv } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { extractText, getDocumentProxy } from "unpdf";
import { validateXML } from "xmllint-wasm";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import {
  apiLogs,
  auditTrail,
  generatedReports,
  institutions,
  routingCodes,
  swiftCodes,
} from "../../db/schema.ts";
import { REPORT_FORMATS, REPORT_TYPES, type ReportFormat, type ReportType } from "../../src/domain/report.ts";
import { verifyAuditChain } from "../../src/server/audit/trail.ts";
import { MAX_PDF_ROWS } from "../../src/server/features/reports/service.ts";
import { createTestApp as createBaseTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

/**
 * The request log prunes api_logs rows older than its retention (90 days by default) on its first
 * write; the seeded rows are dated 2025, so the retention is set long enough to keep them.
 */
const createTestApp = () => createBaseTestApp({ API_LOG_RETENTION_DAYS: "36500" });

const RANGE = { from: "2025-03-01", to: "2025-03-31" };
const REPORT_XSD = new URL("../../docs/reports.xsd", import.meta.url);
const INJECTION_NAME = '=HYPERLINK("http://evil.example","click")';
const INJECTION_ADDRESS = "@SUM(1+1)";
const TRICKY_NAME = 'Bank "North", Ltd.\nSecond line';

interface Dataset {
  expected: Record<Exclude<ReportType, "audit-trail">, number>;
  institutionNames: string[];
}

function institution(id: string, name: string, createdAt: string, address = "1 Main Street") {
  return {
    id,
    name,
    type: "commercial" as const,
    registrationNumber: `REG-${id}`,
    address,
    phoneNumber: "+1 555 0100",
    emailAddress: `${id}@bank.test`,
    createdAt,
    updatedAt: createdAt,
  };
}

function bic(id: string, bicCode: string, institutionId: string, createdAt: string, updatedAt = createdAt) {
  return {
    id,
    institutionId,
    bicCode,
    bankCode: bicCode.slice(0, 4),
    countryCode: bicCode.slice(4, 6),
    locationCode: bicCode.slice(6, 8),
    createdAt,
    updatedAt,
  };
}

function apiLog(
  id: string,
  createdAt: string,
  endpoint: string,
  method: string,
  status: number,
  extra: Partial<typeof apiLogs.$inferInsert> = {},
) {
  return {
    id,
    createdAt,
    endpoint,
    method,
    responseStatus: status,
    responseTime: 12,
    clientIp: "127.0.0.1",
    ...extra,
  };
}

/** Rows inside and just outside 2025-03-01..2025-03-31 (UTC), inserted straight into the tables. */
async function seedDataset(t: TestApp): Promise<Dataset> {
  const inRange = [
    institution("inst-a", "Alpha Bank", "2025-03-01T00:00:00.000Z"),
    institution("inst-b", INJECTION_NAME, "2025-03-15T10:00:00.000Z", INJECTION_ADDRESS),
    institution("inst-c", TRICKY_NAME, "2025-03-31T23:59:59.999Z"),
    institution("inst-d", "-Minus Credit Union", "2025-03-20T08:00:00.000Z"),
  ];
  const outOfRange = [
    institution("inst-early", "Too Early Bank", "2025-02-28T23:59:59.999Z"),
    institution("inst-late", "Too Late Bank", "2025-04-01T00:00:00.000Z"),
  ];
  await t.deps.db.transaction(async (tx) => {
    await tx.insert(institutions).values([...inRange, ...outOfRange]);
    await tx.insert(routingCodes).values([
      {
        id: "rc-1",
        institutionId: "inst-a",
        code: "ALP000101",
        prefix: "ALP",
        description: "+1 main",
        createdAt: "2025-03-02T00:00:00.000Z",
        updatedAt: "2025-03-02T00:00:00.000Z",
      },
      {
        id: "rc-2",
        institutionId: "inst-b",
        code: "BET000102",
        prefix: "BET",
        createdAt: "2025-03-30T12:00:00.000Z",
        updatedAt: "2025-03-30T12:00:00.000Z",
      },
      {
        id: "rc-3",
        institutionId: "inst-b",
        code: "BET000103",
        prefix: "BET",
        createdAt: "2025-04-02T12:00:00.000Z",
        updatedAt: "2025-04-02T12:00:00.000Z",
      },
    ]);
    await tx.insert(swiftCodes).values([
      bic("bic-1", "ALPHDEFF", "inst-a", "2025-03-03T00:00:00.000Z"),
      bic("bic-2", "BETADEFFXXX", "inst-b", "2025-03-04T00:00:00.000Z", "2025-03-05T00:00:00.000Z"),
      bic("bic-changed", "OLDBDEFF", "inst-early", "2025-01-10T00:00:00.000Z", "2025-03-10T00:00:00.000Z"),
      bic("bic-untouched", "QUIEDEFF", "inst-early", "2025-01-10T00:00:00.000Z", "2025-02-10T00:00:00.000Z"),
      bic("bic-late", "LATEDEFF", "inst-late", "2025-04-03T00:00:00.000Z"),
    ]);
    await tx.insert(apiLogs).values([
      apiLog("log-1", "2025-03-05T09:00:00.000Z", "/api/iban/validate", "POST", 200, {
        requestPayload: { body: { iban: "DE89370400440532013000" } },
        responsePayload: { valid: true, details: { countryCode: "DE" } },
      }),
      apiLog("log-2", "2025-03-06T09:00:00.000Z", "/api/iban/validate", "POST", 200, {
        requestPayload: { iban: "DE00370400440532013000" },
        responsePayload: { valid: false, details: { countryCode: "DE", error: "Invalid check digits" } },
      }),
      apiLog("log-3", "2025-03-07T09:00:00.000Z", "/api/iban/validate", "POST", 200, {
        apiKeyId: "key-1",
        requestPayload: { body: { iban: "GB82WEST12345698765432" } },
        responsePayload: {
          success: true,
          data: { valid: true, details: { countryCode: "GB" } },
          timestamp: "x",
        },
      }),
      apiLog("log-4", "2025-03-08T09:00:00.000Z", "/api/institutions", "GET", 200),
      apiLog("log-5", "2025-03-09T09:00:00.000Z", "/api/iban/validate", "POST", 400, {
        userAgent: "=cmd|' /C calc'!A0",
      }),
      apiLog("log-early", "2025-02-28T09:00:00.000Z", "/api/iban/validate", "POST", 200),
      apiLog("log-late", "2025-04-01T00:00:00.000Z", "/api/institutions", "GET", 200),
    ]);
  });
  return {
    expected: {
      "institutions": inRange.length,
      "routing-codes": 2,
      "swift-activity": 3,
      "iban-validation": 4,
      "api-usage": 5,
    },
    institutionNames: inRange.map((row) => row.name),
  };
}

interface Parsed {
  rowCount: number;
  /** Data rows keyed by column key (not for PDF). */
  rows: Record<string, unknown>[];
  /** Whole-report statements: XML notes, XLSX summary, PDF text. */
  text: string;
}

/**
 * A cell's value with text as a plain string: text cells are inline strings, which exceljs reads
 * as rich text, and every one of them must sit in a Text-format ("@") cell.
 */
function xlsxCellValue(cell: ExcelJS.Cell): unknown {
  if (cell.type === ExcelJS.ValueType.String) {
    assert.fail(`${cell.address} is a shared or formula string, not inline`);
  }
  if (cell.type !== ExcelJS.ValueType.RichText) return cell.value;
  assert.equal(cell.numFmt, "@", `${cell.address} holds text in the Text format`);
  return cell.text;
}

async function parseReport(format: ReportFormat, bytes: Uint8Array): Promise<Parsed> {
  switch (format) {
    case "csv": {
      const text = new TextDecoder().decode(bytes);
      const rows = parseCsv(text, {
        columns: true,
        record_delimiter: "\r\n",
        relax_column_count: false,
      }) as Record<string, string>[];
      return { rowCount: rows.length, rows, text };
    }
    case "xml": {
      const text = new TextDecoder().decode(bytes);
      assert.equal(XMLValidator.validate(text), true, "the XML is well formed");
      const schema = await validateXML({
        xml: [{ fileName: "report.xml", contents: text }],
        schema: [{ fileName: "reports.xsd", contents: await Deno.readTextFile(REPORT_XSD) }],
      });
      assert.deepEqual(schema.errors.map((error) => error.message), [], "the XML follows docs/reports.xsd");
      const doc = new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: "@",
        parseTagValue: false,
        isArray: (name) => ["row", "note", "column"].includes(name),
      }).parse(text);
      const rows = (doc.report.rows?.row ?? []) as Record<string, unknown>[];
      assert.equal(Number(doc.report.summary["@rowCount"]), rows.length, "summary rowCount equals the rows");
      const notes = (doc.report.notes?.note ?? []).map((note: Record<string, string>) =>
        `${note["@name"]}=${note["#text"]}`
      );
      return { rowCount: rows.length, rows, text: notes.join("\n") };
    }
    case "xlsx": {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet("Report")!;
      const summary = workbook.getWorksheet("Summary")!;
      const header = sheet.getRow(1);
      const labels = Array.from({ length: header.cellCount }, (_, i) => xlsxCellValue(header.getCell(i + 1)));
      const rows: Record<string, unknown>[] = [];
      sheet.eachRow((row, number) => {
        if (number === 1) return;
        const record: Record<string, unknown> = {};
        labels.forEach((label, i) => {
          const cell = row.getCell(i + 1);
          assert.notEqual(cell.type, ExcelJS.ValueType.Formula, "no cell is a formula");
          record[String(label)] = xlsxCellValue(cell);
        });
        rows.push(record);
      });
      const lines: string[] = [];
      summary.eachRow((row) =>
        lines.push(`${xlsxCellValue(row.getCell(1))}=${xlsxCellValue(row.getCell(2))}`)
      );
      return { rowCount: rows.length, rows, text: lines.join("\n") };
    }
    case "pdf": {
      const pdf = await getDocumentProxy(bytes);
      const { totalPages, text } = await extractText(pdf, { mergePages: true });
      assert.ok(totalPages >= 1);
      const match = /End of report: (\d+) rows\./.exec(text);
      assert.ok(match, "the PDF ends with its row count");
      return { rowCount: Number(match[1]), rows: [], text };
    }
  }
}

async function generate(t: TestApp, cookie: string, body: Record<string, unknown>) {
  const res = await t.as(cookie)("POST", "/api/reports", { body });
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${await res.text()}`);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

function auditRowsToday(t: TestApp, today: string) {
  const end = new Date(Date.parse(today) + 86_400_000).toISOString();
  return t.deps.db.read.select({ count: sql<number>`count(*)` }).from(auditTrail)
    .where(and(gte(auditTrail.performedAt, `${today}T00:00:00.000Z`), lt(auditTrail.performedAt, end)))
    .then((rows) => rows[0].count);
}

Deno.test("every report type in every format opens with a reader and holds exactly the rows of its range", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const data = await seedDataset(t);
    const today = new Date().toISOString().slice(0, 10);
    for (const type of REPORT_TYPES) {
      for (const format of REPORT_FORMATS) {
        const range = type === "audit-trail" ? { from: today, to: today } : RANGE;
        const expected = type === "audit-trail" ? await auditRowsToday(t, today) : data.expected[type];
        const { res, bytes } = await generate(t, cookie, { type, format, ...range });
        const fileName = `${type}_${range.from}_${range.to}.${format}`;
        assert.equal(res.headers.get("content-disposition"), `attachment; filename="${fileName}"`);
        assert.equal(res.headers.get("content-length"), String(bytes.byteLength));
        assert.equal(
          res.headers.get("x-report-row-count"),
          String(expected),
          `${type}/${format} header row count`,
        );
        const parsed = await parseReport(format, bytes);
        assert.equal(parsed.rowCount, expected, `${type}/${format} rows`);
        if (type === "audit-trail") {
          assert.match(
            parsed.text,
            /Audit chain verified: all \d+ entries/,
            `${type}/${format} states the chain result`,
          );
        }
        if (type === "institutions" && format === "pdf") {
          for (const name of ["Alpha Bank", "-Minus Credit Union"]) {
            assert.ok(parsed.text.includes(name), name);
          }
          assert.ok(!parsed.text.includes("Too Early Bank") && !parsed.text.includes("Too Late Bank"));
        }
        if (type === "institutions" && format !== "pdf") {
          const names = parsed.rows.map((row) => row.name ?? row.Institution);
          assert.ok(!names.includes("Too Early Bank") && !names.includes("Too Late Bank"));
        }
      }
    }
  } finally {
    await t.close();
  }
});

Deno.test("each format answers its content type", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const expected: Record<ReportFormat, RegExp> = {
      pdf: /^application\/pdf$/,
      csv: /^text\/csv; charset=utf-8/,
      xlsx: /^application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.sheet$/,
      xml: /^application\/xml; charset=utf-8$/,
    };
    for (const format of REPORT_FORMATS) {
      const { res, bytes } = await generate(t, cookie, { type: "institutions", format, ...RANGE });
      assert.match(res.headers.get("content-type") ?? "", expected[format], format);
      assert.equal(res.headers.get("cache-control"), "no-store");
      assert.equal(
        (await parseReport(format, bytes)).rowCount,
        0,
        `${format}: an empty range is a valid empty report`,
      );
    }
  } finally {
    await t.close();
  }
});

Deno.test("the format defaults to pdf when the request names none", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const { res, bytes } = await generate(t, cookie, { type: "routing-codes", ...RANGE });
    assert.equal(res.headers.get("content-type"), "application/pdf");
    assert.equal(new TextDecoder().decode(bytes.slice(0, 5)), "%PDF-");
  } finally {
    await t.close();
  }
});

Deno.test("CSV is RFC 4180 with CRLF and quoting, and formula-like cells are neutralised with an apostrophe", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    await seedDataset(t);
    await t.deps.db.transaction(async (tx) => {
      await tx.update(institutions).set({ address: "a;-2+3" }).where(eq(institutions.id, "inst-a"));
    });
    const { bytes } = await generate(t, cookie, { type: "institutions", format: "csv", ...RANGE });
    const text = new TextDecoder().decode(bytes);
    assert.ok(text.startsWith("id,name,type,registrationNumber,"), "header row of column keys");
    assert.ok(text.includes(`"a;'-2+3"`), "every text quoted, a formula after a separator neutralised");
    assert.ok(text.includes(`"inst-a","Alpha Bank",`), "plain text is quoted too");
    // Excel with a semicolon list separator splits at ';' whatever the quotes: still no formula.
    for (const line of text.split("\r\n")) {
      for (const piece of line.split(";")) assert.doesNotMatch(piece, /^"?[=+\-@]/, line);
    }
    assert.ok(text.endsWith("\r\n"));
    assert.ok(text.includes(`"Bank ""North"", Ltd.\nSecond line"`), "quotes doubled, field quoted");
    const rows = parseCsv(text, { columns: true }) as Record<string, string>[];
    const byId = new Map(rows.map((row) => [row.id, row]));
    assert.equal(byId.get("inst-b")!.name, `'${INJECTION_NAME}`);
    assert.equal(byId.get("inst-b")!.address, `'${INJECTION_ADDRESS}`);
    assert.equal(byId.get("inst-d")!.name, "'-Minus Credit Union");
    assert.equal(byId.get("inst-c")!.name, TRICKY_NAME);
    assert.equal(byId.get("inst-a")!.swiftParticipant, "false");
    for (const row of rows) {
      for (const value of Object.values(row)) {
        assert.doesNotMatch(value, /^[=+\-@\t\r]/, "no cell starts a formula");
      }
    }

    const usage = new TextDecoder().decode(
      (await generate(t, cookie, { type: "api-usage", format: "csv", ...RANGE })).bytes,
    );
    const usageRows = parseCsv(usage, { columns: true }) as Record<string, string>[];
    assert.equal(usageRows.find((row) => row.id === "log-5")!.userAgent, "'=cmd|' /C calc'!A0");
  } finally {
    await t.close();
  }
});

Deno.test("XLSX keeps formula-like text as plain string cells and XML escapes it", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    await seedDataset(t);
    const xlsx = await parseReport(
      "xlsx",
      (await generate(t, cookie, { type: "institutions", format: "xlsx", ...RANGE })).bytes,
    );
    const injected = xlsx.rows.find((row) => row.Id === "inst-b")!;
    assert.equal(injected.Institution, INJECTION_NAME, "stored as text, not as a formula");
    assert.equal(injected.Branches, 1);
    assert.equal(injected["SWIFT Participant"], false);
    assert.match(xlsx.text, /Range \(UTC, inclusive\)=2025-03-01 to 2025-03-31/);
    assert.match(xlsx.text, /Rows=4/);

    const xmlBytes = (await generate(t, cookie, { type: "institutions", format: "xml", ...RANGE })).bytes;
    const xmlText = new TextDecoder().decode(xmlBytes);
    assert.ok(xmlText.includes("<name>Bank &quot;North&quot;") || xmlText.includes('<name>Bank "North"'));
    assert.ok(xmlText.includes('xmlns="urn:central-bank-registry-console:report:1"'));
    const xml = await parseReport("xml", xmlBytes);
    const row = xml.rows.find((r) => r.id === "inst-b")!;
    assert.equal(row.name, INJECTION_NAME);
    assert.deepEqual(row.licenseNumber, { "@nil": "true" }, "null is an empty element marked nil");
  } finally {
    await t.close();
  }
});

Deno.test("XLSX cells are typed: timestamps are dates, counts integers, booleans booleans; the header is frozen and filtered", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    await seedDataset(t);
    const workbook = new ExcelJS.Workbook();
    const { bytes } = await generate(t, cookie, { type: "institutions", format: "xlsx", ...RANGE });
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet("Report")!;
    const header = sheet.getRow(1);
    const column = (label: string) => {
      for (let i = 1; i <= header.cellCount; i++) if (header.getCell(i).text === label) return i;
      throw new Error(`no column ${label}`);
    };
    const rowOf = (id: string) => {
      for (let r = 2; r <= sheet.rowCount; r++) {
        if (sheet.getRow(r).getCell(column("Id")).text === id) return r;
      }
      throw new Error(`no row ${id}`);
    };
    const cell = (id: string, label: string) => sheet.getRow(rowOf(id)).getCell(column(label));

    const registered = cell("inst-c", "Registered");
    assert.equal(registered.type, ExcelJS.ValueType.Date, "a timestamp is a date cell");
    assert.ok(registered.value instanceof Date);
    assert.equal(
      (registered.value as Date).toISOString(),
      "2025-03-31T23:59:59.999Z",
      "the exact instant, in UTC",
    );
    assert.equal(registered.numFmt, 'yyyy-mm-dd hh:mm:ss "UTC"');
    const formatted = "2025-03-31 23:59:59 UTC".length;
    assert.ok(sheet.getColumn(column("Registered")).width! >= formatted, "wide enough to show, not ####");
    const branches = cell("inst-b", "Branches");
    assert.equal(branches.type, ExcelJS.ValueType.Number, "a count is a number");
    assert.ok(Number.isInteger(branches.value), "a whole number");
    assert.equal(branches.numFmt, "0");
    assert.equal(cell("inst-a", "SWIFT Participant").type, ExcelJS.ValueType.Boolean);
    assert.equal(cell("inst-a", "Institution").numFmt, "@", "text stays in the Text format");

    const [view] = sheet.views as ExcelJS.WorksheetViewFrozen[];
    assert.equal(view.state, "frozen");
    assert.equal(view.ySplit, 1, "the header row stays in view");
    const lastColumn = sheet.getColumn(header.cellCount).letter;
    assert.equal(sheet.autoFilter, `A1:${lastColumn}5`, "a filter over the header and the four rows");
  } finally {
    await t.close();
  }
});

Deno.test("the SWIFT activity report lists BICs registered in the range and those changed in it", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    await seedDataset(t);
    const { rows } = await parseReport(
      "csv",
      (await generate(t, cookie, { type: "swift-activity", format: "csv", ...RANGE })).bytes,
    );
    assert.deepEqual(rows.map((row) => [row.bicCode, row.activity]), [
      ["ALPHDEFF", "registered"],
      ["BETADEFFXXX", "registered"],
      ["OLDBDEFF", "changed"],
    ]);
    assert.equal(rows[2].activityAt, "2025-03-10T00:00:00.000Z");
    assert.equal(rows[0].institutionName, "Alpha Bank");
  } finally {
    await t.close();
  }
});

Deno.test("the IBAN validation report reads POST /api/iban/validate logs with their outcome and masks the IBAN", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    await seedDataset(t);
    const { rows } = await parseReport(
      "csv",
      (await generate(t, cookie, { type: "iban-validation", format: "csv", ...RANGE })).bytes,
    );
    assert.deepEqual(rows.map((row) => [row.id, row.outcome, row.countryCode, row.reason]), [
      ["log-1", "valid", "DE", ""],
      ["log-2", "invalid", "DE", "Invalid check digits"],
      ["log-3", "valid", "GB", ""],
      ["log-5", "error", "", ""],
    ]);
    assert.equal(rows[0].iban, "DE89**************3000");
    for (const row of rows) {
      assert.ok(!String(row.iban).includes("370400440532"), "the account part is masked");
    }
  } finally {
    await t.close();
  }
});

Deno.test("the IBAN validation report reads what the request log wrote for real POST /api/iban/validate calls", async () => {
  const t = await createTestApp();
  try {
    const req = t.as(await t.login());
    const today = new Date().toISOString().slice(0, 10);
    const valid = await expectJson(
      await req("POST", "/api/iban/validate", { body: { iban: "GB82WEST12345698765432" } }),
      200,
    );
    assert.equal(valid.valid, true);
    const invalid = await expectJson(
      await req("POST", "/api/iban/validate", { body: { iban: "GB00WEST12345698765432" } }),
      200,
    );
    assert.equal(invalid.valid, false);
    await t.app.requestLog.flush();
    const { rows } = await parseReport(
      "csv",
      (await generate(t, await t.login(), { type: "iban-validation", format: "csv", from: today, to: today }))
        .bytes,
    );
    assert.deepEqual(rows.map((row) => [row.iban, row.outcome, row.countryCode, row.responseStatus]), [
      ["GB82**************5432", "valid", "GB", "200"],
      ["GB00**************5432", "invalid", "GB", "200"],
    ]);
    assert.ok(String(rows[1].reason).length > 0, "the invalid one says why");
  } finally {
    await t.close();
  }
});

Deno.test("the audit-trail report carries each row's hash and previous hash, and every row verifies", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const today = new Date().toISOString().slice(0, 10);
    await generate(t, cookie, { type: "institutions", format: "csv", ...RANGE });
    const { res, bytes } = await generate(t, cookie, {
      type: "audit-trail",
      format: "csv",
      from: today,
      to: today,
    });
    const { rows } = await parseReport("csv", bytes);
    const stored = await t.deps.db.read.select().from(auditTrail).orderBy(auditTrail.seq);
    assert.equal(rows.length, stored.length - 1, "all rows but the report's own audit row, written after it");
    rows.forEach((row, i) => {
      assert.equal(Number(row.seq), stored[i].seq);
      assert.equal(row.hash, stored[i].hash);
      assert.equal(row.prevHash, stored[i].prevHash);
      assert.equal(row.rowVerified, "true");
      assert.equal(row.chainVerified, "true");
    });
    assert.ok(rows.some((row) => row.entityType === "report" && row.action === "generate"));
    const list = await expectJson(await t.as(cookie)("GET", "/api/reports"), 200);
    const record = list.items.find((item: { id: string }) => item.id === res.headers.get("x-report-id"));
    assert.equal(record.summary.chain.verified, true);
    assert.equal((await verifyAuditChain(t.deps.db.read)).ok, true);
  } finally {
    await t.close();
  }
});

Deno.test("validation: an unknown type or format, a malformed or impossible date, a reversed or over-long range answer 400", async () => {
  const t = await createTestApp();
  try {
    const req = t.as(await t.login());
    const cases: [Record<string, unknown>, string][] = [
      [{ format: "csv", ...RANGE }, "type"],
      [{ type: "ledger", format: "csv", ...RANGE }, "type"],
      [{ type: "institutions", format: "docx", ...RANGE }, "format"],
      [{ type: "institutions", format: "csv", from: "2025-02-30", to: "2025-03-31" }, "from"],
      [{ type: "institutions", format: "csv", from: "2025-03-01", to: "31/03/2025" }, "to"],
      [{ type: "institutions", format: "csv", from: "2025-03-31", to: "2025-03-01" }, "to"],
      [{ type: "institutions", format: "csv", from: "2020-01-01", to: "2025-01-01" }, "to"],
      [{ type: "institutions", format: "csv", to: "2025-01-01" }, "from"],
    ];
    for (const [body, field] of cases) {
      const error = await expectJson(await req("POST", "/api/reports", { body }), 400);
      assert.equal(error.code, "validation");
      assert.ok(
        error.fields[field],
        `${JSON.stringify(body)} names ${field}: ${JSON.stringify(error.fields)}`,
      );
    }
    const list = await expectJson(await req("GET", "/api/reports"), 200);
    assert.equal(list.total, 0, "rejected requests are not recorded");
  } finally {
    await t.close();
  }
});

Deno.test("reports require a session", async () => {
  const t = await createTestApp();
  try {
    assert.equal(
      (await t.request("POST", "/api/reports", { body: { type: "institutions", ...RANGE } })).status,
      401,
    );
    assert.equal((await t.request("GET", "/api/reports")).status, 401);
    assert.equal((await t.request("GET", `/api/reports/${crypto.randomUUID()}/download`)).status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("a generated report is recorded, listed newest first with counters, audited and downloadable again byte for byte", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const req = t.as(cookie);
    await seedDataset(t);
    const first = await generate(t, cookie, { type: "institutions", format: "xlsx", ...RANGE });
    const second = await generate(t, cookie, { type: "routing-codes", format: "csv", ...RANGE });
    const list = await expectJson(await req("GET", "/api/reports"), 200);
    assert.equal(list.total, 2);
    assert.deepEqual(list.items.map((item: { fileName: string }) => item.fileName), [
      "routing-codes_2025-03-01_2025-03-31.csv",
      "institutions_2025-03-01_2025-03-31.xlsx",
    ]);
    const [latest, older] = list.items;
    assert.equal(latest.status, "completed");
    assert.equal(latest.rowCount, 2);
    assert.equal(latest.sizeBytes, second.bytes.byteLength);
    assert.equal(latest.sha256, createHash("sha256").update(second.bytes).digest("hex"));
    assert.equal(latest.createdByName, "admin@centralbank.test");
    assert.equal(latest.label, "Routing Codes Report");
    assert.equal(older.rowCount, 4);
    assert.equal(list.counters.total, 2);
    assert.equal(list.counters.thisMonth, 2);
    assert.equal(list.counters.rowsExported, 6);
    assert.equal(list.counters.failed, 0);
    assert.equal(list.counters.lastGeneratedAt, latest.completedAt);

    const again = await req("GET", older.downloadUrl);
    assert.equal(again.status, 200);
    assert.equal(
      again.headers.get("content-disposition"),
      'attachment; filename="institutions_2025-03-01_2025-03-31.xlsx"',
    );
    assert.deepEqual(new Uint8Array(await again.arrayBuffer()), first.bytes);

    const stored = await Deno.stat(`${t.dataDir}/reports/${older.id}.xlsx`);
    assert.equal(stored.size, first.bytes.byteLength);
    const audits = await t.deps.db.read.select().from(auditTrail).where(eq(auditTrail.entityType, "report"))
      .orderBy(auditTrail.seq);
    assert.deepEqual(audits.map((row) => row.action), ["generate", "generate"]);
    assert.equal(audits[0].entityId, older.id);

    const page = await expectJson(await req("GET", "/api/reports?limit=1&offset=1"), 200);
    assert.deepEqual(page.items.map((item: { id: string }) => item.id), [older.id]);
    assert.equal((await req("GET", `/api/reports/${crypto.randomUUID()}/download`)).status, 404);
    assert.equal((await req("GET", "/api/reports/not-a-uuid/download")).status, 400);
  } finally {
    await t.close();
  }
});

Deno.test("a generation that cannot write its file answers 500, is recorded as failed (not completed) and leaves no file", async () => {
  const t = await createTestApp();
  try {
    const req = t.as(await t.login());
    // A plain file where the reports folder should be: the folder cannot be created.
    await Deno.writeTextFile(`${t.dataDir}/reports`, "in the way");
    const res = await req("POST", "/api/reports", {
      body: { type: "institutions", format: "csv", ...RANGE },
    });
    const error = await expectJson(res, 500);
    assert.match(error.message, /Report generation failed/);
    const list = await expectJson(await req("GET", "/api/reports"), 200);
    assert.equal(list.items.length, 1);
    assert.equal(list.items[0].status, "failed");
    assert.equal(list.items[0].downloadUrl, null);
    assert.equal(list.items[0].rowCount, null);
    assert.ok(list.items[0].error);
    assert.equal(list.counters.total, 0);
    assert.equal(list.counters.failed, 1);
    assert.equal((await req("GET", `/api/reports/${list.items[0].id}/download`)).status, 409);
    const completed = await t.deps.db.read.select().from(generatedReports).where(
      eq(generatedReports.status, "completed"),
    );
    assert.equal(completed.length, 0);
    const audits = await t.deps.db.read.select().from(auditTrail).where(eq(auditTrail.entityType, "report"))
      .orderBy(auditTrail.seq);
    assert.deepEqual(audits.map((row) => row.action), ["generate_failed"]);
  } finally {
    await t.close();
  }
});

const BIG_ROW_COUNT = 100_000;
/**
 * Selecting the same 100,000 rows at once grows the heap by about 160 MiB (measured), before any
 * CSV text exists; streaming peaks between 5 and 40 MiB depending on when the collector runs.
 */
const MAX_HEAP_GROWTH_BYTES = 96 * 1024 * 1024;
const MEMORY_SAMPLE_INTERVAL_MS = 20;

Deno.test("a 100,000-row CSV report streams with bounded memory, and PDF refuses past its row limit", async () => {
  const t = await createTestApp();
  try {
    const req = t.as(await t.login());
    await t.deps.db.transaction(async (tx) => {
      await tx.run(
        sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${BIG_ROW_COUNT})
        INSERT INTO api_logs (id, endpoint, method, client_ip, user_agent, response_status, response_time, created_at)
        SELECT printf('big-%06d', i), '/api/institutions', 'GET', '10.0.0.' || (i % 250),
          'load-test-agent/1.0 (+https://example.test) ' || i, 200, i % 97,
          strftime('%Y-%m-%dT%H:%M:%fZ', '2025-03-01', '+' || (i * 20) || ' seconds')
        FROM n`,
      );
    });
    const [{ count }] = await t.deps.db.read.select({ count: sql<number>`count(*)` }).from(apiLogs);
    assert.equal(count, BIG_ROW_COUNT);

    const pdf = await req("POST", "/api/reports", { body: { type: "api-usage", format: "pdf", ...RANGE } });
    const pdfError = await expectJson(pdf, 422);
    assert.match(pdfError.message, new RegExp(`at most ${MAX_PDF_ROWS} rows`));

    const heapBefore = Deno.memoryUsage().heapUsed;
    const rssBefore = Deno.memoryUsage().rss;
    let heapPeak = heapBefore;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      const usage = Deno.memoryUsage();
      heapPeak = Math.max(heapPeak, usage.heapUsed);
      rssPeak = Math.max(rssPeak, usage.rss);
    }, MEMORY_SAMPLE_INTERVAL_MS);
    const started = performance.now();
    let lines = 0;
    let bytes = 0;
    try {
      const res = await req("POST", "/api/reports", { body: { type: "api-usage", format: "csv", ...RANGE } });
      assert.equal(res.status, 200);
      for await (const chunk of res.body!) {
        bytes += chunk.byteLength;
        for (const byte of chunk) if (byte === 0x0a) lines++;
      }
    } finally {
      clearInterval(sampler);
    }
    const elapsedMs = performance.now() - started;
    const heapGrowth = heapPeak - heapBefore;
    console.log(
      `100k-row CSV: ${bytes} bytes in ${Math.round(elapsedMs)} ms; peak heap growth ${
        (heapGrowth / 1048576).toFixed(1)
      } MiB, ` +
        `peak rss growth ${((rssPeak - rssBefore) / 1048576).toFixed(1)} MiB`,
    );
    assert.equal(lines, BIG_ROW_COUNT + 1, "header plus one line per row");
    assert.ok(
      heapGrowth < MAX_HEAP_GROWTH_BYTES,
      `peak heap growth ${heapGrowth} bytes stays under ${MAX_HEAP_GROWTH_BYTES}`,
    );
    const list = await expectJson(await req("GET", "/api/reports"), 200);
    assert.equal(list.items[0].rowCount, BIG_ROW_COUNT);
    assert.equal(list.items[0].sizeBytes, bytes);
  } finally {
    await t.close();
  }
});

Deno.test("the audit-trail report states a broken chain and flags the tampered row", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const today = new Date().toISOString().slice(0, 10);
    await generate(t, cookie, { type: "institutions", format: "csv", ...RANGE });
    const [target] = await t.deps.db.read.select().from(auditTrail).where(
      eq(auditTrail.entityType, "report"),
    );
    // Simulates tampering below the application: the append-only trigger is dropped first.
    await t.deps.db.transaction(async (tx) => {
      await tx.run(sql`DROP TRIGGER audit_trail_no_update`);
      await tx.run(sql`UPDATE audit_trail SET action = 'tampered' WHERE id = ${target.id}`);
    });
    const csv = await parseReport(
      "csv",
      (await generate(t, cookie, { type: "audit-trail", format: "csv", from: today, to: today })).bytes,
    );
    const tampered = csv.rows.find((row) => row.id === target.id)!;
    assert.equal(tampered.rowVerified, "false");
    assert.ok(csv.rows.filter((row) => row.id !== target.id).every((row) => row.rowVerified === "true"));
    assert.ok(csv.rows.every((row) => row.chainVerified === "false"));
    const xml = await parseReport(
      "xml",
      (await generate(t, cookie, { type: "audit-trail", format: "xml", from: today, to: today })).bytes,
    );
    assert.match(xml.text, /chainVerified=false/);
    assert.match(xml.text, new RegExp(`Audit chain NOT verified: entry ${target.seq} is broken`));
    const pdf = await parseReport(
      "pdf",
      (await generate(t, cookie, { type: "audit-trail", format: "pdf", from: today, to: today })).bytes,
    );
    assert.match(pdf.text, /Audit chain NOT verified/);
  } finally {
    await t.close();
  }
});

Deno.test("a third simultaneous generation answers 429 with Retry-After while two are running", async () => {
  const t = await createTestApp();
  try {
    const req = t.as(await t.login());
    await seedDataset(t);
    const body = { type: "institutions", format: "pdf", ...RANGE };
    const responses = await Promise.all([1, 2, 3].map(() => req("POST", "/api/reports", { body })));
    const statuses = responses.map((res) => res.status).sort();
    assert.deepEqual(statuses, [200, 200, 429]);
    const refused = responses.find((res) => res.status === 429)!;
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    assert.equal((await refused.json()).code, "rate_limited");
    for (const res of responses) if (res !== refused) await res.body?.cancel();
    const list = await expectJson(await req("GET", "/api/reports"), 200);
    assert.equal(list.total, 2, "the refused request is not recorded");
  } finally {
    await t.close();
  }
});

Deno.test("report rows pass the card-number detection: a card number typed into a text field leaves masked (issue 22)", async () => {
  const t = await createTestApp();
  try {
    const cookie = await t.login();
    const id = crypto.randomUUID();
    await t.deps.db.transaction((tx) =>
      tx.insert(institutions).values(
        institution(
          id,
          "Bank of Cards 4532015112830366",
          "2025-03-10T10:00:00.000Z",
          "Paid by 4111 1111 1111 1111",
        ),
      )
    );
    for (const format of ["csv", "xml"] as const) {
      const { bytes } = await generate(t, cookie, { type: "institutions", format, ...RANGE });
      const text = new TextDecoder().decode(bytes);
      assert(text.includes(id), "ids stay as they are");
      assert(!text.includes("4532015112830366") && !text.includes("4111 1111 1111 1111"), format);
      assert(text.includes("453201******0366") && text.includes("4111 11** **** 1111"), format);
    }
  } finally {
    await t.close();
  }
});
