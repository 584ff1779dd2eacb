/**
 * Parser for the SWIFT IBAN Registry's machine-readable text release: one column per
 * country, one row per data element, tab-separated, cells optionally in double quotes
 * (contact details span lines). The caller decodes the file (Windows-1252) and does the I/O;
 * this module only turns the text into seed entries and refuses anything inconsistent, so
 * that a new release with a changed layout fails loudly instead of seeding wrong formats.
 */
import {
  type BbanSegment,
  IBAN_CHECK_DIGIT_ALGORITHM,
  IBAN_PREFIX_LENGTH,
  type IbanCountryFormat,
  type IbanLayout,
  ibanLayoutOf,
  parseBbanStructure,
} from "./iban.ts";

export interface IbanRegistryEntry extends IbanLayout {
  countryName: string;
  bbanLength: number;
  exampleIban: string;
  /** As the registry prints it (a few countries do not group by four). */
  exampleIbanPrint: string;
  sepa: boolean;
  /** "YYYY-MM", from the registry's "Mon-YY". */
  effectiveDate: string;
  checkDigitAlgorithm: typeof IBAN_CHECK_DIGIT_ALGORITHM;
}

export type IbanRegistryError = { code: "INVALID_IBAN_REGISTRY"; message: string };

export type IbanRegistryResult =
  | { ok: true; value: IbanRegistryEntry[] }
  | { ok: false; error: IbanRegistryError };

export type TabSeparatedResult =
  | { ok: true; value: string[][] }
  | { ok: false; error: IbanRegistryError };

export const ROW_LABELS = {
  countryName: "Name of country",
  countryCode: "IBAN prefix country code (ISO 3166)",
  sepa: "SEPA country",
  bbanStructure: "BBAN structure",
  bbanLength: "BBAN length",
  bankPosition: "Bank identifier position within the BBAN",
  bankPattern: "Bank identifier pattern",
  branchPosition: "Branch identifier position within the BBAN",
  branchPattern: "Branch identifier pattern",
  ibanStructure: "IBAN structure",
  ibanLength: "IBAN length",
  effectiveDate: "Effective date",
  exampleIban: "IBAN electronic format example",
  exampleIbanPrint: "IBAN print format example",
} as const;

/** Registry releases write "not applicable" for some empty identifiers. */
const NOT_APPLICABLE = "N/A";

const MONTHS: Readonly<Record<string, string>> = {
  Jan: "01",
  Feb: "02",
  Mar: "03",
  Apr: "04",
  May: "05",
  Jun: "06",
  Jul: "07",
  Aug: "08",
  Sep: "09",
  Oct: "10",
  Nov: "11",
  Dec: "12",
};

/** The registry started in 2007; two-digit years are of this century. */
const CENTURY = "20";

function registryError(message: string): { ok: false; error: IbanRegistryError } {
  return { ok: false, error: { code: "INVALID_IBAN_REGISTRY", message } };
}

/**
 * Splits tab-separated text into rows of cells. A cell that starts with a double quote runs
 * to the matching closing quote, across tabs and line breaks; "" inside it is one quote.
 */
export function parseTabSeparated(text: string): TabSeparatedResult {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let i = 0;
  let atCellStart = true;
  while (i < text.length) {
    const ch = text[i];
    if (atCellStart && ch === '"') {
      const openedAt = i;
      i++;
      for (;;) {
        const close = text.indexOf('"', i);
        if (close === -1) {
          return registryError(`unterminated quoted cell starting at character ${openedAt + 1}`);
        }
        cell += text.slice(i, close);
        if (text[close + 1] === '"') {
          cell += '"';
          i = close + 2;
        } else {
          i = close + 1;
          break;
        }
      }
      atCellStart = false;
      continue;
    }
    atCellStart = false;
    if (ch === "\t") {
      row.push(cell);
      cell = "";
      atCellStart = true;
    } else if (ch === "\n" || ch === "\r") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      atCellStart = true;
      if (ch === "\r" && text[i + 1] === "\n") i++;
    } else {
      cell += ch;
    }
    i++;
  }
  if (!atCellStart || cell !== "" || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return { ok: true, value: rows };
}

function expandClasses(segments: readonly BbanSegment[]): string {
  return segments.map((s) => s.charClass.repeat(s.length)).join("");
}

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function parseCount(cell: string, what: string): Parsed<number> {
  return /^\d+$/.test(cell)
    ? { ok: true, value: Number(cell) }
    : { ok: false, message: `${what} "${cell}" is not a whole number` };
}

function parsePosition(
  position: string,
  pattern: string,
  bbanLength: number,
  what: string,
): Parsed<{ offset: number; length: number }> {
  const match = /^(\d+)-(\d+)$/.exec(position);
  if (match === null) {
    return { ok: false, message: `${what} position "${position}" is not "from-to"` };
  }
  const from = Number(match[1]);
  const to = Number(match[2]);
  if (from < 1 || to < from || to > bbanLength) {
    return {
      ok: false,
      message: `${what} position "${position}" lies outside the ${bbanLength}-character BBAN`,
    };
  }
  const parsedPattern = parseBbanStructure(pattern);
  const length = to - from + 1;
  if (!parsedPattern.ok || parsedPattern.value.totalLength !== length) {
    return {
      ok: false,
      message: `${what} pattern "${pattern}" does not describe the ${length} characters at "${position}"`,
    };
  }
  return { ok: true, value: { offset: from - 1, length } };
}

function isBlank(cell: string): boolean {
  return cell === "" || cell === NOT_APPLICABLE;
}

type Cell = (label: string) => string;

function parseColumn(cell: Cell): Parsed<IbanRegistryEntry> {
  const countryCode = cell(ROW_LABELS.countryCode);
  if (!/^[A-Z]{2}$/.test(countryCode)) {
    return { ok: false, message: `country code "${countryCode}" is not two letters` };
  }
  const parsed = parseCountryColumn(cell, countryCode);
  return parsed.ok ? parsed : { ok: false, message: `${countryCode}: ${parsed.message}` };
}

/** One country's column, its code already checked; messages do not repeat the country. */
function parseCountryColumn(cell: Cell, countryCode: string): Parsed<IbanRegistryEntry> {
  const countryName = cell(ROW_LABELS.countryName);
  if (countryName === "") return { ok: false, message: "country name is empty" };
  const sepaCell = cell(ROW_LABELS.sepa);
  if (sepaCell !== "Yes" && sepaCell !== "No") {
    return { ok: false, message: `SEPA country "${sepaCell}" is neither Yes nor No` };
  }
  const lengths = parseLengths(cell, countryCode);
  if (!lengths.ok) return lengths;
  const identifiers = parseIdentifiers(cell, lengths.value.bbanLength);
  if (!identifiers.ok) return identifiers;
  const examples = parseExamples(cell, countryCode, lengths.value.ibanLength);
  if (!examples.ok) return examples;
  const effectiveDate = parseEffectiveDate(cell(ROW_LABELS.effectiveDate));
  if (!effectiveDate.ok) return effectiveDate;
  return {
    ok: true,
    value: {
      countryCode,
      countryName,
      ...lengths.value,
      ...identifiers.value,
      ...examples.value,
      sepa: sepaCell === "Yes",
      effectiveDate: effectiveDate.value,
      checkDigitAlgorithm: IBAN_CHECK_DIGIT_ALGORITHM,
    },
  };
}

type Lengths = Pick<IbanRegistryEntry, "ibanLength" | "bbanLength" | "bbanStructure">;

/** The BBAN structure with fixed segments, and the BBAN length, IBAN structure and IBAN length agreeing with it. */
function parseLengths(cell: Cell, countryCode: string): Parsed<Lengths> {
  const bbanStructure = cell(ROW_LABELS.bbanStructure);
  const structure = parseBbanStructure(bbanStructure);
  if (!structure.ok) return { ok: false, message: structure.error.message };
  if (structure.value.segments.some((s) => !s.fixed)) {
    return { ok: false, message: `BBAN structure "${bbanStructure}" has a variable-length segment` };
  }
  const bbanLength = parseCount(cell(ROW_LABELS.bbanLength), "BBAN length");
  if (!bbanLength.ok) return bbanLength;
  if (bbanLength.value !== structure.value.totalLength) {
    return {
      ok: false,
      message:
        `BBAN length ${bbanLength.value} differs from BBAN structure "${bbanStructure}" (${structure.value.totalLength})`,
    };
  }

  // The IBAN structure repeats the BBAN structure after "CC2!n", sometimes split into finer
  // segments (CZ: 4!n16!n vs 4!n6!n10!n); it must describe the same characters.
  const ibanStructure = cell(ROW_LABELS.ibanStructure);
  const ibanPrefix = `${countryCode}2!n`;
  const ibanBban = ibanStructure.startsWith(ibanPrefix)
    ? parseBbanStructure(ibanStructure.slice(ibanPrefix.length))
    : null;
  if (
    ibanBban === null || !ibanBban.ok ||
    expandClasses(ibanBban.value.segments) !== expandClasses(structure.value.segments)
  ) {
    return {
      ok: false,
      message: `IBAN structure "${ibanStructure}" does not match BBAN structure "${bbanStructure}"`,
    };
  }

  const ibanLength = parseCount(cell(ROW_LABELS.ibanLength), "IBAN length");
  if (!ibanLength.ok) return ibanLength;
  if (ibanLength.value !== bbanLength.value + IBAN_PREFIX_LENGTH) {
    return {
      ok: false,
      message: `IBAN length ${ibanLength.value} is not BBAN length ${bbanLength.value} + 4`,
    };
  }
  return { ok: true, value: { ibanLength: ibanLength.value, bbanLength: bbanLength.value, bbanStructure } };
}

type Identifiers = Pick<
  IbanRegistryEntry,
  | "bankCodeOffset"
  | "bankCodeLength"
  | "branchCodeOffset"
  | "branchCodeLength"
  | "accountNumberOffset"
  | "accountNumberLength"
>;

/** Bank and branch identifiers by position and pattern; the account number is what follows them. */
function parseIdentifiers(cell: Cell, bbanLength: number): Parsed<Identifiers> {
  const bank = parsePosition(
    cell(ROW_LABELS.bankPosition),
    cell(ROW_LABELS.bankPattern),
    bbanLength,
    "bank identifier",
  );
  if (!bank.ok) return bank;

  const branchPosition = cell(ROW_LABELS.branchPosition);
  const branchPattern = cell(ROW_LABELS.branchPattern);
  let branch: { offset: number; length: number } | null = null;
  if (!isBlank(branchPosition) || !isBlank(branchPattern)) {
    const parsedBranch = parsePosition(branchPosition, branchPattern, bbanLength, "branch identifier");
    if (!parsedBranch.ok) return parsedBranch;
    branch = parsedBranch.value;
  }

  const identifiersEnd = Math.max(
    bank.value.offset + bank.value.length,
    branch === null ? 0 : branch.offset + branch.length,
  );
  const accountNumberLength = bbanLength - identifiersEnd;
  if (accountNumberLength <= 0) {
    return { ok: false, message: "bank and branch identifiers leave no room for an account number" };
  }
  return {
    ok: true,
    value: {
      bankCodeOffset: bank.value.offset,
      bankCodeLength: bank.value.length,
      branchCodeOffset: branch === null ? null : branch.offset,
      branchCodeLength: branch === null ? 0 : branch.length,
      accountNumberOffset: identifiersEnd,
      accountNumberLength,
    },
  };
}

function parseExamples(
  cell: Cell,
  countryCode: string,
  ibanLength: number,
): Parsed<Pick<IbanRegistryEntry, "exampleIban" | "exampleIbanPrint">> {
  const exampleIban = cell(ROW_LABELS.exampleIban);
  if (exampleIban.length !== ibanLength || !exampleIban.startsWith(countryCode)) {
    return {
      ok: false,
      message:
        `example IBAN "${exampleIban}" does not have ${ibanLength} characters starting with ${countryCode}`,
    };
  }
  const exampleIbanPrint = cell(ROW_LABELS.exampleIbanPrint);
  if (exampleIbanPrint.replaceAll(" ", "") !== exampleIban) {
    return {
      ok: false,
      message: `print example "${exampleIbanPrint}" is not the electronic example "${exampleIban}"`,
    };
  }
  return { ok: true, value: { exampleIban, exampleIbanPrint } };
}

/** "Mon-YY" as "YYYY-MM". */
function parseEffectiveDate(dateCell: string): Parsed<string> {
  const date = /^([A-Z][a-z]{2})-(\d{2})$/.exec(dateCell);
  const month = date === null ? undefined : MONTHS[date[1]];
  if (date === null || month === undefined) {
    return { ok: false, message: `effective date "${dateCell}" is not "Mon-YY"` };
  }
  return { ok: true, value: `${CENTURY}${date[2]}-${month}` };
}

/** Parses the registry text into one entry per country column, sorted by country code. */
export function parseIbanRegistry(text: string): IbanRegistryResult {
  const table = parseTabSeparated(text);
  if (!table.ok) return table;
  const rows = table.value;
  if (rows.length === 0) return registryError("the registry is empty");
  const columnCount = rows[0].length;
  if (columnCount < 2) return registryError("the registry has no country columns");

  const rowsByLabel = new Map<string, string[]>();
  for (const label of Object.values(ROW_LABELS)) {
    const matching = rows.filter((r) => r[0].trim() === label);
    if (matching.length !== 1) {
      return registryError(`expected one row "${label}", found ${matching.length}`);
    }
    if (matching[0].length !== columnCount) {
      return registryError(
        `row "${label}" has ${matching[0].length} cells, the header has ${columnCount}`,
      );
    }
    rowsByLabel.set(label, matching[0]);
  }

  const entries: IbanRegistryEntry[] = [];
  for (let column = 1; column < columnCount; column++) {
    const parsed = parseColumn((label) => (rowsByLabel.get(label) as string[])[column].trim());
    if (!parsed.ok) return registryError(`column ${column + 1}: ${parsed.message}`);
    entries.push(parsed.value);
  }
  entries.sort((a, b) => a.countryCode < b.countryCode ? -1 : a.countryCode > b.countryCode ? 1 : 0);
  for (let i = 1; i < entries.length; i++) {
    if (entries[i].countryCode === entries[i - 1].countryCode) {
      return registryError(`country ${entries[i].countryCode} appears twice`);
    }
  }
  return { ok: true, value: entries };
}

/** The committed seed file's exact text, so a regenerated file diffs cleanly. */
export function serializeIbanRegistrySeed(entries: readonly IbanRegistryEntry[]): string {
  return JSON.stringify(entries, null, 2) + "\n";
}

export function toIbanCountryFormat(entry: IbanRegistryEntry): IbanCountryFormat {
  return { ...ibanLayoutOf(entry), exampleIban: entry.exampleIban, active: true };
}
