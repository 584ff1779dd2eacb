/**
 * Bulk import of the registry from a directory file in the console's own CSV layout
 * (directory_layout.ts, docs/directory_import.md): each line is checked on its own, then against
 * the rest of the file and the registry as in force now, and classified as an addition, a
 * modification or unchanged. Pure: the registry comes in as a snapshot of plain maps.
 *
 * @module
 */
import { validateBic } from "./bic.ts";
import { validateLei } from "./lei.ts";
import type { ParsedDirectoryRow } from "./directory_csv.ts";
import type { DirectoryRecordType } from "./directory_layout.ts";
import {
  checkStatusTransition,
  INSTITUTION_STATUSES,
  INSTITUTION_TYPES,
  MAX_ADDRESS_LENGTH,
  MAX_EMAIL_ADDRESS_LENGTH,
  MAX_INSTITUTION_NAME_LENGTH,
  MAX_PHONE_NUMBER_LENGTH,
  MAX_REGISTRATION_NUMBER_LENGTH,
} from "./institution.ts";
import { validateRoutingCode } from "./routing_code.ts";

/** The largest file the import reads: a full directory of a large system is a few tens of MiB. */
export const MAX_IMPORT_FILE_BYTES = 64 * 1024 * 1024;
/** The most records (lines after the header) one import holds. */
export const MAX_IMPORT_ROWS = 500_000;
/** A report lists this many line errors; the total is always given. */
export const MAX_REPORTED_ERRORS = 500;
/** A report shows this many of the records that would change. */
export const MAX_CHANGE_SAMPLES = 100;

/** The statuses a routing code or BIC may be imported with; empty means active. */
export const IMPORT_CODE_STATUSES = ["active", "inactive", "suspended"] as const;
/** A plain address check (one @, a dot in the domain, no spaces), as strict as the file format needs. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LEI_PATTERN = /^[A-Z0-9]{18}[0-9]{2}$/;

/**
 * One record of the file as the directory CSV parser reads it: its line (the header is line 1), its
 * change flag (A, M or U are accepted and ignored: the import decides by comparing with the
 * registry; D is refused) and its columns.
 */
export type ImportLine = ParsedDirectoryRow;
type ImportColumn = keyof ImportLine["record"];

/** The parser passes only lines of a known record type. */
const typeOf = (record: ImportLine["record"]) => record.record_type as DirectoryRecordType;

export interface LineError {
  line: number;
  /** The column at fault, by its name in the file ("institution_type"), or "file" for the file itself. */
  field: string;
  message: string;
}

export interface ExistingInstitution {
  id: string;
  registrationNumber: string;
  name: string;
  type: string;
  lei: string | null;
  address: string;
  phoneNumber: string;
  emailAddress: string;
  status: string;
  terminatedAt: string | null;
}

export interface ExistingCode {
  id: string;
  code: string;
  institutionId: string;
  branchCode: string | null;
  status: string;
  terminatedAt: string | null;
}

export interface ExistingBic {
  id: string;
  bicCode: string;
  institutionId: string;
  status: string;
  terminatedAt: string | null;
}

/** The registry as in force now, keyed as the import looks records up. */
export interface RegistrySnapshot {
  /** The instant it is as of (ISO): a record terminated by then is not imported over. */
  at: string;
  /** By registration number in lower case (registration numbers are unique case-insensitively). */
  institutions: ReadonlyMap<string, ExistingInstitution>;
  /** Registration number by institution id. */
  registrationNumbers: ReadonlyMap<string, string>;
  codes: ReadonlyMap<string, ExistingCode>;
  /** By the BIC's primary-office form (bicIdentity). */
  bics: ReadonlyMap<string, ExistingBic>;
}

export type ImportAction = "add" | "modify" | "unchanged";
export type ImportEntity = "institutions" | "routingCodes" | "bics";
export const IMPORT_ENTITY_OF: Readonly<Record<DirectoryRecordType, ImportEntity>> = {
  INST: "institutions",
  RTC: "routingCodes",
  BIC: "bics",
};

/** The fields an imported record sets, by Drizzle property name; codes name their institution by key. */
export type ImportedFields = Record<string, string | null>;

export interface PlannedRecord {
  line: number;
  recordType: DirectoryRecordType;
  key: string;
  action: ImportAction;
  /** The whole record as imported (add), or the fields that change (modify). */
  fields: ImportedFields;
  /** Modify: the changed fields' values in the registry now. */
  before: ImportedFields;
  /** Modify and unchanged: the record's id. */
  existingId: string | null;
}

export interface TypeCounts {
  valid: number;
  invalid: number;
  add: number;
  modify: number;
  unchanged: number;
}

export interface ImportPlan {
  counts: Record<ImportEntity, TypeCounts>;
  errors: LineError[];
  records: PlannedRecord[];
}

/** A BIC and its primary-office twin (ABCDGB2L, ABCDGB2LXXX) are one record. */
export function bicIdentity(bic: string): string {
  return bic.length === 11 && bic.endsWith("XXX") ? bic.slice(0, 8) : bic;
}

/** ISO 17442 in its canonical form: a file carries the LEI as published, upper case without spaces. */
export function isValidLei(lei: string): boolean {
  return LEI_PATTERN.test(lei) && validateLei(lei).ok;
}

const oneOf = (values: readonly string[]) => values.join(", ");

function requiredText(
  record: ImportLine["record"],
  column: ImportColumn,
  maxLength: number,
  errors: string[][],
): void {
  const value = record[column];
  if (value.trim() === "") errors.push([column, "Required"]);
  else if (value.length > maxLength) errors.push([column, `At most ${maxLength} characters`]);
}

function institutionErrors(record: ImportLine["record"]): string[][] {
  const errors: string[][] = [];
  if (record.key.length > MAX_REGISTRATION_NUMBER_LENGTH) {
    errors.push(["key", `At most ${MAX_REGISTRATION_NUMBER_LENGTH} characters`]);
  }
  requiredText(record, "name", MAX_INSTITUTION_NAME_LENGTH, errors);
  if (!(INSTITUTION_TYPES as readonly string[]).includes(record.institution_type)) {
    errors.push(["institution_type", `Must be one of ${oneOf(INSTITUTION_TYPES)}`]);
  }
  requiredText(record, "address", MAX_ADDRESS_LENGTH, errors);
  requiredText(record, "phone_number", MAX_PHONE_NUMBER_LENGTH, errors);
  requiredText(record, "email_address", MAX_EMAIL_ADDRESS_LENGTH, errors);
  if (record.email_address.trim() !== "" && !EMAIL_PATTERN.test(record.email_address)) {
    errors.push(["email_address", "Not an e-mail address"]);
  }
  if (record.lei !== "" && !isValidLei(record.lei)) {
    errors.push(["lei", "Not a valid LEI: 20 characters A-Z and 0-9 with ISO 7064 MOD 97-10 check digits"]);
  }
  if (!(INSTITUTION_STATUSES as readonly string[]).includes(record.status)) {
    errors.push(["status", `Must be one of ${oneOf(INSTITUTION_STATUSES)}`]);
  }
  return errors;
}

function codeErrors(record: ImportLine["record"], recordType: "RTC" | "BIC"): string[][] {
  const errors: string[][] = [];
  const checked = recordType === "RTC" ? validateRoutingCode(record.key) : validateBic(record.key);
  if (!checked.ok) errors.push(["key", checked.error.message]);
  if (record.institution_key.trim() === "") errors.push(["institution_key", "Required"]);
  if (record.status !== "" && !(IMPORT_CODE_STATUSES as readonly string[]).includes(record.status)) {
    errors.push(["status", `Must be one of ${oneOf(IMPORT_CODE_STATUSES)}, or empty for active`]);
  }
  return errors;
}

/** Termination is a dated lifecycle change of its own (with successors), never loaded in bulk. */
const TERMINATED_REFUSED =
  "Terminated records are not imported: terminate the record on its page, from a date";

/** The checks one line passes or fails on its own, before the file and the registry are looked at. */
export function lineErrors({ line, flag, record }: ImportLine): LineError[] {
  const errors: string[][] = [];
  if (flag === "D") {
    errors.push(["change_flag", "An import never deletes: remove the line (D records are not imported)"]);
  }
  if (record.status === "terminated") errors.push(["status", TERMINATED_REFUSED]);
  else {errors.push(
      ...(record.record_type === "INST"
        ? institutionErrors(record)
        : codeErrors(record, typeOf(record) as "RTC" | "BIC")),
    );}
  return errors.map(([field, message]) => ({ line, field, message }));
}

/** A record's identity within the file: registration numbers without case, BICs by primary office. */
function identityOf(recordType: DirectoryRecordType, key: string): string {
  if (recordType === "INST") return `INST|${key.toLowerCase()}`;
  return recordType === "BIC" ? `BIC|${bicIdentity(key)}` : `RTC|${key}`;
}

const orNull = (value: string): string | null => value === "" ? null : value;

/** The fields a valid line sets, by Drizzle property name; a code's institution by its registration number. */
export function importedFields({ record }: ImportLine): ImportedFields {
  if (record.record_type === "INST") {
    return {
      registrationNumber: record.key,
      name: record.name,
      type: record.institution_type,
      lei: orNull(record.lei),
      address: record.address,
      phoneNumber: record.phone_number,
      emailAddress: record.email_address,
      status: record.status,
    };
  }
  // A code's name column repeats its institution's name (editions write it so): not imported.
  const status = record.status === "" ? "active" : record.status;
  if (record.record_type === "BIC") {
    return { bicCode: record.key, institutionKey: record.institution_key, status };
  }
  return {
    code: record.key,
    institutionKey: record.institution_key,
    branchCode: orNull(record.branch_code),
    status,
  };
}

function existingRecord(
  recordType: DirectoryRecordType,
  key: string,
  registry: RegistrySnapshot,
): ExistingInstitution | ExistingCode | ExistingBic | undefined {
  if (recordType === "INST") return registry.institutions.get(key.toLowerCase());
  return recordType === "RTC" ? registry.codes.get(key) : registry.bics.get(bicIdentity(key));
}

/** The record in the registry now, in the same shape as importedFields, or null when it is new. */
function existingFields(
  recordType: DirectoryRecordType,
  key: string,
  registry: RegistrySnapshot,
): { id: string; fields: ImportedFields } | null {
  const found = existingRecord(recordType, key, registry);
  if (!found) return null;
  if (recordType === "INST") {
    const { id, name, type, lei, address, phoneNumber, emailAddress, status } = found as ExistingInstitution;
    return { id, fields: { name, type, lei, address, phoneNumber, emailAddress, status } };
  }
  const code = found as ExistingCode | ExistingBic;
  const institutionKey = registry.registrationNumbers.get(code.institutionId) ?? null;
  if (recordType === "BIC") return { id: code.id, fields: { institutionKey, status: code.status } };
  return {
    id: code.id,
    fields: { institutionKey, branchCode: (code as ExistingCode).branchCode, status: code.status },
  };
}

/** Institution keys compare without case, as registration numbers do. */
function sameValue(field: string, a: string | null, b: string | null): boolean {
  return field === "institutionKey" ? (a ?? "").toLowerCase() === (b ?? "").toLowerCase() : a === b;
}

/** Whether the line adds, modifies or leaves its record, with the fields that change. */
export function classify(line: ImportLine, registry: RegistrySnapshot): PlannedRecord {
  const recordType = typeOf(line.record);
  const fields = importedFields(line);
  const base = { line: line.line, recordType, key: line.record.key };
  const existing = existingFields(recordType, line.record.key, registry);
  if (existing === null) return { ...base, action: "add", fields, before: {}, existingId: null };
  const changed: ImportedFields = {};
  const before: ImportedFields = {};
  for (const [field, now] of Object.entries(existing.fields)) {
    if (sameValue(field, now, fields[field])) continue;
    changed[field] = fields[field];
    before[field] = now;
  }
  const action = Object.keys(changed).length === 0 ? "unchanged" : "modify";
  return { ...base, action, fields: changed, before, existingId: existing.id };
}

/** What a file holds beside the line being judged: the first line of each record and of each LEI. */
interface FileIndex {
  firstLineOf: Map<string, number>;
  leiLines: Map<string, number>;
}

function indexFile(lines: readonly ImportLine[]): FileIndex {
  const firstLineOf = new Map<string, number>();
  const leiLines = new Map<string, number>();
  for (const { line, record } of lines) {
    const identity = identityOf(typeOf(record), record.key);
    if (!firstLineOf.has(identity)) firstLineOf.set(identity, line);
    if (record.record_type === "INST" && record.lei !== "" && !leiLines.has(record.lei)) {
      leiLines.set(record.lei, line);
    }
  }
  return { firstLineOf, leiLines };
}

/** The checks that need the rest of the file and the registry: duplicates, references, LEIs, lifecycle. */
function contextErrors(
  { line, record }: ImportLine,
  file: FileIndex,
  registry: RegistrySnapshot,
  leiHolders: ReadonlyMap<string, string>,
): LineError[] {
  const recordType = typeOf(record);
  const errors: LineError[] = [];
  const first = file.firstLineOf.get(identityOf(recordType, record.key))!;
  if (first !== line) errors.push({ line, field: "key", message: `Duplicate of line ${first}` });
  const terminatedAt = existingRecord(recordType, record.key, registry)?.terminatedAt ?? null;
  if (terminatedAt !== null && terminatedAt <= registry.at) {
    errors.push({
      line,
      field: "key",
      message: `Terminated on ${terminatedAt}: an import does not change a terminated record`,
    });
  }
  if (recordType !== "INST") {
    const key = record.institution_key.toLowerCase();
    if (!file.firstLineOf.has(`INST|${key}`) && !registry.institutions.has(key)) {
      errors.push({
        line,
        field: "institution_key",
        message: `No institution ${record.institution_key} in the file or the registry`,
      });
    }
    return errors;
  }
  if (record.lei !== "") {
    const firstLei = file.leiLines.get(record.lei)!;
    const holder = leiHolders.get(record.lei);
    if (firstLei !== line) errors.push({ line, field: "lei", message: `LEI also on line ${firstLei}` });
    else if (holder !== undefined && holder !== record.key.toLowerCase()) {
      errors.push({ line, field: "lei", message: `LEI already held by institution ${holder}` });
    }
  }
  const existing = registry.institutions.get(record.key.toLowerCase());
  if (existing && existing.status !== record.status) {
    const move = checkStatusTransition(
      existing.status as typeof INSTITUTION_STATUSES[number],
      record.status as typeof INSTITUTION_STATUSES[number],
    );
    if (!move.ok) errors.push({ line, field: "status", message: move.error.message });
  }
  return errors;
}

function emptyCounts(): Record<ImportEntity, TypeCounts> {
  const counts = () => ({ valid: 0, invalid: 0, add: 0, modify: 0, unchanged: 0 });
  return { institutions: counts(), routingCodes: counts(), bics: counts() };
}

/**
 * The whole file judged: every line's errors, and for a line without errors what it would do to the
 * registry. Lines the parser refused (parseErrors) are not among `lines`; they count in no type.
 */
export function planImport(lines: readonly ImportLine[], registry: RegistrySnapshot): ImportPlan {
  const file = indexFile(lines);
  const leiHolders = new Map<string, string>();
  for (const [key, institution] of registry.institutions) {
    if (institution.lei !== null) leiHolders.set(institution.lei, key);
  }
  const counts = emptyCounts();
  const errors: LineError[] = [];
  const records: PlannedRecord[] = [];
  for (const line of lines) {
    const entity = IMPORT_ENTITY_OF[typeOf(line.record)];
    const own = lineErrors(line);
    const found = own.length > 0 ? own : contextErrors(line, file, registry, leiHolders);
    if (found.length > 0) {
      errors.push(...found);
      counts[entity].invalid++;
      continue;
    }
    const planned = classify(line, registry);
    counts[entity].valid++;
    counts[entity][planned.action]++;
    records.push(planned);
  }
  return { counts, errors, records };
}
