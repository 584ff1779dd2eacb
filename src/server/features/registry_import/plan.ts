/**
 * A directory file judged against the registry as in force now: parsed (domain/directory_csv.ts),
 * every line checked and classified (domain/registry_import.ts), and the dry-run report people read.
 * Shared by the dry run, the submission and the apply, which judges the stored file again.
 */
import { createHash } from "node:crypto";
import { institutions, routingCodes, swiftCodes } from "../../../../db/schema.ts";
import { type DirectoryLineError, parseDirectoryCsv } from "../../../domain/directory_csv.ts";
import {
  bicIdentity,
  type ExistingBic,
  type ExistingCode,
  type ExistingInstitution,
  type ImportEntity,
  type ImportPlan,
  type LineError,
  MAX_CHANGE_SAMPLES,
  MAX_IMPORT_ROWS,
  MAX_REPORTED_ERRORS,
  planImport,
  type PlannedRecord,
  type RegistrySnapshot,
  type TypeCounts,
} from "../../../domain/registry_import.ts";
import type { NodeRole } from "../../config.ts";
import type { Queryable } from "../../db/database.ts";
import { AppError } from "../../http/errors.ts";

/** The registry as in force at `at` (now), read in three statements. */
export async function loadSnapshot(db: Queryable, at: string): Promise<RegistrySnapshot> {
  // One statement after the other: inside a transaction on a remote primary they share one stream.
  const institutionRows = await db.select({
    id: institutions.id,
    registrationNumber: institutions.registrationNumber,
    name: institutions.name,
    type: institutions.type,
    lei: institutions.lei,
    address: institutions.address,
    phoneNumber: institutions.phoneNumber,
    emailAddress: institutions.emailAddress,
    status: institutions.status,
    terminatedAt: institutions.terminatedAt,
  }).from(institutions).all();
  const codeRows = await db.select({
    id: routingCodes.id,
    code: routingCodes.code,
    institutionId: routingCodes.institutionId,
    branchCode: routingCodes.branchCode,
    status: routingCodes.status,
    terminatedAt: routingCodes.terminatedAt,
  }).from(routingCodes).all();
  const bicRows = await db.select({
    id: swiftCodes.id,
    bicCode: swiftCodes.bicCode,
    institutionId: swiftCodes.institutionId,
    status: swiftCodes.status,
    terminatedAt: swiftCodes.terminatedAt,
  }).from(swiftCodes).all();
  return {
    at,
    institutions: new Map(
      institutionRows.map((row: ExistingInstitution) => [row.registrationNumber.toLowerCase(), row]),
    ),
    registrationNumbers: new Map(institutionRows.map((row) => [row.id, row.registrationNumber])),
    codes: new Map(codeRows.map((row: ExistingCode) => [row.code, row])),
    bics: new Map(bicRows.map((row: ExistingBic) => [bicIdentity(row.bicCode), row])),
  };
}

/** One field of a record that would change: its value now (null for an addition) and after. */
export interface FieldChange {
  field: string;
  before: string | null;
  after: string | null;
}

export interface ChangeSample {
  line: number;
  recordType: PlannedRecord["recordType"];
  key: string;
  action: "add" | "modify";
  fields: FieldChange[];
}

/** What a dry run answers, and what an import keeps as it was submitted. */
export interface ImportReport {
  sha256: string;
  byteSize: number;
  rows: number;
  /** True when the file has records and no line has an error: it may be submitted. */
  valid: boolean;
  counts: Record<ImportEntity, TypeCounts>;
  errorCount: number;
  /** The first MAX_REPORTED_ERRORS errors by line. */
  errors: LineError[];
  /** Records to add or modify. */
  changeCount: number;
  /** The first MAX_CHANGE_SAMPLES of them, modifications first. */
  changes: ChangeSample[];
  /** The SHA-256 of the whole plan: the apply refuses a registry that would be changed otherwise. */
  planDigest: string;
}

export interface JudgedFile {
  plan: ImportPlan;
  report: ImportReport;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A parser error keeps its column; one about the whole record names the record. */
const asLineError = (error: DirectoryLineError): LineError => ({ ...error, field: error.field ?? "record" });

function sampleOf(record: PlannedRecord): ChangeSample {
  return {
    line: record.line,
    recordType: record.recordType,
    key: record.key,
    action: record.action as "add" | "modify",
    fields: Object.entries(record.fields).map(([field, after]) => ({
      field,
      before: record.action === "add" ? null : record.before[field] ?? null,
      after,
    })),
  };
}

function changeSamples(records: readonly PlannedRecord[]): ChangeSample[] {
  const samples: ChangeSample[] = [];
  for (const action of ["modify", "add"] as const) {
    for (const record of records) {
      if (samples.length >= MAX_CHANGE_SAMPLES) return samples;
      if (record.action === action) samples.push(sampleOf(record));
    }
  }
  return samples;
}

/** A digest of every change the plan makes, so that an apply can tell it still makes exactly those. */
function planDigest(records: readonly PlannedRecord[]): string {
  const hash = createHash("sha256");
  for (const record of records) {
    if (record.action === "unchanged") continue;
    hash.update(
      JSON.stringify([record.line, record.action, record.existingId, record.fields, record.before]),
    );
    hash.update("\n");
  }
  return hash.digest("hex");
}

/**
 * The most records one import may add or modify on the replicated topology. Its final transaction
 * holds the primary's write lock (40,000 changes held it 5.4 s), and sqld rolls back a transaction
 * that has held the lock for 5 s once another connection asks for it (docs/directory_import.md):
 * 50,000 were rolled back on every attempt. 20,000 keeps the lock about half that bound. Unchanged
 * records cost nothing, so a full directory file with fewer changes than this applies.
 */
export const MAX_REPLICATED_IMPORT_CHANGES = 20_000;

/** The changes one import may make on a node of `role`: bounded on the replicated topology only. */
export function importChangeLimit(role: NodeRole): number {
  return role === "standalone" ? Number.POSITIVE_INFINITY : MAX_REPLICATED_IMPORT_CHANGES;
}

/** The file-level error of an import that would change more records than `maxChanges`. */
function tooManyChanges(changes: number, maxChanges: number): LineError {
  const count = (n: number) => n.toLocaleString("en-US");
  return {
    line: 1,
    field: "file",
    message: `The file would add or modify ${count(changes)} records; on the replicated topology an import ` +
      `changes at most ${count(maxChanges)}: split it into files of at most ${count(maxChanges)} changes`,
  };
}

/** A file as uploaded: its text, its SHA-256 (hex) and its size in bytes. */
export interface UploadedFile {
  text: string;
  sha256: string;
  byteSize: number;
}

/**
 * Parses and judges a file against the registry `db` holds at `at` (now, ISO); a file that would add
 * or modify more than `maxChanges` records is not valid (importChangeLimit).
 */
export async function judgeFile(
  db: Queryable,
  { text, sha256, byteSize }: UploadedFile,
  at: string,
  maxChanges = Number.POSITIVE_INFINITY,
): Promise<JudgedFile> {
  const parsed = parseDirectoryCsv(text);
  const rows = parsed.rows.length + parsed.errors.length;
  if (rows > MAX_IMPORT_ROWS) {
    throw new AppError(
      "payload_too_large",
      `The file holds ${rows} records; an import holds at most ${MAX_IMPORT_ROWS}`,
    );
  }
  const plan = planImport(parsed.rows, await loadSnapshot(db, at));
  const errors = [...parsed.errors.map(asLineError), ...plan.errors].sort((a, b) => a.line - b.line);
  if (rows === 0 && errors.length === 0) {
    errors.push({ line: 1, field: "file", message: "The file holds no records" });
  }
  const changing = plan.records.filter((record) => record.action !== "unchanged");
  if (changing.length > maxChanges) errors.unshift(tooManyChanges(changing.length, maxChanges));
  return {
    plan,
    report: {
      sha256,
      byteSize,
      rows,
      valid: errors.length === 0,
      counts: plan.counts,
      errorCount: errors.length,
      errors: errors.slice(0, MAX_REPORTED_ERRORS),
      changeCount: changing.length,
      changes: changeSamples(changing),
      planDigest: planDigest(changing),
    },
  };
}
