/**
 * The two sides of an edition's merge (src/domain/directory_merge.ts), each read in file order in
 * bounded pieces: the registry's records in force at the effective date, a page at a time by key
 * (keyset pagination over the key indexes of db/migrations/1530_directory_publication_queue.sql),
 * and the previous edition's full file, streamed back from its stored gzip pieces and parsed a run of
 * whole rows at a time. Neither is ever held whole.
 */
import { completeRowsEnd, directoryCsvHeader, parseDirectoryCsv } from "../../../domain/directory_csv.ts";
import {
  type CandidateRecord,
  codeCandidate,
  institutionCandidate,
} from "../../../domain/directory_files.ts";
import type { DirectoryRecord } from "../../../domain/directory_layout.ts";
import type { Statements } from "../../db/statements.ts";
import { storedFileStream } from "./file_store.ts";

/**
 * Records read per query: the registry side's memory bound. A page's rows and records (about 2 KiB
 * each) must die in V8's young generation (4 MiB semi-spaces, SERVER_V8_FLAGS); a larger page
 * outlives it and is copied to the old generation whole (docs/bench.md).
 */
export const REGISTRY_PAGE_ROWS = 250;

type Kind = "institution" | "routing_code" | "swift_code";

/** Each kind's key (the file's sort key) as the key indexes of migration 1530 write it. */
const KEY_OF: Record<Kind, string> = {
  institution: "json_extract(v.data, '$.registrationNumber')",
  routing_code: "json_extract(v.data, '$.code')",
  swift_code: "json_extract(v.data, '$.bicCode')",
};

/** The fields each kind publishes (src/domain/directory_files.ts reads them). */
const FIELDS: Record<Kind, readonly string[]> = {
  institution: [
    "registrationNumber",
    "name",
    "type",
    "lei",
    "address",
    "phoneNumber",
    "emailAddress",
    "createdAt",
    "status",
    "terminatedAt",
    "deletionAnnouncedAt",
  ],
  routing_code: [
    "code",
    "branchCode",
    "createdAt",
    "successorCode",
    "status",
    "terminatedAt",
    "deletionAnnouncedAt",
  ],
  swift_code: [
    "bicCode",
    "branchCode",
    "validFrom",
    "successorBic",
    "status",
    "terminatedAt",
    "deletionAnnouncedAt",
  ],
};

/** In force at the instant bound twice: the versions' own range condition (registry_history/versions.ts inForceAt). */
const inForce = (alias: string) =>
  `${alias}.valid_from <= ? AND (${alias}.valid_to IS NULL OR ${alias}.valid_to > ?)`;

/**
 * One page of a kind's records in force at an instant, after the key and seq given, in key order.
 * The related institution (an institution's successor, a code's owner) is the one in force at the
 * same instant, its number and name read from the covering index of registry_institution_names
 * (db/migrations/1550_registry_institution_names.sql). The key index is named, and the page
 * starts with a plain range on the key (SQLite's plan is then a SEARCH, not a SCAN, of the key index;
 * docs/directory.md): a plan that sorted or scanned every record for each page would be quadratic. SQL text with the instant
 * bound, so that 400,000 records are never parsed as whole JSON.
 */
export const REGISTRY_PAGE_SQL = Object.fromEntries((Object.keys(KEY_OF) as Kind[]).map((kind) => {
  const related = kind === "institution" ? "$.successorId" : "$.institutionId";
  // One json_extract with every path parses the record once, not once per field.
  const paths = FIELDS[kind].map((field) => `'$.${field}'`).join(", ");
  return [
    kind,
    `SELECT v.seq AS "seq", ${KEY_OF[kind]} AS "sortKey", json_extract(v.data, ${paths}) AS "fields",
        r.entity_id AS "relatedId", r.registration_number AS "relatedNumber", r.name AS "relatedName"
      FROM registry_versions v INDEXED BY registry_versions_${kind}_key_idx
      LEFT JOIN registry_institution_names r INDEXED BY registry_institution_names_in_force_idx
        ON r.entity_id = json_extract(v.data, '${related}') AND ${inForce("r")}
      WHERE v.entity_type = '${kind}' AND ${inForce("v")}
        AND ${KEY_OF[kind]} >= ? AND (${KEY_OF[kind]} > ? OR v.seq > ?)
      ORDER BY ${KEY_OF[kind]}, v.seq
      LIMIT ?`,
  ];
})) as Record<Kind, string>;

interface PageRow extends Record<string, unknown> {
  seq: number;
  sortKey: string | null;
  /** The kind's FIELDS, in order, as a JSON array. */
  fields: string;
  /** The related institution's id, registration number and name; null when none. */
  relatedId: string | null;
  relatedNumber: string | null;
  relatedName: string | null;
}

function candidateOf(kind: Kind, row: PageRow, at: string): CandidateRecord {
  const values = JSON.parse(row.fields) as unknown[];
  const record: Record<string, unknown> = {};
  FIELDS[kind].forEach((field, index) => record[field] = values[index]);
  const related = row.relatedId === null
    ? undefined
    : { registrationNumber: row.relatedNumber, name: row.relatedName };
  if (kind === "institution") return institutionCandidate(record, related, at);
  return codeCandidate(kind === "routing_code" ? "RTC" : "BIC", record, related, at);
}

/** The registry's records in force at `at`, in file order (INST, RTC, BIC; each by key), a page at a time. */
export async function* registryCandidates(
  statements: Statements,
  at: string,
): AsyncGenerator<CandidateRecord[]> {
  for (const kind of ["institution", "routing_code", "swift_code"] as const) {
    // The empty string sorts before every key; NULL keys (none are valid) are never published.
    let after: [string, number] = ["", 0];
    for (;;) {
      const rows = await statements.all<PageRow>(REGISTRY_PAGE_SQL[kind], [
        at,
        at,
        at,
        at,
        after[0],
        after[0],
        after[1],
        REGISTRY_PAGE_ROWS,
      ]);
      if (rows.length > 0) yield rows.map((row) => candidateOf(kind, row, at));
      if (rows.length < REGISTRY_PAGE_ROWS) break;
      const last = rows[rows.length - 1];
      after = [last.sortKey ?? "", last.seq];
    }
  }
}

/** A published edition's full records, in file order, streamed back from its stored pieces a run at a time. */
export async function* publishedRecords(
  statements: Statements,
  editionNumber: number | null,
): AsyncGenerator<DirectoryRecord[]> {
  if (editionNumber === null) return;
  const header = directoryCsvHeader();
  const decoder = new TextDecoder();
  let text = "";
  let first = true;
  for await (const bytes of storedFileStream(statements, editionNumber, "full.csv")) {
    text += decoder.decode(bytes, { stream: true });
    const end = completeRowsEnd(text);
    if (end === 0) continue;
    // The first run starts with the file's own header; the others are given it to parse alone.
    yield parsed(first ? text.slice(0, end) : header + text.slice(0, end), editionNumber);
    first = false;
    text = text.slice(end);
  }
  text += decoder.decode();
  if (text !== "") yield parsed(header + text, editionNumber);
}

function parsed(text: string, editionNumber: number): DirectoryRecord[] {
  const result = parseDirectoryCsv(text);
  if (result.errors.length > 0) {
    throw new Error(`edition ${editionNumber}'s full.csv does not parse: ${result.errors[0].message}`);
  }
  return result.rows.map((row) => row.record);
}
