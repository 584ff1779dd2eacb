/**
 * Directory files in the console's import layout for tests and benches: `count` institutions, each
 * with two routing codes and one BIC (four lines per institution), every record valid and new.
 */
import { writeDirectoryCsv } from "../../src/domain/directory_csv.ts";
import { DIRECTORY_COLUMNS, type DirectoryRecord } from "../../src/domain/directory_layout.ts";
import { formatRoutingCode } from "../../src/domain/routing_code.ts";

const EMPTY = Object.fromEntries(
  DIRECTORY_COLUMNS.filter((column) => column !== "change_flag").map((column) => [column, ""]),
) as Record<keyof DirectoryRecord, string>;

/** A valid LEI from an 18-character body: ISO 7064 MOD 97-10 check digits appended. */
export function leiFor(body: string): string {
  let remainder = 0;
  for (const character of `${body}00`) {
    const value = parseInt(character, 36);
    remainder = value < 10 ? (remainder * 10 + value) % 97 : (remainder * 100 + value) % 97;
  }
  return body + String(98 - remainder).padStart(2, "0");
}

export function institutionRecord(key: string, fields: Partial<DirectoryRecord> = {}): DirectoryRecord {
  return {
    ...EMPTY,
    record_type: "INST",
    key,
    name: `Imported Bank ${key}`,
    institution_type: "commercial",
    address: `${key} Import Street`,
    phone_number: "+1 202 555 0199",
    email_address: `ops@${key.toLowerCase()}.example`,
    status: "active",
    ...fields,
  };
}

export function codeRecord(recordType: "RTC" | "BIC", key: string, owner: string): DirectoryRecord {
  return { ...EMPTY, record_type: recordType, key, institution_key: owner, status: "active" };
}

/** The records of `count` institutions from number `first` on, with prefix `prefix` for their codes. */
export function generatedRecords(
  count: number,
  options: { first?: number; prefix?: string } = {},
): DirectoryRecord[] {
  const first = options.first ?? 1;
  const prefix = options.prefix ?? "IMP";
  const records: DirectoryRecord[] = [];
  for (let n = first; n < first + count; n++) {
    const key = `IMP-${String(n).padStart(6, "0")}`;
    records.push(institutionRecord(key, { lei: leiFor(`5299IMP${String(n).padStart(11, "0")}`) }));
    records.push(codeRecord("RTC", formatRoutingCode(prefix, 2 * n - 1), key));
    records.push(codeRecord("RTC", formatRoutingCode(prefix, 2 * n), key));
    records.push(codeRecord("BIC", `I${n.toString(36).toUpperCase().padStart(3, "0")}DEFF`, key));
  }
  return records;
}

/** The CSV text of the records, each flagged A. */
export function directoryFile(records: readonly DirectoryRecord[]): string {
  return writeDirectoryCsv(records.map((record) => ({ flag: "A", record })));
}
