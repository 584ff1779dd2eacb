/**
 * Search everywhere (GET /api/search/everywhere, the console's command palette): each feature offers
 * the search of its own records as a SearchSource, and app.ts hands them all to the search feature,
 * so that features never import one another and each search stays next to the data it reads.
 */
import { type SQL, sql } from "drizzle-orm";

/** One record found: what the palette shows and where it leads in the SPA. */
export interface SearchHit {
  id: string;
  /** The record's name or code, e.g. "Meridian Commercial Bank" or "MERIUS33". */
  label: string;
  /** A second line that tells records of one label apart, e.g. "CBR-CO-00002 · Commercial bank · active". */
  detail: string;
  /** The SPA path of the record's screen, e.g. "/institutions/<id>". */
  link: string;
}

export interface SearchFindings {
  hits: SearchHit[];
  /** More records match than were asked for. */
  more: boolean;
}

export interface SearchSource {
  /** Stable machine name of the kind of record, e.g. "institution". */
  kind: string;
  /** The palette's heading for the group, e.g. "Institutions". */
  label: string;
  /**
   * The route whose rule (src/domain/access.ts) decides who may find these records: finding a record
   * must never show more than the list it comes from would.
   */
  readRoute: readonly [method: string, path: string];
  /** At most `limit` hits for the trimmed, non-empty text. */
  find(text: string, limit: number): Promise<SearchFindings>;
}

/**
 * From this many characters a search matches anywhere in a field, below it the start of a word: the
 * rule of the institutions' search (a trigram index needs three characters), kept for every kind so
 * that one query behaves the same in each group of the palette.
 */
export const SUBSTRING_MIN_LENGTH = 3;

/** `text` inside a LIKE pattern matches only itself: its own %, _ and \ are escaped. */
function likeLiteral(text: string): string {
  return text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** What starts a word inside a field, for the short searches: "jane" in "Jane Doe", "jane.doe@…", "LIQ-jane". */
const WORD_SEPARATORS = [" ", "-", ".", "@"];

/**
 * Whether any of the text columns matches `text` by the rule above, ignoring ASCII case: anywhere in
 * the column from SUBSTRING_MIN_LENGTH characters, else at the start of the column or of a word in it.
 * A LIKE reads every row: for the small registers that are listed whole (staff, accounts) only.
 */
export function textMatches(columns: readonly SQL[], text: string): SQL {
  const literal = likeLiteral(text);
  const patterns = [...text].length >= SUBSTRING_MIN_LENGTH
    ? [`%${literal}%`]
    : [`${literal}%`, ...WORD_SEPARATORS.map((separator) => `%${separator}${literal}%`)];
  const conditions = columns.flatMap((column) =>
    patterns.map((pattern) => sql`lower(${column}) LIKE ${pattern} ESCAPE '\\'`)
  );
  return sql`(${sql.join(conditions, sql` OR `)})`;
}

/** Hits from rows fetched with one more than the limit, the extra row saying whether more match. */
export function findingsOf<Row>(
  rows: readonly Row[],
  limit: number,
  toHit: (row: Row) => SearchHit,
): SearchFindings {
  return { hits: rows.slice(0, limit).map(toHit), more: rows.length > limit };
}
