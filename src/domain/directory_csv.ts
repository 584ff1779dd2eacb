/**
 * The directory's CSV files (RFC 4180, docs/directory.md): a header row of DIRECTORY_COLUMNS, then one
 * row per record; lines end in CRLF; a field holding a comma, a double quote, CR or LF is quoted and its
 * quotes doubled. The writer serves the editions, the parser the bulk import and the tests. Pure.
 *
 * @module
 */

import {
  CHANGE_FLAGS,
  type ChangeFlag,
  DIRECTORY_COLUMNS,
  DIRECTORY_RECORD_TYPES,
  type DirectoryRecord,
  type DirectoryRecordType,
} from "./directory_layout.ts";

/** A record with the change flag it carries in one file. */
export interface FlaggedRecord {
  flag: ChangeFlag;
  record: DirectoryRecord;
}

const CRLF = "\r\n";

/** One CSV field: quoted only when it must be (RFC 4180 section 2, rules 6 and 7). */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

const NEEDS_QUOTES = /[",\r\n]/;

function csvLine(fields: readonly string[]): string {
  let line = "";
  for (let index = 0; index < fields.length; index++) {
    if (index > 0) line += ",";
    line += csvField(fields[index]);
  }
  return line + CRLF;
}

/** The whole CSV text of a file: header, then one row per record in the given order. */
export function writeDirectoryCsv(rows: readonly FlaggedRecord[]): string {
  return directoryCsvHeader() + directoryCsvRows(rows);
}

/** The header line (with its CRLF), for writers that produce a file in parts. */
export function directoryCsvHeader(): string {
  return csvLine(DIRECTORY_COLUMNS);
}

/** Record lines only (each with its CRLF). */
export function directoryCsvRows(rows: readonly FlaggedRecord[]): string {
  return rows.map((row) => csvLine(directoryRowFields(row))).join("");
}

const COMMA = 0x2c;
const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const encoder = new TextEncoder();

/**
 * The most UTF-8 bytes a record's CSV line can take: a UTF-16 unit is at most 3 bytes (a doubled
 * quote 2), each field may be quoted, and the separators and CRLF come on top.
 */
export function csvLineMaxBytes(row: FlaggedRecord): number {
  let bytes = DIRECTORY_COLUMNS.length + 2;
  for (const column of DIRECTORY_COLUMNS) {
    if (column !== "change_flag") bytes += row.record[column].length * 3 + 2;
  }
  return bytes + row.flag.length;
}

/**
 * Writes a record's CSV line (as directoryCsvRows gives it) as UTF-8 into `target` at `offset`, which
 * has csvLineMaxBytes(row) free; answers the offset after it. Printable ASCII that needs no quotes,
 * almost every field, is copied byte by byte: an edition's lines are never built as strings.
 */
export function writeCsvLine(row: FlaggedRecord, target: Uint8Array, offset: number): number {
  for (let index = 0; index < DIRECTORY_COLUMNS.length; index++) {
    if (index > 0) target[offset++] = COMMA;
    const column = DIRECTORY_COLUMNS[index];
    const value = column === "change_flag" ? row.flag : row.record[column];
    const plain = copyPrintableAscii(value, target, offset, QUOTE, COMMA);
    offset = plain >= 0
      ? plain
      : offset + encoder.encodeInto(csvField(value), target.subarray(offset)).written;
  }
  target[offset++] = CR;
  target[offset++] = LF;
  return offset;
}

/**
 * Copies a value of printable ASCII byte by byte (its UTF-8 is the same): the offset after it, or -1
 * when it holds any other character, or `stop` or `alsoStop` (a character a format treats apart).
 */
export function copyPrintableAscii(
  value: string,
  target: Uint8Array,
  offset: number,
  stop = -1,
  alsoStop = -1,
): number {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code > 0x7e || code === stop || code === alsoStop) return -1;
    target[offset + index] = code;
  }
  return offset + value.length;
}

/** A flagged record's fields in DIRECTORY_COLUMNS order. */
export function directoryRowFields(row: FlaggedRecord): string[] {
  return DIRECTORY_COLUMNS.map((column) => column === "change_flag" ? row.flag : row.record[column]);
}

/**
 * Where the last whole row of `text` ends (just past its line end), for readers that get a file in
 * pieces: a line end counts only outside quotes, which an even number of quotes before it tells
 * (a doubled quote inside a field adds two). 0 when no row is whole yet.
 */
export function completeRowsEnd(text: string): number {
  let end = 0;
  let quotes = 0;
  let quote = text.indexOf('"');
  for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", newline + 1)) {
    while (quote !== -1 && quote < newline) {
      quotes++;
      quote = text.indexOf('"', quote + 1);
    }
    if (quotes % 2 === 0) end = newline + 1;
  }
  return end;
}

/** One parsed CSV row and the file line it starts on (1 = the header). */
export interface CsvRow {
  line: number;
  fields: string[];
}

export interface CsvSyntaxError {
  line: number;
  message: string;
}

/**
 * Splits RFC 4180 text into rows. Accepts CRLF or bare LF line ends (files edited on Unix) and a
 * final line with or without its line end; a UTF-8 byte-order mark is ignored. A quote inside an
 * unquoted field, text after a closing quote, or an unterminated quoted field is an error on the
 * row's line, and the parser goes on with the next line.
 */
export function parseCsvRows(text: string): { rows: CsvRow[]; errors: CsvSyntaxError[] } {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (!HAS_QUOTE_OR_BARE_CR.test(source)) return { rows: plainRows(source), errors: [] };
  const rows: CsvRow[] = [];
  const errors: CsvSyntaxError[] = [];
  let position = 0;
  let line = 1;
  while (position < source.length) {
    const parsed = parseRow(source, position);
    if ("message" in parsed) errors.push({ line, message: parsed.message });
    else rows.push({ line, fields: parsed.fields });
    line += parsed.linesConsumed;
    position = parsed.end;
  }
  return { rows, errors };
}

const HAS_QUOTE_OR_BARE_CR = /"|\r(?!\n)/;

/**
 * Text without quotes or bare carriage returns (most directory files): one row per line, fields
 * between commas, the same rows the general parser gives, several times faster.
 */
function plainRows(source: string): CsvRow[] {
  const lines = source.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line, index) => ({ line: index + 1, fields: line.split(",") }));
}

type RowResult =
  | { fields: string[]; end: number; linesConsumed: number }
  | { message: string; end: number; linesConsumed: number };

/** Parses one row from `start`; `end` is just past its line end. */
function parseRow(source: string, start: number): RowResult {
  const fields: string[] = [];
  let position = start;
  let lines = 1;
  for (;;) {
    const field = source[position] === '"' ? quotedField(source, position) : plainField(source, position);
    lines += field.newlines;
    if ("message" in field) return { message: field.message, ...skipLine(source, field.end, lines) };
    fields.push(field.value);
    position = field.end;
    if (position >= source.length) return { fields, end: position, linesConsumed: lines };
    if (source[position] === ",") {
      position++;
      continue;
    }
    const lineEnd = source.startsWith(CRLF, position) ? 2 : source[position] === "\n" ? 1 : 0;
    if (lineEnd === 0) return { message: "text after a closing quote", ...skipLine(source, position, lines) };
    return { fields, end: position + lineEnd, linesConsumed: lines };
  }
}

type FieldResult =
  | { value: string; end: number; newlines: number }
  | { message: string; end: number; newlines: number };

function plainField(source: string, start: number): FieldResult {
  let end = start;
  while (end < source.length && source[end] !== "," && source[end] !== "\n" && source[end] !== "\r") {
    if (source[end] === '"') return { message: "a double quote inside an unquoted field", end, newlines: 0 };
    end++;
  }
  if (source[end] === "\r" && source[end + 1] !== "\n") {
    return { message: "a bare carriage return outside quotes", end, newlines: 0 };
  }
  return { value: source.slice(start, end), end, newlines: 0 };
}

function quotedField(source: string, start: number): FieldResult {
  let value = "";
  let position = start + 1;
  let newlines = 0;
  for (;;) {
    const quote = source.indexOf('"', position);
    if (quote === -1) return { message: "a quoted field is not closed", end: source.length, newlines };
    const chunk = source.slice(position, quote);
    newlines += countNewlines(chunk);
    value += chunk;
    if (source[quote + 1] !== '"') return { value, end: quote + 1, newlines };
    value += '"';
    position = quote + 2;
  }
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count++;
  return count;
}

/** After an error: resume at the next line end (outside any quotes we can no longer trust). */
function skipLine(source: string, from: number, lines: number): { end: number; linesConsumed: number } {
  const next = source.indexOf("\n", from);
  return next === -1 ? { end: source.length, linesConsumed: lines } : { end: next + 1, linesConsumed: lines };
}

/** A problem with one line of a directory file: the column it concerns (when one) and why. */
export interface DirectoryLineError {
  line: number;
  field: string | null;
  message: string;
}

/** One record read from a directory file, with its line and the change flag it carried. */
export interface ParsedDirectoryRow extends FlaggedRecord {
  line: number;
}

export interface ParsedDirectoryCsv {
  rows: ParsedDirectoryRow[];
  errors: DirectoryLineError[];
}

/**
 * Reads a directory CSV in the console's layout. The header must be DIRECTORY_COLUMNS exactly (else
 * one error on line 1 and no rows). Each row must have every column, a known record type and a change
 * flag among A, M, D, U (an empty flag reads as U, for hand-made import files). Errors are per line;
 * the valid rows are returned beside them. Field contents are checked by whoever applies the rows.
 */
export function parseDirectoryCsv(text: string): ParsedDirectoryCsv {
  const { rows, errors: syntax } = parseCsvRows(text);
  const errors: DirectoryLineError[] = syntax.map((error) => ({ ...error, field: null }));
  const [header, ...body] = rows;
  if (!header || header.line !== 1) {
    return { rows: [], errors: [{ line: 1, field: null, message: headerMessage() }, ...errors] };
  }
  if (header.fields.join(",") !== DIRECTORY_COLUMNS.join(",")) {
    return { rows: [], errors: [{ line: 1, field: null, message: headerMessage() }] };
  }
  const parsed: ParsedDirectoryRow[] = [];
  for (const row of body) {
    const result = directoryRowOf(row);
    if ("message" in result) errors.push(result);
    else parsed.push(result);
  }
  errors.sort((a, b) => a.line - b.line);
  return { rows: parsed, errors };
}

function headerMessage(): string {
  return `the first line must be the header ${DIRECTORY_COLUMNS.join(",")}`;
}

function directoryRowOf(row: CsvRow): ParsedDirectoryRow | DirectoryLineError {
  if (row.fields.length !== DIRECTORY_COLUMNS.length) {
    return {
      line: row.line,
      field: null,
      message: `expected ${DIRECTORY_COLUMNS.length} fields, found ${row.fields.length}`,
    };
  }
  const values = Object.fromEntries(DIRECTORY_COLUMNS.map((column, index) => [column, row.fields[index]]));
  const flag = values.change_flag === "" ? "U" : values.change_flag;
  if (!(CHANGE_FLAGS as readonly string[]).includes(flag)) {
    return { line: row.line, field: "change_flag", message: `must be one of ${CHANGE_FLAGS.join(", ")}` };
  }
  if (!(DIRECTORY_RECORD_TYPES as readonly string[]).includes(values.record_type)) {
    return {
      line: row.line,
      field: "record_type",
      message: `must be one of ${DIRECTORY_RECORD_TYPES.join(", ")}`,
    };
  }
  if (values.key === "") return { line: row.line, field: "key", message: "must not be empty" };
  const { change_flag: _flag, ...record } = values;
  return {
    line: row.line,
    flag: flag as ChangeFlag,
    record: { ...record, record_type: values.record_type as DirectoryRecordType } as DirectoryRecord,
  };
}
