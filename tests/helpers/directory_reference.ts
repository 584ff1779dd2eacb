/**
 * The directory edition's whole-list reference model: the registry's records at a date from whole
 * snapshots, and an edition built from the previous full file in memory. The server never holds an
 * edition whole (src/domain/directory_merge.ts merges streams); the tests check, for random histories,
 * that the streaming merge gives exactly what this gives, and that each published delta is the
 * difference of two full files.
 */
import type { FlaggedRecord } from "../../src/domain/directory_csv.ts";
import {
  type CandidateRecord,
  codeCandidate,
  compareRecords,
  fixedWidthLine,
  flagAgainst,
  institutionCandidate,
  type RegistryRecord,
} from "../../src/domain/directory_files.ts";
import { type DirectoryRecord, recordIdentity } from "../../src/domain/directory_layout.ts";

/** The registry in force at an edition's effective date, as whole records of each kind. */
export interface RegistrySnapshot {
  institutions: readonly RegistryRecord[];
  routingCodes: readonly RegistryRecord[];
  swiftCodes: readonly RegistryRecord[];
}

/**
 * The directory records of a registry snapshot at `at`, sorted by type then key. Codes carry their
 * owner's registration number and name; a terminated subject carries its successor's key.
 */
export function candidateRecords(snapshot: RegistrySnapshot, at: string): CandidateRecord[] {
  const byId = new Map(snapshot.institutions.map((row) => [String(row.id), row]));
  const ownerOf = (row: RegistryRecord) => byId.get(String(row.institutionId ?? ""));
  const candidates: CandidateRecord[] = [
    ...snapshot.institutions.map((row) =>
      institutionCandidate(row, byId.get(String(row.successorId ?? "")), at)
    ),
    ...snapshot.routingCodes.map((row) => codeCandidate("RTC", row, ownerOf(row), at)),
    ...snapshot.swiftCodes.map((row) => codeCandidate("BIC", row, ownerOf(row), at)),
  ];
  return candidates.sort((a, b) => compareRecords(a.record, b.record));
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
  const full: FlaggedRecord[] = [];
  const deleted: FlaggedRecord[] = [];
  for (const { record, terminated } of candidates) {
    const identity = recordIdentity(record);
    const earlier = before.get(identity);
    // What is left in `before` afterwards is gone from the registry.
    before.delete(identity);
    if (!terminated || (earlier && earlier.deletion_announced !== "Y")) {
      full.push({ record, flag: flagAgainst(earlier, record) });
    } else if (earlier) deleted.push({ record: earlier, flag: "D" });
  }
  for (const earlier of before.values()) {
    if (earlier.deletion_announced === "Y") deleted.push({ record: earlier, flag: "D" });
    else full.push({ record: { ...earlier, deletion_announced: "Y" }, flag: "M" });
  }
  // Candidates come in file order (candidateRecords): the sorts only place what was appended.
  full.sort(byRecord);
  const delta = [...full.filter((row) => row.flag !== "U"), ...deleted].sort(byRecord);
  return { full, delta };
}

const byRecord = (a: FlaggedRecord, b: FlaggedRecord) => compareRecords(a.record, b.record);

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

/** The whole fixed-width file: no header (the layout is in docs/directory.md), one CRLF-ended line per record. */
export function writeFixedWidth(rows: readonly FlaggedRecord[]): string {
  return rows.map((row) => fixedWidthLine(row) + "\r\n").join("");
}
