/**
 * Whether the primary still holds the history this node's replica holds (db/migrations/1400).
 *
 * libSQL's replica asks the primary for the frames after the last one it applied, by number. A
 * primary restored from a copy numbers its new frames from where the copy ended, so once it has
 * written past the replica's frame number the replica would apply frames built on pages it never
 * had: a corrupt file. Every write a console sends the primary therefore starts by appending a
 * random mark, and before each sync the node checks that the primary holds its newest mark at the
 * same seq. A copy restored from before that mark lacks it, or holds another mark there.
 */
import type { Client } from "@libsql/client";
import type { BatchStatement } from "../db/native.ts";
import type { Statements } from "../db/statements.ts";

/**
 * Marks kept on the primary (about 70 bytes each: 14 MB): a node that comes back further behind
 * than this cannot be checked, and rebuilds its replica rather than trust it.
 */
export const HISTORY_MARKS_KEPT = 200_000;
/** One write in this many also prunes the marks past HISTORY_MARKS_KEPT, a few rows at a time. */
const PRUNE_EVERY_WRITES = 1_000;

const INSERT_MARK_SQL = "INSERT INTO history_marks (mark, written_at) VALUES (?, ?)";
/** The same, only while the primary holds the writer's own newest mark: the write checks the history too. */
const INSERT_MARK_IF_HELD_SQL = `INSERT INTO history_marks (mark, written_at) SELECT ?, ?
  WHERE (SELECT mark FROM history_marks WHERE seq = ?) = ?`;
/**
 * A sync this soon after a write found the primary holding the replica's newest mark needs no
 * question of its own (the sync that follows a write at headquarters): a restore in between would
 * mean sqld stopped, was given another database and answered again within it.
 */
const CHECKED_BY_WRITE_MS = 100;
const PRUNE_MARKS_SQL = "DELETE FROM history_marks WHERE seq <= (SELECT max(seq) FROM history_marks) - ?";
const LOCAL_HEAD_SQL = "SELECT seq, mark FROM history_marks ORDER BY seq DESC LIMIT 1";
const HAS_TABLE_SQL = "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'history_marks'";
const PRIMARY_AT_SQL = `SELECT (SELECT mark FROM history_marks WHERE seq = ?) AS mark,
  (SELECT max(seq) FROM history_marks) AS head, (SELECT min(seq) FROM history_marks) AS oldest`;

export type HistoryVerdict = { diverged: false } | { diverged: true; reason: string };

function isMissingTable(error: unknown): boolean {
  return /no such table: history_marks/.test(error instanceof Error ? error.message : String(error));
}

type Head = { seq: number; mark: string };

/** A transaction's first statement: its mark, inserted only if the primary still holds `head`. */
export interface TransactionMark {
  statement: BatchStatement;
  head: Head | null;
}

/** The marks a node's writes carry, once the schema has the table (headquarters migrates at start). */
export class HistoryMarks {
  readonly #local: () => Statements;
  #ready = false;
  #writes = 0;
  #checked: (Head & { atMs: number }) | null = null;

  /** `local`: the replica's statements as they are now (they change when the replica is rebuilt). */
  constructor(local: () => Statements) {
    this.#local = local;
  }

  /** Looks at the replica for the table until it is there; cheap once it is. */
  async refresh(): Promise<void> {
    if (!this.#ready) this.#ready = (await this.#local().get(HAS_TABLE_SQL, [])) !== undefined;
  }

  /** The statements a batch sends first: its mark, and now and then the pruning. */
  statements(): BatchStatement[] {
    if (!this.#ready) return [];
    const mark = { sql: INSERT_MARK_SQL, args: [crypto.randomUUID(), new Date().toISOString()] };
    return this.#withPruning(mark);
  }

  /**
   * The statements a transaction runs first. Its mark goes in only while the primary holds this
   * replica's newest mark: none inserted means the primary diverged, and the transaction must not go on.
   */
  async forTransaction(): Promise<{ statements: BatchStatement[]; head: Head | null }> {
    if (!this.#ready) return { statements: [], head: null };
    const head = await localHead(this.#local());
    const args = [crypto.randomUUID(), new Date().toISOString()];
    const mark = head === null
      ? { sql: INSERT_MARK_SQL, args }
      : { sql: INSERT_MARK_IF_HELD_SQL, args: [...args, head.seq, head.mark] };
    return { statements: this.#withPruning(mark), head };
  }

  /** A write found the primary holding `head`. */
  checkedByWrite(head: Head): void {
    this.#checked = { ...head, atMs: Date.now() };
  }

  /** Whether a write found the primary holding `head` a moment ago. */
  recentlyChecked(head: Head): boolean {
    const checked = this.#checked;
    return checked !== null && checked.seq === head.seq && checked.mark === head.mark &&
      Date.now() - checked.atMs < CHECKED_BY_WRITE_MS;
  }

  #withPruning(mark: BatchStatement): BatchStatement[] {
    this.#writes = (this.#writes + 1) % PRUNE_EVERY_WRITES;
    return this.#writes === 0 ? [mark, { sql: PRUNE_MARKS_SQL, args: [HISTORY_MARKS_KEPT] }] : [mark];
  }
}

/** The newest mark this replica holds, or null before the first one. */
async function localHead(local: Statements): Promise<Head | null> {
  try {
    return (await local.get<Head>(LOCAL_HEAD_SQL, [])) ?? null;
  } catch (error) {
    if (isMissingTable(error)) return null;
    throw error;
  }
}

/**
 * Compares the replica's newest mark with the primary's mark at the same seq. Rejects when the
 * primary cannot be asked: nothing is synced then.
 */
export async function compareHistory(
  local: Statements,
  primary: Client,
  marks: HistoryMarks,
): Promise<HistoryVerdict> {
  const head = await localHead(local);
  if (head === null || marks.recentlyChecked(head)) return { diverged: false };
  let row: { mark: string | null; head: number | null; oldest: number | null };
  try {
    const result = await primary.execute({ sql: PRIMARY_AT_SQL, args: [head.seq] });
    row = result.rows[0] as unknown as typeof row;
  } catch (error) {
    if (!isMissingTable(error)) throw error;
    return { diverged: true, reason: "the primary is another database: it has no history of its writes" };
  }
  if (row.mark === head.mark) return { diverged: false };
  if (row.head === null || row.head < head.seq) {
    return {
      diverged: true,
      reason: `the primary went back in time: its history ends at write ${row.head ?? 0}, ` +
        `this replica holds write ${head.seq}`,
    };
  }
  if (row.mark === null && row.oldest !== null && head.seq < row.oldest) {
    return { diverged: true, reason: `this replica is older than the primary's kept history (write ${head.seq})` };
  }
  return {
    diverged: true,
    reason: `the primary's history differs from this replica's at write ${head.seq}: it was restored ` +
      `from a copy and has written other changes since`,
  };
}
