/**
 * Native libSQL connections to a database file: their PRAGMAs, and the batch writer that runs
 * statements between a BEGIN IMMEDIATE and its COMMIT with nothing awaited in between.
 */
import { setImmediate } from "node:timers";
import NativeDatabase from "libsql";
import type { Mutex } from "./mutex.ts";
import { type NativeConnection, type SqlRow, statementCache } from "./statements.ts";
import type { InValue } from "@libsql/client";

export const BUSY_TIMEOUT_MS = 5_000;

/**
 * The request log's connection checkpoints the WAL once it holds this many pages (8 MiB of 4 KiB
 * pages). It runs on the serving thread, so a checkpoint stops the event loop while it copies and
 * syncs; a smaller WAL also stays in the page cache (docs/bench.md).
 */
export const LOG_WRITER_CHECKPOINT_PAGES = 2_000;
/**
 * Every other connection checkpoints only past this, as a backstop should the log's writer not run:
 * at SQLite's default, any commit on the serving thread would copy what the log's writer left to
 * copy, with the event loop stopped.
 */
export const BACKSTOP_CHECKPOINT_PAGES = 2 * LOG_WRITER_CHECKPOINT_PAGES;

/** FULL: in WAL mode, NORMAL can lose the last commits on power loss; FULL cannot. */
export const CONNECTION_PRAGMAS = [
  "PRAGMA foreign_keys = ON",
  `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`,
  "PRAGMA synchronous = FULL",
  `PRAGMA wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`,
];

/** Commits without an fsync each: a power loss may forget the last ones, a process crash cannot. */
const BOOKKEEPING_PRAGMAS = [...CONNECTION_PRAGMAS, "PRAGMA synchronous = NORMAL"];
/**
 * The request log's connection: bookkeeping, never waiting in SQLite's busy handler (it runs on
 * the serving thread, see SERVING_BOOKKEEPING_PRAGMAS), and the connection that checkpoints the WAL.
 */
export const LOG_WRITER_PRAGMAS = [
  ...BOOKKEEPING_PRAGMAS,
  "PRAGMA busy_timeout = 0",
  `PRAGMA wal_autocheckpoint = ${LOG_WRITER_CHECKPOINT_PAGES}`,
];
/**
 * The serving thread's bookkeeping connection never sleeps in SQLite's busy handler, which would stop
 * the event loop while another connection (a transaction, another process) holds the write lock:
 * its BEGIN fails at once with SQLITE_BUSY, and beginWithoutBlocking() tries again on a later turn.
 * Nor does it checkpoint the WAL: it commits on most turns of the event loop, so it would be the
 * connection that crosses the threshold and copies the log with the event loop stopped.
 */
export const SERVING_BOOKKEEPING_PRAGMAS = [
  ...BOOKKEEPING_PRAGMAS,
  "PRAGMA busy_timeout = 0",
  "PRAGMA wal_autocheckpoint = 0",
];

/**
 * The replica's readers. Only its sync may write the file: a row written there by anything else
 * would never reach the primary and would break the replica ("database disk image is malformed"),
 * so every other connection refuses writes.
 */
export const REPLICA_READ_PRAGMAS = ["PRAGMA query_only = ON", `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`];

/** Tries of a busy BEGIN at the next turn of the event loop, before waiting a millisecond each. */
const IMMEDIATE_BUSY_RETRIES = 8;

export function openNative(url: string, pragmas: readonly string[] = CONNECTION_PRAGMAS): NativeConnection {
  const connection = new NativeDatabase(url.slice("file:".length));
  for (const pragma of pragmas) connection.exec(pragma);
  return connection;
}

/** SQLite's "database is locked": another connection holds the write lock. */
function isBusyError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "SQLITE_BUSY";
}

/**
 * BEGIN IMMEDIATE on a connection with busy_timeout 0: while another connection holds the write
 * lock, it is tried again on later turns of the event loop, for up to BUSY_TIMEOUT_MS, instead of
 * in SQLite's busy handler, which sleeps with the event loop stopped. `afterBegin` runs in the same
 * turn as the BEGIN that succeeded, before anything else on this thread can.
 */
async function beginWithoutBlocking<T>(connection: NativeConnection, afterBegin: () => T): Promise<T> {
  const startedMs = performance.now();
  for (let attempt = 1;; attempt++) {
    try {
      connection.exec("BEGIN IMMEDIATE");
    } catch (error) {
      if (!isBusyError(error) || performance.now() - startedMs >= BUSY_TIMEOUT_MS) throw error;
      await new Promise((resolve) =>
        attempt <= IMMEDIATE_BUSY_RETRIES ? setImmediate(resolve) : setTimeout(resolve, 1)
      );
      continue;
    }
    return afterBegin();
  }
}

/** Rolls back what a failed transaction left open, and throws its error on. */
function rollBack(connection: NativeConnection, error: unknown): never {
  if (connection.inTransaction) connection.exec("ROLLBACK");
  throw error;
}

export interface BatchStatement {
  sql: string;
  args: readonly InValue[];
  /** The statement returns rows (a SELECT, or RETURNING) that the caller reads. */
  returnsRows?: boolean;
}

export interface BatchResult {
  rows: SqlRow[];
  rowsAffected: number;
}

export type BatchWriter = (statements: readonly BatchStatement[]) => Promise<BatchResult[]>;

/**
 * Runs a batch in one transaction on `connection`, with nothing awaited between its BEGIN and its
 * COMMIT. A writer whose transaction awaits lets other code on its thread run while it holds the
 * write lock; if that code writes through another connection, SQLite's busy handler sleeps the
 * thread for the lock the thread itself holds, then fails with SQLITE_BUSY. With `yieldWhileBusy`,
 * a busy write lock is waited for on later turns of the event loop, never in the busy handler.
 */
export function nativeBatchWriter(
  connection: NativeConnection,
  mutex: Mutex,
  yieldWhileBusy: boolean,
): BatchWriter {
  const prepare = statementCache(connection);
  const commit = (batch: readonly BatchStatement[]) => (): BatchResult[] => {
    try {
      const results = batch.map((statement): BatchResult => {
        const prepared = prepare(statement.sql);
        return statement.returnsRows
          ? { rows: prepared.all(statement.args) as SqlRow[], rowsAffected: 0 }
          : { rows: [], rowsAffected: prepared.run(statement.args).changes };
      });
      connection.exec("COMMIT");
      return results;
    } catch (error) {
      rollBack(connection, error);
    }
  };
  return (batch) =>
    mutex.run(async () => {
      if (yieldWhileBusy) return await beginWithoutBlocking(connection, commit(batch));
      connection.exec("BEGIN IMMEDIATE");
      return commit(batch)();
    });
}
