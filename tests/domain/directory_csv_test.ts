import assert from "node:assert/strict";
import fc from "fast-check";
import {
  completeRowsEnd,
  csvLineMaxBytes,
  directoryCsvRows,
  type FlaggedRecord,
  parseDirectoryCsv,
  writeCsvLine,
  writeDirectoryCsv,
} from "../../src/domain/directory_csv.ts";
import {
  CHANGE_FLAGS,
  DIRECTORY_COLUMNS,
  DIRECTORY_RECORD_TYPES,
  type DirectoryRecord,
} from "../../src/domain/directory_layout.ts";

const HEADER = DIRECTORY_COLUMNS.join(",") + "\r\n";

/** Text with the characters that need quoting: commas, quotes, CR, LF. */
const awkwardText = fc.string({
  unit: fc.constantFrom("a", "Z", "1", " ", ",", '"', "\r", "\n", "é", "-", "\t", "\u0001", "🏦", "~"),
  maxLength: 12,
});

const flaggedRecord: fc.Arbitrary<FlaggedRecord> = fc.record({
  flag: fc.constantFrom(...CHANGE_FLAGS),
  record: fc.record({
    record_type: fc.constantFrom(...DIRECTORY_RECORD_TYPES),
    key: awkwardText.filter((text) => text !== ""),
    institution_key: awkwardText,
    name: awkwardText,
    institution_type: awkwardText,
    lei: awkwardText,
    address: awkwardText,
    phone_number: awkwardText,
    email_address: awkwardText,
    branch_code: awkwardText,
    status: awkwardText,
    valid_from: awkwardText,
    successor_key: awkwardText,
    deletion_announced: fc.constantFrom("Y", "N"),
  }) as fc.Arbitrary<DirectoryRecord>,
});

Deno.test("a CSV line written as bytes is the UTF-8 of the text line, within its bound", () => {
  fc.assert(
    fc.property(flaggedRecord, fc.nat(7), (row, offset) => {
      const target = new Uint8Array(offset + csvLineMaxBytes(row));
      const end = writeCsvLine(row, target, offset);
      assert.deepEqual(target.subarray(offset, end), new TextEncoder().encode(directoryCsvRows([row])));
    }),
  );
});

Deno.test("writing then parsing a directory CSV gives back the same records and flags", () => {
  fc.assert(fc.property(fc.array(flaggedRecord, { maxLength: 20 }), (rows) => {
    const parsed = parseDirectoryCsv(writeDirectoryCsv(rows));
    assert.deepEqual(parsed.errors, []);
    assert.deepEqual(
      parsed.rows.map(({ flag, record }) => ({ flag, record: { ...record } })),
      rows.map(({ flag, record }) => ({ flag, record: { ...record } })),
    );
  }));
});

Deno.test("the writer follows RFC 4180: CRLF line ends, quoted fields only when needed", () => {
  const record = Object.fromEntries(
    DIRECTORY_COLUMNS.slice(1).map((column) => [column, ""]),
  ) as DirectoryRecord;
  const text = writeDirectoryCsv([
    {
      flag: "A",
      record: {
        ...record,
        record_type: "INST",
        key: "B-1",
        name: 'Bank "North", Ltd',
        address: "1 Road\nTown",
      },
    },
  ]);
  assert.equal(text, HEADER + 'A,INST,B-1,,"Bank ""North"", Ltd",,,"1 Road\nTown",,,,,,,\r\n');
});

Deno.test("parse errors are reported per line and the other rows are kept", () => {
  const good = "U,RTC,100200300,B-1,,,,,,,,active,2026-01-01,,N";
  const text = HEADER + good + "\r\n" + "X,RTC,1,,,,,,,,,,,,N\r\n" + 'A,INST,"multi\nline",,,,,,,,,,,,N\r\n' +
    "A,BIC,only,three\r\n" + 'A,INST,bad"quote,,,,,,,,,,,,N\r\n' + "U,FOO,K,,,,,,,,,,,,N\n" +
    good.replace("U,", ",");
  const parsed = parseDirectoryCsv(text);
  assert.deepEqual(parsed.errors, [
    { line: 3, field: "change_flag", message: "must be one of A, M, D, U" },
    { line: 6, field: null, message: "expected 15 fields, found 4" },
    { line: 7, field: null, message: "a double quote inside an unquoted field" },
    { line: 8, field: "record_type", message: "must be one of INST, RTC, BIC" },
  ]);
  assert.deepEqual(parsed.rows.map((row) => [row.line, row.flag, row.record.key]), [
    [2, "U", "100200300"],
    [4, "A", "multi\nline"],
    [9, "U", "100200300"],
  ]);
});

Deno.test("a file without the exact header is refused on line 1", () => {
  const parsed = parseDirectoryCsv("key,name\r\nA,B\r\n");
  assert.equal(parsed.rows.length, 0);
  assert.deepEqual(parsed.errors.map((error) => error.line), [1]);
  assert.deepEqual(parseDirectoryCsv('"unterminated\r\n').errors[0].line, 1);
});

Deno.test("completeRowsEnd cuts CSV text just after its last whole row, never inside quotes", () => {
  fc.assert(fc.property(fc.array(flaggedRecord, { maxLength: 6 }), fc.nat(), (rows, cutAt) => {
    const text = directoryCsvRows(rows);
    const prefix = text.slice(0, cutAt % (text.length + 1));
    const boundaries = [0];
    for (const row of rows) boundaries.push(boundaries.at(-1)! + directoryCsvRows([row]).length);
    // The cut is the last row boundary of the whole text that the prefix reaches.
    assert.equal(completeRowsEnd(prefix), boundaries.filter((boundary) => boundary <= prefix.length).at(-1));
  }));
});

Deno.test("text without quotes takes the plain path and parses as the general parser would", () => {
  const text = HEADER + "A,INST,B-1,,North,,,,,,,,,,N\r\n" + "U,RTC,100,B-1,North,,,,,,01,,,,N\n";
  const parsed = parseDirectoryCsv(text);
  assert.deepEqual(parsed.errors, []);
  assert.deepEqual(parsed.rows.map((row) => [row.line, row.flag, row.record.key]), [[2, "A", "B-1"], [
    3,
    "U",
    "100",
  ]]);
  const broken = parseDirectoryCsv(HEADER + "A,INST\r\n");
  assert.deepEqual(broken.errors.map((error) => error.line), [2]);
});
