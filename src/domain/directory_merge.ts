/**
 * The next edition as a sorted merge (docs/directory.md): the previous edition's full records and the
 * candidates at the new effective date, both in file order, walked side by side so that neither side
 * is ever held whole. Gives, row by row, exactly what `buildEdition` gives for whole lists. Pure: it
 * consumes two iterables and yields rows; the server reads and writes around it.
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

/**
 * Thrown when a side is not in strictly increasing file order (a duplicate key, or a key whose order
 * differs between the database and the files): merging it would publish a wrong delta.
 */
export class MergeOrderError extends Error {}

type Side<T> = AsyncIterator<T> | Iterator<T>;

/** An iterator that checks its records come in strictly increasing file order. */
async function* ordered<T>(
  source: AsyncIterable<T> | Iterable<T>,
  recordOf: (item: T) => DirectoryRecord,
  what: string,
): AsyncGenerator<T> {
  let last: DirectoryRecord | null = null;
  for await (const item of source) {
    const record = recordOf(item);
    if (last !== null && compareRecords(last, record) >= 0) {
      throw new MergeOrderError(
        `${what} are not in file order: ${record.record_type} ${record.key} after ${last.record_type} ${last.key}`,
      );
    }
    last = record;
    yield item;
  }
}

async function nextOf<T>(side: Side<T>): Promise<T | null> {
  const step = await side.next();
  return step.done ? null : step.value;
}

/**
 * The rows of the next edition, in file order, from the previous edition's records and the
 * candidates, each in file order. A terminated or vanished record is deleted only when the previous
 * edition announced it; otherwise it stays once more, announced.
 */
export async function* mergeEdition(
  previous: AsyncIterable<DirectoryRecord> | Iterable<DirectoryRecord>,
  candidates: AsyncIterable<CandidateRecord> | Iterable<CandidateRecord>,
): AsyncGenerator<MergedRow> {
  const before = ordered(previous, (record) => record, "the previous edition's records");
  const after = ordered(candidates, (candidate) => candidate.record, "the registry's records");
  let earlier = await nextOf(before);
  let next = await nextOf(after);
  while (earlier !== null || next !== null) {
    const order = earlier === null ? 1 : next === null ? -1 : compareRecords(earlier, next.record);
    if (order < 0) {
      yield vanished(earlier!);
      earlier = await nextOf(before);
    } else if (order > 0) {
      const row = outcome(undefined, next!);
      if (row) yield row;
      next = await nextOf(after);
    } else {
      const row = outcome(earlier!, next!);
      if (row) yield row;
      earlier = await nextOf(before);
      next = await nextOf(after);
    }
  }
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
