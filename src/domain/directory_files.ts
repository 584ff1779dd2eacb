/**
 * What a directory edition publishes (docs/directory.md): the records in force at its effective date,
 * flagged against the previous edition, the announced-deletion rule, and the fixed-width text layout.
 * Pure: the server reads the registry as of the date and writes the files; this decides their rows.
 *
 * @module
 */

import { copyPrintableAscii, type FlaggedRecord } from "./directory_csv.ts";
import {
  DIRECTORY_COLUMNS,
  DIRECTORY_RECORD_TYPES,
  type DirectoryColumn,
  type DirectoryRecord,
} from "./directory_layout.ts";

/** A registry record as the versions keep it: Drizzle property names, whole row. */
export type RegistryRecord = Readonly<Record<string, unknown>>;

/** A record the registry would publish, and whether its subject is terminated at the edition date. */
export interface CandidateRecord {
  record: DirectoryRecord;
  terminated: boolean;
}

function text(value: unknown): string {
  return value === null || value === undefined ? "" : String(value);
}

/** "2026-03-01" from an ISO instant; empty when none. */
function dateOf(value: unknown): string {
  return text(value).slice(0, 10);
}

function isTerminated(row: RegistryRecord, at: string): boolean {
  const terminatedAt = text(row.terminatedAt);
  return terminatedAt !== "" && terminatedAt <= at;
}

/** Announced when an operator announced it by the edition date, or when the subject is terminated. */
function announced(row: RegistryRecord, at: string): string {
  const announcedAt = text(row.deletionAnnouncedAt);
  return (announcedAt !== "" && announcedAt <= at) || isTerminated(row, at) ? "Y" : "N";
}

function statusOf(row: RegistryRecord, at: string): string {
  return isTerminated(row, at) ? "terminated" : text(row.status);
}

const EMPTY_RECORD = Object.fromEntries(
  DIRECTORY_COLUMNS.filter((column) => column !== "change_flag").map((column) => [column, ""]),
) as DirectoryRecord;

/** An institution's record; `successor` is its successor institution in force at `at`, when any. */
export function institutionCandidate(
  row: RegistryRecord,
  successor: RegistryRecord | undefined,
  at: string,
): CandidateRecord {
  return candidate(row, at, {
    record_type: "INST",
    key: text(row.registrationNumber),
    name: text(row.name),
    institution_type: text(row.type),
    lei: text(row.lei),
    address: text(row.address),
    phone_number: text(row.phoneNumber),
    email_address: text(row.emailAddress),
    valid_from: dateOf(row.createdAt),
    successor_key: successor ? text(successor.registrationNumber) : "",
  });
}

/** A routing code's (RTC) or BIC's record; `owner` is its institution in force at `at`, when any. */
export function codeCandidate(
  type: "RTC" | "BIC",
  row: RegistryRecord,
  owner: RegistryRecord | undefined,
  at: string,
): CandidateRecord {
  const rtc = type === "RTC";
  return candidate(row, at, {
    ...codeFields(owner ?? {}),
    record_type: type,
    key: text(rtc ? row.code : row.bicCode),
    branch_code: text(row.branchCode),
    valid_from: dateOf(rtc ? row.createdAt : row.validFrom),
    successor_key: text(rtc ? row.successorCode : row.successorBic),
  });
}

function codeFields(owner: RegistryRecord): Partial<DirectoryRecord> {
  return { institution_key: text(owner.registrationNumber), name: text(owner.name) };
}

function candidate(row: RegistryRecord, at: string, fields: Partial<DirectoryRecord>): CandidateRecord {
  return {
    record: { ...EMPTY_RECORD, ...fields, status: statusOf(row, at), deletion_announced: announced(row, at) },
    terminated: isTerminated(row, at),
  };
}

const TYPE_ORDER = new Map<string, number>(DIRECTORY_RECORD_TYPES.map((type, index) => [type, index]));

/** File order: INST, then RTC, then BIC; within a type by key (code-unit order, stable across runtimes). */
export function compareRecords(a: DirectoryRecord, b: DirectoryRecord): number {
  const byType = (TYPE_ORDER.get(a.record_type) ?? 9) - (TYPE_ORDER.get(b.record_type) ?? 9);
  if (byType !== 0) return byType;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

export function sameRecord(a: DirectoryRecord, b: DirectoryRecord): boolean {
  return DIRECTORY_COLUMNS.every((column) => column === "change_flag" || a[column] === b[column]);
}

/** A record's flag in a full file against its row in the previous edition. */
export function flagAgainst(earlier: DirectoryRecord | undefined, record: DirectoryRecord): "A" | "M" | "U" {
  if (!earlier) return "A";
  return sameRecord(earlier, record) ? "U" : "M";
}

/** Records and flags counted per record type, for the manifest and the screen. */
export type EditionCounts = Record<string, Record<string, number>>;

export function countRows(rows: readonly FlaggedRecord[]): EditionCounts {
  const counts = emptyCounts();
  for (const row of rows) countRow(counts, row);
  return counts;
}

/** Counts with every record type and flag at zero. */
export function emptyCounts(): EditionCounts {
  const counts: EditionCounts = {};
  for (const type of DIRECTORY_RECORD_TYPES) counts[type] = { total: 0, A: 0, M: 0, D: 0, U: 0 };
  return counts;
}

/** Adds one row to counts being kept as a file is written. */
export function countRow(counts: EditionCounts, row: FlaggedRecord): void {
  const perType = counts[row.record.record_type];
  perType.total++;
  perType[row.flag]++;
}

/**
 * Fixed-width layout: each column padded with spaces to its width, in characters (Unicode code
 * points; the file is UTF-8). The widths follow ISO 20022's usual bounds (Max35Text identifiers,
 * Max140Text names and addresses) rather than the registry's looser input limits, so that the file
 * stays a size banks can load; a longer value is refused when the edition is prepared (never cut),
 * and the preview names the records that do not fit.
 */
export const FIXED_WIDTHS: Readonly<Record<DirectoryColumn, number>> = {
  change_flag: 1,
  record_type: 4,
  key: 35,
  institution_key: 35,
  name: 140,
  institution_type: 12,
  lei: 20,
  address: 140,
  phone_number: 35,
  email_address: 100,
  branch_code: 10,
  status: 10,
  valid_from: 10,
  successor_key: 35,
  deletion_announced: 1,
};

/** Each line is this many characters, then CRLF. */
export const FIXED_LINE_LENGTH = DIRECTORY_COLUMNS.reduce((sum, column) => sum + FIXED_WIDTHS[column], 0);

/** Line breaks and tabs inside a value (multi-line addresses) become spaces: a line is one record. */
function oneLine(value: string): string {
  return value.replace(/[\r\n\t]/g, " ");
}

function characters(value: string): number {
  return /[\uD800-\uDFFF]/.test(value) ? [...value].length : value.length;
}

/** The first column of a record too long for the fixed-width layout, or null when it fits. */
export function overlongColumn(record: DirectoryRecord): { column: DirectoryColumn; length: number } | null {
  for (const column of DIRECTORY_COLUMNS) {
    if (column === "change_flag") continue;
    const value = record[column];
    // A value no longer in UTF-16 units than its width fits: code points are never more.
    if (value.length <= FIXED_WIDTHS[column]) continue;
    const length = characters(value);
    if (length > FIXED_WIDTHS[column]) return { column, length };
  }
  return null;
}

/** "BIC ABCDEFGH: name is 150 characters, the fixed-width layout holds 140". */
export function overlongMessage(record: DirectoryRecord): string | null {
  const overlong = overlongColumn(record);
  if (!overlong) return null;
  return `${record.record_type} ${record.key}: ${overlong.column} is ${overlong.length} characters, ` +
    `the fixed-width layout holds ${FIXED_WIDTHS[overlong.column]}`;
}

/** Characters that make a value take the slow path: line breaks and tabs, and surrogate pairs. */
const NOT_PLAIN = /[\r\n\t\uD800-\uDFFF]/;

/** One record as a fixed-width line (without its CRLF); throws when a value does not fit. */
export function fixedWidthLine(row: FlaggedRecord): string {
  // The flag is one character, the change_flag column's width.
  let line = row.flag;
  for (const column of FIXED_COLUMNS) {
    let value = row.record[column];
    let length = value.length;
    if (NOT_PLAIN.test(value)) {
      value = oneLine(value);
      length = [...value].length;
    }
    if (length > FIXED_WIDTHS[column]) throw new RangeError(overlongMessage(row.record) ?? column);
    line += value + SPACES.slice(0, FIXED_WIDTHS[column] - length);
  }
  return line;
}

/**
 * The most UTF-8 bytes a fixed-width line takes with its CRLF: a character is at most 4 bytes (a
 * surrogate pair, one character).
 */
export const MAX_FIXED_LINE_BYTES = FIXED_LINE_LENGTH * 4 + 2;

const SPACE = 0x20;
const encoder = new TextEncoder();

/**
 * Writes a record's fixed-width line and its CRLF (fixedWidthLine's line) as UTF-8 into `target` at
 * `offset`, which has MAX_FIXED_LINE_BYTES free; answers the offset after it, and throws when a value
 * does not fit. Plain values are copied byte by byte and the padding filled: an edition's hundreds of
 * MiB of padded lines are never built as strings.
 */
export function writeFixedWidthLine(row: FlaggedRecord, target: Uint8Array, offset: number): number {
  target[offset++] = row.flag.charCodeAt(0);
  for (const column of FIXED_COLUMNS) {
    const value = row.record[column];
    const width = FIXED_WIDTHS[column];
    let end = value.length <= width ? copyPrintableAscii(value, target, offset) : -1;
    let length = value.length;
    if (end < 0) {
      const line = NOT_PLAIN.test(value) ? oneLine(value) : value;
      length = characters(line);
      if (length > width) throw new RangeError(overlongMessage(row.record) ?? column);
      end = offset + encoder.encodeInto(line, target.subarray(offset)).written;
    }
    offset = end + width - length;
    target.fill(SPACE, end, offset);
  }
  target[offset++] = 0x0d;
  target[offset++] = 0x0a;
  return offset;
}

const FIXED_COLUMNS = DIRECTORY_COLUMNS.filter((column) => column !== "change_flag");
const SPACES = " ".repeat(Math.max(...Object.values(FIXED_WIDTHS)));
