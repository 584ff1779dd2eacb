import assert from "node:assert/strict";
import {
  isReportFormat,
  isReportType,
  MAX_REPORT_RANGE_YEARS,
  parseIsoDate,
  rangeBounds,
  reportFileName,
  startOfUtcMonth,
  validateReportRange,
} from "../../src/domain/report.ts";
import {
  csvField,
  csvHeaderRecord,
  csvRecord,
  isXmlName,
  neutraliseFormula,
  pdfText,
  xmlAttribute,
  xmlText,
} from "../../src/domain/report_encoding.ts";

Deno.test("isReportType() and isReportFormat() accept exactly the spec's six types and four formats", () => {
  for (
    const type of [
      "institutions",
      "routing-codes",
      "swift-activity",
      "iban-validation",
      "api-usage",
      "audit-trail",
    ]
  ) {
    assert.ok(isReportType(type), type);
  }
  for (const format of ["pdf", "csv", "xlsx", "xml"]) assert.ok(isReportFormat(format), format);
  for (const bad of ["", "Institutions", "ledger", "audit_trail"]) {
    assert.equal(isReportType(bad), false, bad);
  }
  for (const bad of ["", "PDF", "xls", "json"]) assert.equal(isReportFormat(bad), false, bad);
});

Deno.test("parseIsoDate() accepts real calendar dates only", () => {
  assert.equal(parseIsoDate("2026-01-31"), Date.UTC(2026, 0, 31));
  assert.equal(parseIsoDate("2024-02-29"), Date.UTC(2024, 1, 29));
  for (
    const bad of [
      "2026-02-29",
      "2026-02-30",
      "2026-13-01",
      "2026-00-10",
      "2026-1-01",
      "26-01-01",
      "2026-01-01T00:00:00Z",
      "",
      " 2026-01-01",
    ]
  ) {
    assert.equal(parseIsoDate(bad), null, bad);
  }
});

Deno.test("validateReportRange() accepts from = to and rejects a reversed range on the to field", () => {
  assert.deepEqual(validateReportRange("2026-01-05", "2026-01-05"), {
    ok: true,
    value: { from: "2026-01-05", to: "2026-01-05" },
  });
  const reversed = validateReportRange("2026-01-05", "2026-01-04");
  assert.equal(reversed.ok, false);
  if (!reversed.ok) {
    assert.equal(reversed.error.code, "range_reversed");
    assert.equal(reversed.error.field, "to");
  }
});

Deno.test("validateReportRange() names the field of an invalid date", () => {
  const badFrom = validateReportRange("2026-02-30", "2026-03-01");
  assert.equal(!badFrom.ok && badFrom.error.field, "from");
  const badTo = validateReportRange("2026-02-01", "tomorrow");
  assert.equal(!badTo.ok && badTo.error.code, "invalid_date");
  assert.equal(!badTo.ok && badTo.error.field, "to");
});

Deno.test("validateReportRange() allows exactly five years and refuses one day more", () => {
  assert.equal(MAX_REPORT_RANGE_YEARS, 5);
  assert.equal(validateReportRange("2021-01-01", "2025-12-31").ok, true);
  const tooLong = validateReportRange("2021-01-01", "2026-01-01");
  assert.equal(!tooLong.ok && tooLong.error.code, "range_too_long");
  assert.equal(validateReportRange("2020-02-29", "2025-02-28").ok, true);
  assert.equal(validateReportRange("2020-02-29", "2025-03-01").ok, false);
});

Deno.test("rangeBounds() covers both days inclusively as a half-open UTC interval", () => {
  assert.deepEqual(rangeBounds({ from: "2026-01-01", to: "2026-01-31" }), {
    start: "2026-01-01T00:00:00.000Z",
    endExclusive: "2026-02-01T00:00:00.000Z",
  });
  assert.deepEqual(rangeBounds({ from: "2024-12-31", to: "2024-12-31" }), {
    start: "2024-12-31T00:00:00.000Z",
    endExclusive: "2025-01-01T00:00:00.000Z",
  });
});

Deno.test("reportFileName() is type_from_to.format", () => {
  assert.equal(
    reportFileName("institutions", { from: "2026-01-01", to: "2026-01-31" }, "pdf"),
    "institutions_2026-01-01_2026-01-31.pdf",
  );
  assert.equal(
    reportFileName("audit-trail", { from: "2025-06-01", to: "2025-06-30" }, "xlsx"),
    "audit-trail_2025-06-01_2025-06-30.xlsx",
  );
});

Deno.test("startOfUtcMonth() is the first day of the UTC month", () => {
  assert.equal(startOfUtcMonth(new Date("2026-03-31T23:59:59.999Z")), "2026-03-01");
  assert.equal(startOfUtcMonth(new Date("2026-01-01T00:00:00.000Z")), "2026-01-01");
});

Deno.test("neutraliseFormula() prefixes an apostrophe to =, +, -, @, tab and CR starts only", () => {
  for (const text of ["=1+1", "+1", "-2", "@SUM(A1)", "\tcmd", "\rcmd", '=HYPERLINK("http://x")']) {
    assert.equal(neutraliseFormula(text), `'${text}`, JSON.stringify(text));
  }
  for (const text of ["a=1", "1-2", "", " =1", "'=1", "mail@bank"]) {
    assert.equal(neutraliseFormula(text), text, JSON.stringify(text));
  }
});

Deno.test("csvField() quotes every text, doubles inner quotes and neutralises before quoting", () => {
  assert.equal(csvField(null), "");
  assert.equal(csvField(42), "42");
  assert.equal(csvField(-5), "-5");
  assert.equal(csvField(true), "true");
  assert.equal(csvField("plain"), '"plain"');
  assert.equal(csvField(""), '""');
  assert.equal(csvField("a,b"), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField("line1\nline2"), '"line1\nline2"');
  assert.equal(csvField("=1+1"), `"'=1+1"`);
  assert.equal(csvField("=SUM(A1,B1)"), `"'=SUM(A1,B1)"`);
  assert.equal(csvField("\rcmd"), `"'\rcmd"`);
  assert.throws(() => csvField(Number.NaN));
});

Deno.test("csvField() neutralises a formula start after every separator character, not only at the start", () => {
  // Opened with a semicolon list separator (Excel in most of continental Europe), "a;-2+3" is two
  // cells, the second a live formula.
  assert.equal(csvField("a;-2+3"), `"a;'-2+3"`);
  assert.equal(csvField("a,=1+1"), `"a,'=1+1"`);
  assert.equal(csvField("a\t+1"), `"a\t'+1"`);
  assert.equal(csvField("a|@SUM(A1)"), `"a|'@SUM(A1)"`);
  assert.equal(csvField("line\n=cmd"), `"line\n'=cmd"`);
  assert.equal(csvField("line\r\n-1"), `"line\r\n'-1"`);
  assert.equal(csvField("=1;=2;x"), `"'=1;'=2;x"`);
  assert.equal(csvField('a;=HYPERLINK("x")'), `"a;'=HYPERLINK(""x"")"`);
  assert.equal(csvField('a;"=1"'), `"a;""'=1"""`, "quotes after a separator are part of the break");
  assert.equal(csvField('"=1"'), `"""'=1"""`);
  for (const text of ["a; -2", "a;b-2", "a - b", "mail@bank;x", "1-2"]) {
    assert.equal(csvField(text), `"${text}"`, JSON.stringify(text));
  }
  // However a reader splits a record (comma, semicolon, tab, pipe, CR, LF; quotes honoured or not),
  // no piece of a text field starts a formula.
  const hostile = ["x;-2+3", "x,=1", "=a|+b", "q\t@c", "r\n-d\r=e", 'x;"=1"'];
  for (const text of hostile) {
    const pieces = csvField(text).slice(1, -1).replaceAll('""', '"').split(/[,;\t|\r\n]/);
    for (const piece of pieces) {
      assert.doesNotMatch(piece.replace(/^"/, ""), /^[=+\-@]/, JSON.stringify(text));
    }
  }
});

Deno.test("csvRecord() joins fields with commas and ends with CRLF; the header is written bare", () => {
  assert.equal(csvRecord(["a", 1, null, "b,c"]), '"a",1,,"b,c"\r\n');
  assert.equal(csvHeaderRecord(["id", "name", "createdAt"]), "id,name,createdAt\r\n");
  assert.throws(() => csvHeaderRecord(["id", "=x"]), /not a plain identifier/);
});

Deno.test("xmlText() and xmlAttribute() escape markup and replace characters XML 1.0 forbids", () => {
  assert.equal(xmlText("a < b & c > d"), "a &lt; b &amp; c &gt; d");
  assert.equal(xmlText("bell\u0007\u0000end"), "bell\uFFFD\uFFFDend");
  assert.equal(xmlText("lone \uD800 surrogate"), "lone \uFFFD surrogate");
  assert.equal(xmlText("emoji 😀 stays"), "emoji 😀 stays");
  assert.equal(xmlText("cr\r\nlf"), "cr&#13;\nlf");
  assert.equal(xmlAttribute(`"quoted" 'single' \t\n`), "&quot;quoted&quot; &apos;single&apos; &#9;&#10;");
});

Deno.test("isXmlName() accepts report column keys and refuses names XML does not allow", () => {
  for (const name of ["id", "registrationNumber", "prev_hash", "a1"]) assert.ok(isXmlName(name), name);
  for (const name of ["1a", "a b", "xmlThing", "", "a:b", "é"]) assert.equal(isXmlName(name), false, name);
});

Deno.test("pdfText() keeps Windows-1252 text, replaces the rest and truncates with an ellipsis", () => {
  assert.equal(pdfText("Zürich € — “ok”", 100), "Zürich € — “ok”");
  assert.equal(pdfText("Bank 中 ✓", 100), "Bank ? ?");
  assert.equal(pdfText("tab\tand\nnewline", 100), "tab and newline");
  assert.equal(pdfText("abcdef", 4), "abc…");
  assert.equal(pdfText("abcd", 4), "abcd");
  assert.equal(pdfText(null, 4), "");
  assert.equal(pdfText(true, 4), "yes");
  assert.equal(pdfText(12, 4), "12");
});
