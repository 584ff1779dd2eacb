/**
 * The published directory's record layout (docs/directory.md): one row per institution (INST),
 * national routing code (RTC) and BIC (BIC), the same columns in the CSV and the fixed-width files,
 * and the console's own import layout. Pure: shared by the edition writer, the import parser and the
 * Directory screen.
 *
 * @module
 */

export const DIRECTORY_RECORD_TYPES = ["INST", "RTC", "BIC"] as const;
export type DirectoryRecordType = typeof DIRECTORY_RECORD_TYPES[number];

/** A: added since the previous edition; M: modified; D: deleted (delta files only); U: unchanged (full files only). */
export const CHANGE_FLAGS = ["A", "M", "D", "U"] as const;
export type ChangeFlag = typeof CHANGE_FLAGS[number];

/**
 * The columns in file order. `key` is the record's identity within its type: the registration number
 * (INST), the routing code (RTC) or the BIC (BIC). Codes point at their institution by its
 * registration number in `institution_key`. Columns that do not apply to a record type are empty.
 */
export const DIRECTORY_COLUMNS = [
  "change_flag",
  "record_type",
  "key",
  "institution_key",
  "name",
  "institution_type",
  "lei",
  "address",
  "phone_number",
  "email_address",
  "branch_code",
  "status",
  "valid_from",
  "successor_key",
  "deletion_announced",
] as const;
export type DirectoryColumn = typeof DIRECTORY_COLUMNS[number];

/** One record as published, without its change flag (which depends on the edition it is compared with). */
export type DirectoryRecord = Readonly<Record<Exclude<DirectoryColumn, "change_flag">, string>>;

/** "INST|BANK-0001": a record's identity across editions. */
export function recordIdentity(record: Pick<DirectoryRecord, "record_type" | "key">): string {
  return `${record.record_type}|${record.key}`;
}
