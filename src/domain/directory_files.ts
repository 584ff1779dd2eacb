/**
 * What a directory edition publishes (docs/directory.md): the records in force at its effective date,
 * flagged against the previous edition, the announced-deletion rule, and the fixed-width text layout.
 * Pure: the server reads the registry as of the date and writes the files; this decides their rows.
 *
 * @module
 */

import type { FlaggedRecord } from "./directory_csv.ts";
import {
  DIRECTORY_COLUMNS,
  DIRECTORY_RECORD_TYPES,
  type DirectoryColumn,
  type DirectoryRecord,
  recordIdentity,
} from "./directory_layout.ts";

/** A registry record as the versions keep it: Drizzle property names, whole row. */
export type RegistryRecord = Readonly<Record<string, unknown>>;

/** The registry in force at an edition's effective date, as whole records of each kind. */
export interface RegistrySnapshot {
  institutions: readonly RegistryRecord[];
  routingCodes: readonly RegistryRecord[];
  swiftCodes: readonly RegistryRecord[];
}

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

/**
 * The directory records of a registry snapshot at `at`, sorted by type then key. Codes carry their
 * owner's registration number and name; a terminated subject carries its successor's key.
 */
export function candidateRecords(snapshot: RegistrySnapshot, at: string): CandidateRecord[] {
  const byId = new Map(snapshot.institutions.map((row) => [text(row.id), row]));
  const ownerOf = (row: RegistryRecord) => byId.get(text(row.institutionId)) ?? {};
  const candidates: CandidateRecord[] = [];
  for (const row of snapshot.institutions) {
    const successor = byId.get(text(row.successorId));
    candidates.push(candidate(row, at, {
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
    }));
  }
  for (const row of snapshot.routingCodes) {
    candidates.push(candidate(row, at, {
      ...codeFields(ownerOf(row)),
      record_type: "RTC",
      key: text(row.code),
      branch_code: text(row.branchCode),
      valid_from: dateOf(row.createdAt),
      successor_key: text(row.successorCode),
    }));
  }
  for (const row of snapshot.swiftCodes) {
    candidates.push(candidate(row, at, {
      ...codeFields(ownerOf(row)),
      record_type: "BIC",
      key: text(row.bicCode),
      branch_code: text(row.branchCode),
      valid_from: dateOf(row.validFrom),
      successor_key: text(row.successorBic),
    }));
  }
  return candidates.sort((a, b) => compareRecords(a.record, b.record));
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

/** The full and delta files of one edition. */
export interface EditionFiles {
  /** Every record published in this edition, flagged A, M or U against the previous edition. */
  full: FlaggedRecord[];
  /** The changes since the previous edition: A, M, and D rows (carrying the previous edition's row). */
  delta: FlaggedRecord[];
}

/**
 * The next edition from the previous edition's full records (unflagged) and the candidates at the new
 * effective date. A record whose subject is terminated, or that is gone from the registry, is deleted
 * only if the previous edition already showed it with deletion_announced "Y"; otherwise it stays for
 * this edition flagged "Y", so every deletion is announced at least one edition ahead. A terminated
 * record never published before is not published at all.
 */
export function buildEdition(
  previous: readonly DirectoryRecord[],
  candidates: readonly CandidateRecord[],
): EditionFiles {
  const before = new Map(previous.map((record) => [recordIdentity(record), record]));
  const seen = new Set<string>();
  const published: DirectoryRecord[] = [];
  const deleted: DirectoryRecord[] = [];
  for (const { record, terminated } of candidates) {
    const identity = recordIdentity(record);
    seen.add(identity);
    const earlier = before.get(identity);
    if (!terminated) published.push(record);
    else if (!earlier) continue;
    else if (earlier.deletion_announced === "Y") deleted.push(earlier);
    else published.push(record);
  }
  for (const [identity, earlier] of before) {
    if (seen.has(identity)) continue;
    if (earlier.deletion_announced === "Y") deleted.push(earlier);
    else published.push({ ...earlier, deletion_announced: "Y" });
  }
  published.sort(compareRecords);
  const full = published.map((record) => ({
    record,
    flag: flagAgainst(before.get(recordIdentity(record)), record),
  }));
  const changes: FlaggedRecord[] = [
    ...full.filter((row) => row.flag !== "U"),
    ...deleted.map((record): FlaggedRecord => ({ record, flag: "D" })),
  ];
  return { full, delta: changes.sort((a, b) => compareRecords(a.record, b.record)) };
}

function flagAgainst(earlier: DirectoryRecord | undefined, record: DirectoryRecord): "A" | "M" | "U" {
  if (!earlier) return "A";
  return sameRecord(earlier, record) ? "U" : "M";
}

/** The delta between two full files, by comparison alone: what a downloader can check an edition against. */
export function deltaBetween(
  previous: readonly DirectoryRecord[],
  next: readonly DirectoryRecord[],
): FlaggedRecord[] {
  const before = new Map(previous.map((record) => [recordIdentity(record), record]));
  const after = new Set(next.map(recordIdentity));
  const rows: FlaggedRecord[] = [];
  for (const record of next) {
    const flag = flagAgainst(before.get(recordIdentity(record)), record);
    if (flag !== "U") rows.push({ record, flag });
  }
  for (const record of previous) if (!after.has(recordIdentity(record))) rows.push({ record, flag: "D" });
  return rows.sort((a, b) => compareRecords(a.record, b.record));
}

/** Records and flags counted per record type, for the manifest and the screen. */
export type EditionCounts = Record<string, Record<string, number>>;

export function countRows(rows: readonly FlaggedRecord[]): EditionCounts {
  const counts: EditionCounts = {};
  for (const type of DIRECTORY_RECORD_TYPES) counts[type] = { total: 0, A: 0, M: 0, D: 0, U: 0 };
  for (const row of rows) {
    const perType = counts[row.record.record_type];
    perType.total++;
    perType[row.flag]++;
  }
  return counts;
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
    const length = characters(oneLine(record[column]));
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

/** One record as a fixed-width line (without its CRLF); throws when a value does not fit. */
export function fixedWidthLine(row: FlaggedRecord): string {
  let line = "";
  for (const column of DIRECTORY_COLUMNS) {
    const value = oneLine(column === "change_flag" ? row.flag : row.record[column]);
    const length = characters(value);
    if (length > FIXED_WIDTHS[column]) throw new RangeError(overlongMessage(row.record) ?? column);
    line += value + " ".repeat(FIXED_WIDTHS[column] - length);
  }
  return line;
}

/** The whole fixed-width file: no header (the layout is in docs/directory.md), one CRLF-ended line per record. */
export function writeFixedWidth(rows: readonly FlaggedRecord[]): string {
  return rows.map((row) => fixedWidthLine(row) + "\r\n").join("");
}
