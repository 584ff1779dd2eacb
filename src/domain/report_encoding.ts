/**
 * Cell encodings for the report formats: CSV records (RFC 4180, every text quoted, with
 * spreadsheet formula neutralisation), XML text and attributes (always well formed), and PDF text for the standard
 * fonts (WinAnsi only).
 *
 * @module
 */

/** One value of a report row. Timestamps travel as ISO-8601 text. */
export type Cell = string | number | boolean | null;

/**
 * A spreadsheet treats a cell starting with one of these as a formula (tab and carriage return
 * because some spreadsheets strip them and then see the next character), so "=HYPERLINK(...)"
 * typed into an institution's name would run on the auditor's machine (OWASP "CSV injection").
 */
const FORMULA_START = /^("*)(?=[=+\-@\t\r])/;
/**
 * A formula start right after a character that some reader may take as a field or record break:
 * comma, semicolon (the list separator of Excel in most of continental Europe, which also splits a
 * quoted field when the file is opened with the wrong dialect), tab, pipe, CR and LF. "a;-2+3"
 * would otherwise become the cells "a" and the live formula "-2+3". Double quotes between the two
 * count as part of the break, since a reader may take them as the quotes of the piece that follows.
 */
const FORMULA_AFTER_SEPARATOR = /([,;\t|\r\n]"*)(?=[=+\-@])/g;

/**
 * Puts an apostrophe, which spreadsheets show as text, before a formula start at the beginning of
 * the text and after every separator character inside it.
 */
export function neutraliseFormula(text: string): string {
  return text.replace(FORMULA_AFTER_SEPARATOR, "$1'").replace(FORMULA_START, "$1'");
}

/**
 * One CSV field: null is empty, numbers and booleans as written, text neutralised and then always
 * enclosed in double quotes (inner quotes doubled, RFC 4180 section 2), so that no reader splits it
 * at a separator of its own dialect.
 */
export function csvField(cell: Cell): string {
  if (cell === null) return "";
  if (typeof cell === "number") {
    if (!Number.isFinite(cell)) throw new Error("csvField() needs a finite number");
    return String(cell);
  }
  if (typeof cell === "boolean") return cell ? "true" : "false";
  return `"${neutraliseFormula(cell).replaceAll('"', '""')}"`;
}

/** One CSV record terminated by CRLF. */
export function csvRecord(cells: readonly Cell[]): string {
  return `${cells.map(csvField).join(",")}\r\n`;
}

const CSV_HEADER_KEY = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * The header record: column keys are plain identifiers (checked), written bare so that the first
 * line reads `id,name,…` for people and tools that match on it.
 */
export function csvHeaderRecord(keys: readonly string[]): string {
  for (const key of keys) {
    if (!CSV_HEADER_KEY.test(key)) {
      throw new Error(`CSV column key ${JSON.stringify(key)} is not a plain identifier`);
    }
  }
  return `${keys.join(",")}\r\n`;
}

/** Characters XML 1.0 forbids anywhere in a document (most C0 controls, lone surrogates, U+FFFE/U+FFFF). */
const INVALID_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
export const XML_REPLACEMENT_CHAR = "\uFFFD";

/** Replaces what XML 1.0 forbids with U+FFFD (for writers that escape markup themselves). */
export function replaceInvalidXmlChars(text: string): string {
  return text.replace(INVALID_XML_CHAR, XML_REPLACEMENT_CHAR);
}

/** Element content: &, <, > escaped; CR kept as a reference so parsers do not turn it into LF. */
export function xmlText(text: string): string {
  return replaceInvalidXmlChars(text)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll("\r", "&#13;");
}

/** Attribute value for double quotes; tab, CR and LF as references so attribute normalisation keeps them. */
export function xmlAttribute(text: string): string {
  return xmlText(text)
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;")
    .replaceAll("\t", "&#9;")
    .replaceAll("\n", "&#10;");
}

const XML_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** True for the plain ASCII names reports use as element names (no prefixes, no "xml" start). */
export function isXmlName(name: string): boolean {
  return XML_NAME.test(name) && !name.toLowerCase().startsWith("xml");
}

/** The characters of Windows-1252 above ASCII that are not Latin-1 (what the PDF standard fonts can draw). */
const WIN_ANSI_EXTRAS = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
export const PDF_REPLACEMENT_CHAR = "?";
export const PDF_ELLIPSIS = "…";

/**
 * Text a PDF standard font (WinAnsi encoding) can show: controls become spaces, characters outside
 * Windows-1252 become "?", and text longer than `maxChars` is cut with an ellipsis.
 */
export function pdfText(cell: Cell, maxChars: number): string {
  if (cell === null) return "";
  if (typeof cell === "boolean") return cell ? "yes" : "no";
  let out = "";
  let count = 0;
  for (const char of String(cell)) {
    if (count === maxChars) return `${out.slice(0, -1)}${PDF_ELLIPSIS}`;
    const code = char.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += " ";
    else if (code <= 0xff || WIN_ANSI_EXTRAS.has(char)) out += char;
    else out += PDF_REPLACEMENT_CHAR;
    count++;
  }
  return out;
}
