/**
 * The next edition as a sorted merge (docs/directory.md): the previous edition's full records and the
 * candidates at the new effective date, both in file order, walked side by side so that neither side
 * is ever held whole. Gives, row by row, exactly what the whole-list reference model gives
 * (tests/helpers/directory_reference.ts, checked for random histories). Pure: it
 * consumes two sequences of pages and yields rows in batches; the server reads and writes around it.
 * Pages, not single records, cross each `await`: a step of an async iterator costs more than the
 * comparison it carries.
 *
 * @module
 */

import type { FlaggedRecord } from "./directory_csv.ts";
import { type CandidateRecord, compareRecords, flagAgainst } from "./directory_files.ts";
import type { DirectoryRecord } from "./directory_layout.ts";

/** One identity's outcome: its row in the full file and its row in the delta, when it has them. */
export interface MergedRow {
  full: FlaggedRecord | null;
  delta: FlaggedRecord | null;
}

/** Records in file order, a page at a time. */
export type Pages<T> = AsyncIterable<readonly T[]> | Iterable<readonly T[]>;

/** Rows handed on at a time: few enough that a batch dies young, as the registry's pages do. */
export const MERGE_BATCH_ROWS = 250;

/**
 * Thrown when a side is not in strictly increasing file order (a duplicate key, or a key whose order
 * differs between the database and the files): merging it would publish a wrong delta.
 */
export class MergeOrderError extends Error {}

/** A side of the merge: the current item, read ahead a page at a time, each checked against the one before. */
class Cursor<T> {
  #pages: AsyncIterator<readonly T[]> | Iterator<readonly T[]>;
  #page: readonly T[] = [];
  #index = 0;
  #last: DirectoryRecord | null = null;
  #recordOf: (item: T) => DirectoryRecord;
  #what: string;

  constructor(pages: Pages<T>, recordOf: (item: T) => DirectoryRecord, what: string) {
    this.#pages = Symbol.asyncIterator in pages ? pages[Symbol.asyncIterator]() : pages[Symbol.iterator]();
    this.#recordOf = recordOf;
    this.#what = what;
  }

  /** The current item, or null at the end; awaits only when its page is used up. */
  async current(): Promise<T | null> {
    while (this.#index >= this.#page.length) {
      const step = await this.#pages.next();
      if (step.done) return null;
      this.#page = step.value;
      this.#index = 0;
    }
    return this.#page[this.#index];
  }

  /** The current item when its page holds it (no await), undefined when a page must be read first. */
  peek(): T | undefined {
    return this.#index < this.#page.length ? this.#page[this.#index] : undefined;
  }

  advance(): void {
    const record = this.#recordOf(this.#page[this.#index++]);
    if (this.#last !== null && compareRecords(this.#last, record) >= 0) {
      throw new MergeOrderError(
        `${this.#what} are not in file order: ${record.record_type} ${record.key} after ${this.#last.record_type} ${this.#last.key}`,
      );
    }
    this.#last = record;
  }
}

/**
 * The rows of the next edition, in file order and in batches, from the previous edition's records
 * and the candidates, each in file order. A terminated or vanished record is deleted only when the
 * previous edition announced it; otherwise it stays once more, announced.
 */
export async function* mergeEdition(
  previous: Pages<DirectoryRecord>,
  candidates: Pages<CandidateRecord>,
): AsyncGenerator<MergedRow[]> {
  const before = new Cursor(previous, (record) => record, "the previous edition's records");
  const after = new Cursor(candidates, (candidate) => candidate.record, "the registry's records");
  let batch: MergedRow[] = [];
  for (;;) {
    const earlier = before.peek() ?? await before.current();
    const next = after.peek() ?? await after.current();
    if (earlier === null && next === null) break;
    const order = earlier === null ? 1 : next === null ? -1 : compareRecords(earlier, next.record);
    const row = order < 0 ? vanished(earlier!) : outcome(order === 0 ? earlier! : undefined, next!);
    if (order <= 0) before.advance();
    if (order >= 0) after.advance();
    if (row) batch.push(row);
    if (batch.length >= MERGE_BATCH_ROWS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** A record gone from the registry: deleted when announced, else kept once more and announced. */
function vanished(earlier: DirectoryRecord): MergedRow {
  if (earlier.deletion_announced === "Y") return { full: null, delta: { record: earlier, flag: "D" } };
  const row: FlaggedRecord = { record: { ...earlier, deletion_announced: "Y" }, flag: "M" };
  return { full: row, delta: row };
}

function outcome(
  earlier: DirectoryRecord | undefined,
  { record, terminated }: CandidateRecord,
): MergedRow | null {
  if (!terminated || (earlier && earlier.deletion_announced !== "Y")) {
    const row: FlaggedRecord = { record, flag: flagAgainst(earlier, record) };
    return { full: row, delta: row.flag === "U" ? null : row };
  }
  return earlier ? { full: null, delta: { record: earlier, flag: "D" } } : null;
}
