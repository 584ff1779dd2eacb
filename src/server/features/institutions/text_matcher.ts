/**
 * Whether an institution's searchable texts, as they were before a change or as they are now, match
 * a search: they are put in an in-memory FTS5 table made by the very statement that made the index
 * (read from sqlite_master, its name changed), so they are tokenized, folded and matched exactly as
 * the index does. Used to bring a cached match count up to date from the search journal (migration
 * 1251), and to check a search's whole text on the rows its rare piece found (narrowed_search.ts).
 * Asking the index itself about one rowid walks the doclists up to that rowid: about as slow as the
 * count for the oldest institutions.
 */
import NativeDatabase from "libsql";

export interface SearchableText {
  name: string;
  registrationNumber: string;
  licenseNumber: string;
  emailAddress: string;
}

const SCRATCH_TABLE = "texts";

export class TextMatcher {
  #db: NativeDatabase.Database | null = null;
  /** The index whose definition the scratch table has now. */
  #definedAs: string | null = null;

  /** How many of `texts` the index defined by `createSql` matches for the FTS5 query `match`. */
  count(createSql: string, match: string, texts: readonly SearchableText[]): number {
    return this.matching(createSql, match, texts).size;
  }

  /** The positions in `texts` of those the index defined by `createSql` matches for `match`. */
  matching(createSql: string, match: string, texts: readonly SearchableText[]): Set<number> {
    if (texts.length === 0) return new Set();
    const db = this.#db ??= new NativeDatabase(":memory:");
    if (this.#definedAs !== createSql) {
      db.exec(`DROP TABLE IF EXISTS ${SCRATCH_TABLE}`);
      const definition = createSql.replace(
        /^CREATE VIRTUAL TABLE\s+("?)\w+\1\s+USING/i,
        `CREATE VIRTUAL TABLE ${SCRATCH_TABLE} USING`,
      );
      if (definition === createSql) throw new Error(`unexpected FTS5 index definition: ${createSql}`);
      db.exec(definition);
      this.#definedAs = createSql;
    }
    const insert = db.prepare(
      `INSERT INTO ${SCRATCH_TABLE} (rowid, name, registration_number, license_number, email_address)
        VALUES (?, ?, ?, ?, ?)`,
    );
    db.exec("BEGIN");
    try {
      for (const [position, text] of texts.entries()) {
        insert.run([position, text.name, text.registrationNumber, text.licenseNumber, text.emailAddress]);
      }
      const rows = db.prepare(`SELECT rowid AS position FROM ${SCRATCH_TABLE} WHERE ${SCRATCH_TABLE} MATCH ?`)
        .all([match]) as { position: number }[];
      return new Set(rows.map((row) => row.position));
    } finally {
      // Nothing is kept: the next call starts from an empty table.
      db.exec("ROLLBACK");
    }
  }
}
