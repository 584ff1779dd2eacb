/**
 * The searchable text of every institution, held in memory to count the matches of a substring
 * search. FTS5 finds a page of matches quickly, but counting them checks every trigram of the
 * phrase at every match, an order of magnitude slower than a scan of the same text in memory for a
 * text found in every row (docs/bench.md). Pages still come from the index; only the X-Total-Count of a search with
 * more matches than one page comes from here.
 *
 * The copy follows the database through institutions_search_version and the journal of changed
 * institutions (migration 0104), so it answers exactly as the index would, whichever process made a
 * change. Text is folded as the index folds it (trigram tokenizer, remove_diacritics 1, migration
 * 0101): ASCII by lower-casing, every other character by asking SQLite's own tokenizer once.
 */
import NativeDatabase from "libsql";
import { replicaGeneration } from "../../db/replica_generation.ts";
import type { Statements } from "../../db/statements.ts";

/** Past this many institutions the copy is not kept (about 100 bytes each) and FTS5 counts. */
export const MAX_INDEXED_INSTITUTIONS = 500_000;
/** Joins an institution's four fields: a search never matches across two of them, as in the index. */
const FIELD_SEPARATOR = "\u0000";
const ASCII_ONLY = /^\p{ASCII}*$/u;

const VERSION_SQL = "SELECT version FROM institutions_search_version WHERE id = 1";
const OLDEST_CHANGE_SQL = "SELECT min(version) AS oldest FROM institution_search_changes";
const COUNT_SQL = "SELECT count(*) AS total FROM institutions";
const TEXT_COLUMNS = `i.name, i.registration_number AS registrationNumber,
  coalesce(i.license_number, '') AS licenseNumber, i.email_address AS emailAddress`;
/** Rows per chunk of a whole load: about 10 ms of the event loop each. */
const LOAD_CHUNK_ROWS = 2_000;
/** Keyset pages by id, which nothing renumbers (a VACUUM may renumber rowids). */
const TEXTS_CHUNK_SQL =
  `SELECT i.id, ${TEXT_COLUMNS} FROM institutions i WHERE i.id > ? ORDER BY i.id LIMIT ?`;
/** A deleted institution comes back with null fields. */
const CHANGED_TEXTS_SQL = `SELECT c.institution_id AS id, ${TEXT_COLUMNS}
  FROM institution_search_changes c LEFT JOIN institutions i ON i.id = c.institution_id
  WHERE c.version > ? ORDER BY c.version`;

interface TextRow {
  [column: string]: unknown;
  id: string;
  name: string | null;
  registrationNumber: string | null;
  licenseNumber: string | null;
  emailAddress: string | null;
}

/**
 * How the trigram index folds each of these characters, read back from SQLite's tokenizer: the
 * characters go into one document, each between two "a"s, and fts5vocab lists the document's
 * trigrams in order. Null if the tokenizer did not map them one to one.
 */
export function sqliteFolds(chars: readonly string[]): Map<string, string> | null {
  const text = `a${chars.join("a")}a`;
  const length = [...text].length;
  const db = new NativeDatabase(":memory:");
  try {
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'trigram remove_diacritics 1');
      CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
    db.prepare("INSERT INTO t (x) VALUES (?)").run([text]);
    const trigrams = (db.prepare("SELECT term FROM v ORDER BY offset").all([]) as { term: string }[])
      .map((row) => [...row.term]);
    if (trigrams.length !== length - 2 || trigrams.some((trigram) => trigram.length !== 3)) return null;
    const folded = [...trigrams.map((trigram) => trigram[0]), ...trigrams.at(-1)!.slice(1)];
    const folds = new Map<string, string>();
    for (const [i, char] of chars.entries()) folds.set(char, folded[2 * i + 1]);
    return folds;
  } finally {
    db.close();
  }
}

/** One text per institution, found by id, in no particular order. */
class TextCopy {
  readonly #slots = new Map<string, number>();
  readonly #ids: string[] = [];
  readonly texts: string[] = [];

  get size(): number {
    return this.texts.length;
  }

  put(id: string, text: string): void {
    const slot = this.#slots.get(id);
    if (slot !== undefined) {
      this.texts[slot] = text;
      return;
    }
    this.#slots.set(id, this.texts.length);
    this.#ids.push(id);
    this.texts.push(text);
  }

  remove(id: string): void {
    const slot = this.#slots.get(id);
    if (slot === undefined) return;
    const lastId = this.#ids.pop()!;
    const lastText = this.texts.pop()!;
    this.#slots.delete(id);
    if (lastId === id) return;
    this.#ids[slot] = lastId;
    this.texts[slot] = lastText;
    this.#slots.set(lastId, slot);
  }
}

export class SearchTexts {
  readonly #statements: Statements;
  readonly #maxInstitutions: number;
  /** institutions_search_version the copy reflects; -1 before the first load. */
  #version = -1;
  /** The replica's rebuild count the copy was read at: a rebuilt replica is loaded whole. */
  #replicaGeneration = replicaGeneration();
  /** Null before the first load, past the limit, or when a character would not fold one to one. */
  #copy: TextCopy | null = null;
  #folds = new Map<string, string>();
  #lastRefresh: Promise<void> = Promise.resolve();
  #loading: Promise<void> | null = null;

  constructor(statements: Statements, maxInstitutions = MAX_INDEXED_INSTITUTIONS) {
    this.#statements = statements;
    this.#maxInstitutions = maxInstitutions;
  }

  /**
   * How many institutions the trigram index matches for this text, or null when the copy cannot
   * say (the caller counts with FTS5 instead). A copy that must be loaded whole, the first time or
   * after falling too far behind, loads in the background, and the index counts meanwhile.
   */
  async count(text: string): Promise<number | null> {
    await this.#refresh();
    const copy = this.#copy;
    if (this.#loading || copy === null) return null;
    const query = this.#fold([text]);
    if (query === null) return null;
    const [needle] = query;
    if (needle.includes(FIELD_SEPARATOR)) return null;
    let total = 0;
    for (const haystack of copy.texts) if (haystack.includes(needle)) total++;
    return total;
  }

  /** Resolves when no background load is under way. */
  async whenLoaded(): Promise<void> {
    while (this.#loading) await this.#loading;
  }

  /** One refresh at a time, in call order: each looks at the version only after the last is done. */
  #refresh(): Promise<void> {
    const refreshed = this.#lastRefresh.then(() => this.#refreshNow());
    this.#lastRefresh = refreshed.catch(() => {});
    return refreshed;
  }

  async #refreshNow(): Promise<void> {
    if (this.#loading) return;
    if (this.#replicaGeneration !== replicaGeneration()) {
      this.#replicaGeneration = replicaGeneration();
      this.#copy = null;
      this.#version = -1;
    }
    const row = await this.#statements.get<{ version: number }>(VERSION_SQL, []);
    const version = row?.version ?? 0;
    if (version === this.#version) return;
    if (this.#copy !== null && await this.#journalReaches()) {
      try {
        this.#apply(this.#copy, await this.#statements.all<TextRow>(CHANGED_TEXTS_SQL, [this.#version]));
        this.#version = version;
      } catch (error) {
        // Half a catch-up is no copy at all: the next call loads it whole.
        this.#copy = null;
        this.#version = -1;
        throw error;
      }
      return;
    }
    this.#loading = this.#load(version)
      .catch((error) => {
        this.#version = -1;
        console.error("institution search: loading the search text failed; counting in the index", error);
      })
      .finally(() => (this.#loading = null));
  }

  /** Whether the journal still holds every change after the copy's version. */
  async #journalReaches(): Promise<boolean> {
    const { oldest } = (await this.#statements.get<{ oldest: number | null }>(OLDEST_CHANGE_SQL, []))!;
    return oldest !== null && oldest <= this.#version + 1;
  }

  /**
   * The whole registry as of at least `version` (read before any text: a change committed during
   * the load is applied again by the next catch-up, which converges), in chunks with a turn of the
   * event loop between them, so requests are served meanwhile.
   */
  async #load(version: number): Promise<void> {
    this.#copy = null;
    this.#version = version;
    const { total } = (await this.#statements.get<{ total: number }>(COUNT_SQL, []))!;
    if (total > this.#maxInstitutions) return;
    const copy = new TextCopy();
    for (let after = "";;) {
      const rows = await this.#statements.all<TextRow>(TEXTS_CHUNK_SQL, [after, LOAD_CHUNK_ROWS]);
      if (!this.#apply(copy, rows) || copy.size > this.#maxInstitutions) return;
      if (rows.length < LOAD_CHUNK_ROWS) break;
      after = rows.at(-1)!.id;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    this.#copy = copy;
  }

  /** False (and no copy kept) if a character would not fold one to one. */
  #apply(copy: TextCopy, rows: readonly TextRow[]): boolean {
    const fields = rows.flatMap((row) =>
      row.name === null ? [] : [row.name, row.registrationNumber!, row.licenseNumber!, row.emailAddress!]
    );
    const folded = this.#fold(fields);
    if (folded === null) {
      this.#copy = null;
      return false;
    }
    let next = 0;
    for (const row of rows) {
      if (row.name === null) {
        copy.remove(row.id);
        continue;
      }
      copy.put(row.id, folded.slice(next, next + 4).join(FIELD_SEPARATOR));
      next += 4;
    }
    if (copy.size > this.#maxInstitutions) this.#copy = null;
    return true;
  }

  /** The texts as the index folds them; null if a character does not fold one to one. */
  #fold(texts: readonly string[]): string[] | null {
    const unknown = new Set<string>();
    for (const text of texts) {
      if (ASCII_ONLY.test(text)) continue;
      for (const char of text) if (char > "\x7f" && !this.#folds.has(char)) unknown.add(char);
    }
    if (unknown.size > 0) {
      const learned = sqliteFolds([...unknown]);
      if (learned === null) return null;
      for (const [char, fold] of learned) this.#folds.set(char, fold);
    }
    return texts.map((text) => {
      if (ASCII_ONLY.test(text)) return text.toLowerCase();
      let folded = "";
      for (const char of text) folded += char > "\x7f" ? this.#folds.get(char)! : char.toLowerCase();
      return folded;
    });
  }
}
