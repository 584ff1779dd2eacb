/**
 * Which piece of a substring search to look up in the trigram index first.
 *
 * FTS5 matches a phrase by walking the doclists of all its trigrams in step, so a trigram found in
 * most rows costs most of the query even when the phrase matches one row: in "LIC-1234567", "lic"
 * and "ic-" are in most licence numbers, its digits in few.
 * The piece is the longest run of the text's trigrams none of which is common; the service looks
 * it up, then checks the whole text on the few rows it finds (TextMatcher, with the index's own
 * tokenizer), so the answer is exactly the whole phrase's.
 *
 * How common a trigram is comes from a sample: the span of rowids its first rows cover. Samples are
 * kept per trigram and not refreshed: they only choose the piece, and a stale one costs time, never
 * a wrong answer.
 */
import { BoundedMap } from "../../bounded_map.ts";
import type { Statements } from "../../db/statements.ts";

/** A trigram in more than this share of the rows is left out of the piece. */
export const COMMON_TRIGRAM_SHARE = 0.05;
/** Rows of a trigram's doclist read to estimate its share. */
const SAMPLE_ROWS = 64;
/** Texts with more trigrams than this are looked up whole (sampling them would cost more). */
const MAX_PLANNED_TRIGRAMS = 64;
/** Trigram samples kept (a few dozen bytes each). */
const MAX_SAMPLED_TRIGRAMS = 20_000;

const SAMPLE_SQL = `SELECT count(*) AS sampled, max(rowid) - min(rowid) AS span
  FROM (SELECT rowid FROM institutions_fts WHERE institutions_fts MATCH ? ORDER BY rowid LIMIT ${SAMPLE_ROWS})`;

/** The text as one literal FTS5 phrase: quoted, embedded quotes doubled, so no query syntax applies. */
export function ftsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

export class TrigramShares {
  readonly #statements: Statements;
  readonly #shares = new BoundedMap<string, number>(MAX_SAMPLED_TRIGRAMS);

  constructor(statements: Statements) {
    this.#statements = statements;
  }

  /** The estimated share of rows holding the trigram (zero when it is in fewer than the sample). */
  async share(trigram: string): Promise<number> {
    const known = this.#shares.get(trigram);
    if (known !== undefined) return known;
    const row = await this.#statements.get<{ sampled: number; span: number | null }>(SAMPLE_SQL, [
      ftsPhrase(trigram),
    ]);
    const share = row && row.sampled === SAMPLE_ROWS ? (SAMPLE_ROWS - 1) / Math.max(row.span ?? 0, 1) : 0;
    this.#shares.set(trigram, share);
    return share;
  }
}

/**
 * The piece of `text` to look up first, or null when the whole text is as cheap: it has no common
 * trigram, or only common ones, or too many to sample.
 */
export async function narrowingPiece(
  shares: Pick<TrigramShares, "share">,
  text: string,
): Promise<string | null> {
  const chars = [...text];
  const trigramCount = chars.length - 2;
  if (trigramCount < 2 || trigramCount > MAX_PLANNED_TRIGRAMS) return null;
  const common: boolean[] = [];
  for (let at = 0; at < trigramCount; at++) {
    common.push(await shares.share(chars.slice(at, at + 3).join("")) > COMMON_TRIGRAM_SHARE);
  }
  if (!common.includes(true)) return null;
  let best: { from: number; to: number } | null = null;
  for (let from = 0; from < trigramCount; from++) {
    if (common[from]) continue;
    let to = from;
    while (to + 1 < trigramCount && !common[to + 1]) to++;
    if (best === null || to - from > best.to - best.from) best = { from, to };
    from = to;
  }
  return best === null ? null : chars.slice(best.from, best.to + 3).join("");
}
