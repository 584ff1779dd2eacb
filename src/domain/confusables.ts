/**
 * Unicode's confusable detection (UTS #39, section 4): two strings that look alike have the same
 * skeleton, skeleton(X) = NFD(map each character of NFD(X) by confusables.txt). No maintained npm
 * package computes it from Unicode's own table, so the table is vendored unmodified
 * (db/reference/unicode_confusables_17.0.0.txt) and read by the caller; this module parses it and
 * applies the definition. Pure module: no I/O.
 */

export interface ConfusablesTable {
  /** Source code point to its prototype (one or more characters). */
  prototypes: ReadonlyMap<number, string>;
  /** Source code point to its Unicode name, lower-cased, from the table's comments. */
  names: ReadonlyMap<number, string>;
}

const hexToText = (codes: string) =>
  String.fromCodePoint(...codes.trim().split(/\s+/).map((code) => Number.parseInt(code, 16)));

/**
 * One line per mapping: `0430 ;\t0061 ;\tMA\t# ( а → a ) CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A`.
 * Throws on a line of another shape: a damaged table must not quietly weaken the check.
 */
export function parseConfusables(text: string): ConfusablesTable {
  const prototypes = new Map<number, string>();
  const names = new Map<number, string>();
  for (const line of text.split("\n")) {
    const content = line.replace(/^\uFEFF/, "").trim();
    if (content === "" || content.startsWith("#")) continue;
    const match = /^([0-9A-F]{4,6}) ;\t([0-9A-F ]+) ;\tMA\t#\*? \( .+ \) (.+?) → /.exec(content);
    if (!match) throw new Error(`confusables: unreadable line "${content.slice(0, 80)}"`);
    const source = Number.parseInt(match[1], 16);
    prototypes.set(source, hexToText(match[2]));
    names.set(source, match[3].toLowerCase());
  }
  if (prototypes.size === 0) throw new Error("confusables: the table is empty");
  return { prototypes, names };
}

/** The UTS #39 skeleton: equal skeletons mean the strings can be mistaken for one another. */
export function skeleton(text: string, table: ConfusablesTable): string {
  let mapped = "";
  for (const character of text.normalize("NFD")) {
    mapped += table.prototypes.get(character.codePointAt(0)!) ?? character;
  }
  return mapped.normalize("NFD");
}
