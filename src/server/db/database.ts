/**
 * The only module that opens database connections.
 *
 * Two single-connection libSQL clients share one file: `read` serves queries outside transactions,
 * `write` serves transactions, one at a time through a mutex. With one connection per client the
 * per-connection PRAGMAs set at open stay in force for the life of the process.
 *
 * The per-request hot path (session check, request log, API key counters, code lookups) uses
 * `statements` instead: SQL prepared once and kept, on two more connections of the same file. The
 * client prepares every statement anew and converts every row through several native calls:
 * 37 µs for the session query, against 3 µs prepared (bench/db_statements.ts).
 */
import { setImmediate } from "node:timers";
import { type Client, createClient, type InValue } from "@libsql/client";
import NativeDatabase from "libsql";
import { type SQL, sql } from "drizzle-orm";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import * as schema from "../../../db/schema.ts";
import { ChangeEpochs } from "./change_epochs.ts";
import { AppError } from "../http/errors.ts";
import { preparePrivateDatabaseFile } from "../file_modes.ts";
import { Mutex } from "./mutex.ts";
import {
  clientStatements,
  type NativeConnection,
  preparedStatements,
  type SqlRow,
  statementCache,
  type Statements,
} from "./statements.ts";
import { isStatementError, isUnreachableError, ReplicaSync } from "../topology/replication.ts";

export type Schema = typeof schema;
export type Db = LibSQLDatabase<Schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Either the read handle or an open transaction: for queries that work in both. */
export type Queryable = Db | Tx;

export const BUSY_TIMEOUT_MS = 5_000;

/**
 * The request log's connection checkpoints the WAL once it holds this many pages (8 MiB of 4 KiB
 * pages). It runs on the serving thread, so a checkpoint stops the event loop while it copies and
 * syncs: at 10,000 pages (the figure while the log had a thread of its own) the stops put p99 at
 * 60 ms in the CPU-cost bench, at 2,000 pages 23 ms, and the CPU per request fell too (a smaller
 * WAL stays in the page cache); 1,000 pages measured no better (docs/bench.md).
 */
export const LOG_WRITER_CHECKPOINT_PAGES = 2_000;
/**
 * Every other connection checkpoints only past this, as a backstop should the log's writer not run:
 * at SQLite's default, any commit on the serving thread would copy what the log's writer left to
 * copy, with the event loop stopped.
 */
export const BACKSTOP_CHECKPOINT_PAGES = 2 * LOG_WRITER_CHECKPOINT_PAGES;

/** FULL: in WAL mode, NORMAL can lose the last commits on power loss; FULL cannot. */
const CONNECTION_PRAGMAS = [
  "PRAGMA foreign_keys = ON",
  `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`,
  "PRAGMA synchronous = FULL",
  `PRAGMA wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`,
];

/**
 * Where a shared writer (the ledger journal, the audit trail) runs its statements: prepared
 * statements of `writeStatements`, or a query-builder transaction of `transaction`.
 */
export type Writer = Tx | Statements;

/** SQL text with `?` placeholders as a query-builder fragment binding `args` in their place. */
function bound(text: string, args: readonly InValue[]): SQL {
  const parts = text.split("?");
  if (parts.length !== args.length + 1) {
    throw new Error(`${parts.length - 1} placeholders for ${args.length} arguments: ${text}`);
  }
  return sql.join(
    parts.flatMap((part, i) => i === 0 ? [sql.raw(part)] : [sql`${args[i - 1]}`, sql.raw(part)]),
  );
}

/** The statements interface over either kind of writer; SQL passed to it must not hold a literal `?`. */
export function statementsOf(writer: Writer): Statements {
  if (!("select" in writer)) return writer;
  return {
    get: async <T extends SqlRow>(text: string, args: readonly InValue[]) =>
      (await writer.all<T>(bound(text, args)))[0],
    all: (text, args) => writer.all(bound(text, args)),
    run: async (text, args) => (await writer.run(bound(text, args))).rowsAffected,
  };
}

const SAVEPOINT = "atomic_step";

/**
 * Runs `fn` inside a savepoint of the writer's open transaction: when `fn` throws, what it wrote is
 * rolled back and the transaction goes on.
 */
export async function inSavepoint<T>(statements: Statements, fn: () => Promise<T>): Promise<T> {
  await statements.run(`SAVEPOINT ${SAVEPOINT}`, []);
  try {
    const result = await fn();
    await statements.run(`RELEASE ${SAVEPOINT}`, []);
    return result;
  } catch (error) {
    await statements.run(`ROLLBACK TO ${SAVEPOINT}`, []);
    await statements.run(`RELEASE ${SAVEPOINT}`, []);
    throw error;
  }
}

export interface Database {
  /** The local file (standalone: the database itself; replicated roles: the embedded replica). */
  url: string;
  /**
   * False for the replicated roles: the local file is a replica that only its sync writes, and
   * `transaction`, `writeStatements` and `bookkeepingStatements` run on the primary.
   */
  writesLocal: boolean;
  /** The replica's sync and state; null for a standalone database. */
  replica: ReplicaSync | null;
  read: Db;
  readClient: Client;
  /** Prepared statements on a read connection, outside any transaction. */
  statements: Statements;
  /** Fresh reads of the change epochs, for caches that must never be staler than the database. */
  epochs: ChangeEpochs;
  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE); commits when it resolves. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Like `transaction`, with prepared statements instead of the query builder. */
  writeStatements<T>(fn: (statements: Statements) => Promise<T>): Promise<T>;
  /**
   * Like `writeStatements`, for bookkeeping that may lose its last commits on a power loss (never on
   * a process crash): the API keys' hourly counters. Its commits skip the fsync (synchronous =
   * NORMAL), which would otherwise stall every request in flight once per counting batch. Commits
   * of the other connections still fsync the log, and with it everything before them. For a file
   * database it waits for another connection's write lock on later turns of the event loop, never
   * with the event loop stopped (up to BUSY_TIMEOUT_MS, then it rejects with SQLITE_BUSY).
   */
  bookkeepingStatements<T>(fn: (statements: Statements) => Promise<T>): Promise<T>;
  /**
   * Statements that need no read between them, in one transaction: on a replica, one round trip to
   * the primary that holds no lock across the WAN (a batch), where `writeStatements` would hold the
   * primary's write lock for a round trip per statement. With `bookkeeping`, a standalone database
   * commits like `bookkeepingStatements`. Never syncs the replica afterwards.
   */
  writeBatch(
    statements: readonly BatchStatement[],
    options?: { bookkeeping?: boolean },
  ): Promise<BatchResult[]>;
  close(): void;
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

/** writeBatch over a writer that runs statements one by one inside its own transaction. */
function batchOver(
  write: Database["writeStatements"],
): (statements: readonly BatchStatement[]) => Promise<BatchResult[]> {
  return (batch) =>
    write(async (statements) => {
      const results: BatchResult[] = [];
      for (const statement of batch) {
        results.push(
          statement.returnsRows
            ? { rows: await statements.all(statement.sql, statement.args), rowsAffected: 0 }
            : { rows: [], rowsAffected: await statements.run(statement.sql, statement.args) },
        );
      }
      return results;
    });
}

async function ensureParentDir(url: string, options?: { create?: boolean }) {
  await preparePrivateDatabaseFile(url.slice("file:".length), options);
}

async function openClient(url: string): Promise<Client> {
  const client = createClient({ url, concurrency: 1, intMode: "number" });
  if (isFileUrl(url)) {
    await client.execute("PRAGMA journal_mode = WAL");
    for (const pragma of CONNECTION_PRAGMAS) await client.execute(pragma);
  }
  return client;
}

/** Tries of a busy BEGIN at the next turn of the event loop, before waiting a millisecond each. */
const IMMEDIATE_BUSY_RETRIES = 8;

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

/**
 * BEGIN IMMEDIATE, then `afterBegin` in the same turn of the event loop; with `yieldWhileBusy`, a
 * busy write lock is waited for on later turns, never in SQLite's busy handler.
 */
async function beginImmediate<T>(
  connection: NativeConnection,
  yieldWhileBusy: boolean,
  afterBegin: () => T,
): Promise<T> {
  if (yieldWhileBusy) return await beginWithoutBlocking(connection, afterBegin);
  connection.exec("BEGIN IMMEDIATE");
  return afterBegin();
}

/** Rolls back what a failed transaction left open, and throws its error on. */
function rollBack(connection: NativeConnection, error: unknown): never {
  if (connection.inTransaction) connection.exec("ROLLBACK");
  throw error;
}

function nativeWriteStatements(
  connection: NativeConnection,
  mutex: Mutex,
  { yieldWhileBusy = false }: { yieldWhileBusy?: boolean } = {},
): Database["writeStatements"] {
  const statements = preparedStatements(connection);
  return <T>(fn: (statements: Statements) => Promise<T>) =>
    mutex.run(async () => {
      // Wrapped, so that a body that throws before its first await is rolled back like any other.
      const running = await beginImmediate(connection, yieldWhileBusy, () => ({
        result: new Promise<T>((resolve) => resolve(fn(statements))),
      }));
      try {
        const result = await running.result;
        connection.exec("COMMIT");
        return result;
      } catch (error) {
        rollBack(connection, error);
      }
    });
}

function clientWriteStatements(client: Client, mutex: Mutex): Database["writeStatements"] {
  return (fn) =>
    mutex.run(async () => {
      const transaction = await client.transaction("write");
      try {
        const result = await fn(clientStatements((stmt) => transaction.execute(stmt)));
        await transaction.commit();
        return result;
      } finally {
        transaction.close();
      }
    });
}

/** Whether `openWriter` can open this URL (file databases only). */
export function isFileUrl(url: string): boolean {
  return url.startsWith("file:");
}

/** Commits without an fsync each: a power loss may forget the last ones, a process crash cannot. */
const BOOKKEEPING_PRAGMAS = [...CONNECTION_PRAGMAS, "PRAGMA synchronous = NORMAL"];
/**
 * The request log's connection: bookkeeping, never waiting in SQLite's busy handler (it runs on
 * the serving thread, see SERVING_BOOKKEEPING_PRAGMAS), and the connection that checkpoints the WAL.
 */
const LOG_WRITER_PRAGMAS = [
  ...BOOKKEEPING_PRAGMAS,
  "PRAGMA busy_timeout = 0",
  `PRAGMA wal_autocheckpoint = ${LOG_WRITER_CHECKPOINT_PAGES}`,
];
/**
 * The serving thread's bookkeeping connection never sleeps in SQLite's busy handler, which would stop
 * the event loop while another connection (a transaction, another process) holds the write lock:
 * its BEGIN fails at once with SQLITE_BUSY, and beginWithoutBlocking() tries again on a later turn.
 * Nor does it checkpoint the WAL: it commits on most turns of the event loop, so it was the
 * connection that crossed the auto-checkpoint threshold and copied a thousand pages (and synced the
 * file) with the event loop stopped. The request log's connection checkpoints, once per
 * LOG_WRITER_CHECKPOINT_PAGES.
 */
const SERVING_BOOKKEEPING_PRAGMAS = [
  ...BOOKKEEPING_PRAGMAS,
  "PRAGMA busy_timeout = 0",
  "PRAGMA wal_autocheckpoint = 0",
];

/**
 * The replica's readers. Only its sync may write the file: a row written there by anything else
 * would never reach the primary and would break the replica (measured: "database disk image is
 * malformed"), so every other connection refuses writes.
 */
const REPLICA_READ_PRAGMAS = ["PRAGMA query_only = ON", `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`];

/** SQLite's "database is locked": another connection holds the write lock. */
function isBusyError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "SQLITE_BUSY";
}

/**
 * One more write connection with prepared statements. With `logWriter` it is the request log's, on
 * the serving thread: its commits skip the fsync like the hourly counters', a busy write lock is
 * waited for on later turns of the event loop, and it is the connection that checkpoints the WAL.
 * Its transactions are serialised only among themselves: against other connections and processes,
 * SQLite's lock decides.
 */
export function openWriter(
  url: string,
  { logWriter = false }: { logWriter?: boolean } = {},
): {
  writeStatements: Database["writeStatements"];
  /**
   * Runs `statements` in one transaction with nothing awaited between its BEGIN and its COMMIT.
   * A writer whose transaction awaits lets other code on its thread run while it holds the write
   * lock; if that code writes through another connection (a ledger transaction), SQLite's busy
   * handler sleeps the thread for the lock the thread itself holds, BUSY_TIMEOUT_MS, then fails
   * with SQLITE_BUSY. That deadlock is what the request log's first serving-thread writer hit.
   */
  writeAtOnce(statements: readonly BatchStatement[]): Promise<void>;
  close(): void;
} {
  const connection = openNative(url, logWriter ? LOG_WRITER_PRAGMAS : CONNECTION_PRAGMAS);
  const mutex = new Mutex();
  const prepare = statementCache(connection);
  return {
    writeStatements: nativeWriteStatements(connection, mutex, { yieldWhileBusy: logWriter }),
    writeAtOnce: (statements) =>
      mutex.run(() =>
        beginImmediate(connection, logWriter, () => {
          try {
            for (const statement of statements) prepare(statement.sql).run(statement.args);
            connection.exec("COMMIT");
          } catch (error) {
            rollBack(connection, error);
          }
        })
      ),
    close: () => connection.close(),
  };
}

function openNative(url: string, pragmas: readonly string[] = CONNECTION_PRAGMAS): NativeConnection {
  const connection = new NativeDatabase(url.slice("file:".length));
  for (const pragma of pragmas) connection.exec(pragma);
  return connection;
}

export interface PrimaryOptions {
  syncUrl: string;
  authToken: string;
  syncIntervalMs: number;
  /**
   * Sync the replica after every committed write before returning, so that this process reads its
   * own writes at once (headquarters, where the primary is near); otherwise the caller syncs.
   */
  syncAfterWrite: boolean;
}

/** How long a node without a local copy waits for the primary before refusing to start. */
export const FIRST_SYNC_WAIT_MS = 60_000;
const FIRST_SYNC_RETRY_MS = 1_000;

/** Whether the replica file holds a copy: it is created empty (mode 0600) before the first sync. */
async function holdsCopy(path: string): Promise<boolean> {
  try {
    const stat = await Deno.stat(path);
    return stat.isFile && stat.size > 0;
  } catch {
    return false;
  }
}

/**
 * Opens `url` (a file) as an embedded replica of the primary: reads are local, writes go to the
 * primary. With a local copy already there it opens even while the primary is unreachable (and
 * catches up once it answers); without one it waits up to FIRST_SYNC_WAIT_MS for a first copy.
 */
export async function openReplicatedDatabase(url: string, primary: PrimaryOptions): Promise<Database> {
  if (!isFileUrl(url)) throw new Error(`the replica must be a file: URL, got ${url}`);
  await ensureParentDir(url, { create: false });
  const replica = new ReplicaSync({
    url,
    syncUrl: primary.syncUrl,
    authToken: primary.authToken,
    intervalMs: primary.syncIntervalMs,
  });
  const hasCopy = await holdsCopy(url.slice("file:".length));
  const deadlineMs = Date.now() + FIRST_SYNC_WAIT_MS;
  for (;;) {
    try {
      await replica.syncNow();
      break;
    } catch (error) {
      if (hasCopy) {
        console.warn(
          `The primary at ${primary.syncUrl} cannot be reached; serving the local copy until it answers.`,
        );
        break;
      }
      if (Date.now() >= deadlineMs) {
        void replica.close();
        throw new Error(
          `The primary at ${primary.syncUrl} could not be reached within ${
            FIRST_SYNC_WAIT_MS / 1000
          } s and there is ` +
            `no local copy yet: ${error instanceof Error ? error.message : error}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, FIRST_SYNC_RETRY_MS));
    }
  }
  // The first sync created the replica's files with the umask's mode: owner-only from here on.
  await ensureParentDir(url, { create: false });
  replica.startPeriodic();

  const readClient = createClient({ url, concurrency: 1, intMode: "number" });
  for (const pragma of REPLICA_READ_PRAGMAS) await readClient.execute(pragma);
  const read = drizzle(readClient, { schema });
  const primaryClient = createClient({
    url: primary.syncUrl,
    authToken: primary.authToken,
    intMode: "number",
  });
  const write = drizzle(primaryClient, { schema });
  const natives = [openNative(url, REPLICA_READ_PRAGMAS)];
  const statements = preparedStatements(natives[0]);
  const mutex = new Mutex();
  // A failure to reach the primary is a 503 that says since when the figures are, never a 500.
  // An error that is neither a refused statement nor clearly the network (a connection dropped
  // mid-answer, a transaction the client closed) is asked of the primary itself with a sync.
  const onPrimary = async <T>(
    fn: () => Promise<T>,
    { syncAfter = primary.syncAfterWrite } = {},
  ): Promise<T> => {
    let result: T;
    try {
      result = await fn();
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (isUnreachableError(error)) throw replica.pausedError();
      if (!isStatementError(error) && !await replica.syncNow().then(() => true, () => false)) {
        throw replica.pausedError();
      }
      throw error;
    }
    if (syncAfter) await replica.syncNow().catch(() => {});
    return result;
  };
  const writeStatements = clientWriteStatements(primaryClient, mutex);
  return {
    url,
    writesLocal: false,
    replica,
    read,
    readClient,
    statements,
    epochs: new ChangeEpochs(statements),
    transaction: (fn) => onPrimary(() => mutex.run(() => write.transaction(fn))),
    writeStatements: (fn) => onPrimary(() => writeStatements(fn)),
    bookkeepingStatements: (fn) => onPrimary(() => writeStatements(fn)),
    writeBatch: (statements) =>
      onPrimary(async () => {
        const results = await primaryClient.batch(
          statements.map((statement) => ({ sql: statement.sql, args: [...statement.args] })),
          "write",
        );
        return results.map((result) => ({
          rows: result.rows as unknown as SqlRow[],
          rowsAffected: result.rowsAffected,
        }));
      }, { syncAfter: false }),
    close() {
      readClient.close();
      primaryClient.close();
      for (const connection of natives) connection.close();
      // Last: the replica's own connection is the one that may checkpoint its log on close.
      void replica.close();
    },
  };
}

export async function openDatabase(url: string): Promise<Database> {
  if (isFileUrl(url)) await ensureParentDir(url);
  const readClient = await openClient(url);
  const writeClient = await openClient(url);
  const read = drizzle(readClient, { schema });
  const write = drizzle(writeClient, { schema });
  const mutex = new Mutex();
  const transaction = <T>(fn: (tx: Tx) => Promise<T>) => mutex.run(() => write.transaction(fn));
  const natives = isFileUrl(url)
    ? [
      openNative(url),
      openNative(url),
      openNative(url, SERVING_BOOKKEEPING_PRAGMAS),
    ]
    : [];
  const [nativeRead, nativeWrite, nativeBookkeeping] = natives;
  const writeStatements = nativeWrite === undefined
    ? clientWriteStatements(writeClient, mutex)
    : nativeWriteStatements(nativeWrite, mutex);
  const bookkeepingStatements = nativeBookkeeping === undefined
    ? writeStatements
    : nativeWriteStatements(nativeBookkeeping, mutex, { yieldWhileBusy: true });
  const statements = nativeRead === undefined
    ? clientStatements((stmt) => readClient.execute(stmt))
    : preparedStatements(nativeRead);
  return {
    url,
    writesLocal: true,
    replica: null,
    read,
    readClient,
    statements,
    epochs: new ChangeEpochs(statements),
    transaction,
    writeStatements,
    bookkeepingStatements,
    writeBatch: (statements, options = {}) =>
      batchOver(options.bookkeeping ? bookkeepingStatements : writeStatements)(statements),
    close() {
      readClient.close();
      writeClient.close();
      for (const connection of natives) connection.close();
    },
  };
}
