/**
 * The database as the rest of the server sees it: one way to read, and two ways to write.
 *
 * - `read` (the query builder) serves queries outside transactions; `statements` is the same
 *   read connection's SQL prepared once and kept, for the per-request hot path (session check,
 *   key and code lookups), where the client would prepare every statement anew.
 * - `transaction` runs a function in one write transaction: every mutation with its audit row.
 * - `writeBatch` runs statements that need no read between them in one transaction: on a replica
 *   one round trip to the primary, locally with nothing awaited between BEGIN and COMMIT.
 *
 * db/ owns the database: this module and replicated.ts are the only ones that open connections
 * (native.ts holds the native connections' PRAGMAs and batch writer), with prepared statements
 * (statements.ts), migrations (migrate.ts) and change epochs (change_epochs.ts) beside them.
 */
import { type Client, createClient, type InValue } from "@libsql/client";
import { type SQL, sql } from "drizzle-orm";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import * as schema from "../../../db/schema.ts";
import { preparePrivateDatabaseFile } from "../file_modes.ts";
import type { ReplicaSync } from "../topology/replication.ts";
import type { RebuiltListener } from "./local_replica.ts";
import { ChangeEpochs } from "./change_epochs.ts";
import { Mutex } from "./mutex.ts";
import { nativeWriteClient } from "./native_client.ts";
import {
  type BatchResult,
  type BatchStatement,
  type BatchWriter,
  CONNECTION_PRAGMAS,
  LOG_WRITER_PRAGMAS,
  nativeBatchWriter,
  openNative,
  SERVING_BOOKKEEPING_PRAGMAS,
} from "./native.ts";
import {
  clientStatements,
  type NativeConnection,
  preparedStatements,
  type SqlRow,
  type Statements,
} from "./statements.ts";

export type Schema = typeof schema;
export type Db = LibSQLDatabase<Schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Either the read handle or an open transaction: for queries that work in both. */
export type Queryable = Db | Tx;

/** Where a shared writer (the ledger journal, the audit trail) runs its statements. */
export type Writer = Tx;

/**
 * Which connection a local batch commits on; a replica sends every batch to the primary.
 * - data: committed with an fsync, like a transaction;
 * - bookkeeping: may lose its last commits on a power loss, never on a process crash (the API
 *   keys' hourly counters): an fsync per counting batch would stall every request in flight.
 *   A busy write lock is waited for on later turns of the event loop (up to BUSY_TIMEOUT_MS);
 * - log: the request log's own bookkeeping connection, the one that checkpoints the WAL.
 */
export type BatchChannel = "data" | "bookkeeping" | "log";

export interface Database {
  /** The local file (standalone: the database itself; replicated roles: the embedded replica). */
  url: string;
  /** False for the replicated roles: the local file is a replica that only its sync writes. */
  writesLocal: boolean;
  /** The replica's sync and state; null for a standalone database. */
  replica: ReplicaSync | null;
  /** Reads the primary's clock (topology/clock.ts); null for a standalone database, which has none. */
  readPrimaryTime: (() => Promise<number>) | null;
  read: Db;
  /** The read connection's client: the reconciliation's read snapshot, and tools and tests that run SQL text as it is. */
  readClient: Client;
  /** Prepared statements on a read connection, outside any transaction. */
  statements: Statements;
  /** Fresh reads of the change epochs, for caches that must never be staler than the database. */
  epochs: ChangeEpochs;
  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE); commits when it resolves. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Statements that need no read between them, in one transaction; never syncs the replica. */
  writeBatch(
    statements: readonly BatchStatement[],
    options?: { channel?: BatchChannel },
  ): Promise<BatchResult[]>;
  /**
   * Replicated roles: `listener` hears of each rebuild of the replica after the primary was restored
   * (db/local_replica.ts), with where the diverged copy was set aside.
   */
  onRebuilt?(listener: RebuiltListener): void;
  close(): void;
}

export type { BatchResult, BatchStatement };

/** Throws unless `text` has one `?` placeholder per argument; returns the text split at them. */
function placeholderParts(text: string, args: readonly InValue[]): string[] {
  const parts = text.split("?");
  if (parts.length !== args.length + 1) {
    throw new Error(`${parts.length - 1} placeholders for ${args.length} arguments: ${text}`);
  }
  return parts;
}

/** SQL text with `?` placeholders as a query-builder fragment binding `args` in their place. */
function bound(text: string, args: readonly InValue[]): SQL {
  const parts = placeholderParts(text, args);
  return sql.join(
    parts.flatMap((part, i) => i === 0 ? [sql.raw(part)] : [sql`${args[i - 1]}`, sql.raw(part)]),
  );
}

/**
 * Prepared statements on the connection of the transaction they belong to: `statementsOf` finds
 * them for a local transaction, so its SQL text runs as prepared statements, not through the builder.
 */
const transactionStatements = new WeakMap<Tx, Statements>();

/** Prepared statements held to the same placeholder rule as `bound`. */
function checkedStatements(statements: Statements): Statements {
  const check = <T>(text: string, args: readonly InValue[], run: () => Promise<T>) => {
    try {
      placeholderParts(text, args);
    } catch (error) {
      return Promise.reject(error);
    }
    return run();
  };
  return {
    get: (text, args) => check(text, args, () => statements.get(text, args)),
    all: (text, args) => check(text, args, () => statements.all(text, args)),
    run: (text, args) => check(text, args, () => statements.run(text, args)),
  };
}

/** SQL text with positional arguments inside a transaction; SQL passed to it must not hold a literal `?`. */
export function statementsOf(writer: Writer): Statements {
  const prepared = transactionStatements.get(writer);
  if (prepared !== undefined) return prepared;
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

/**
 * The database as seen from inside an open transaction, so that a feature's own service function
 * runs in it unchanged: its "transaction" becomes a savepoint of `tx` (its rollback undoes only its
 * own writes; an error still reaches the caller), and its reads see what `tx` sees.
 */
export function databaseInTransaction(db: Database, tx: Tx): Database {
  const statements = statementsOf(tx);
  return {
    ...db,
    read: tx as unknown as Db,
    statements,
    transaction: (fn) => inSavepoint(statements, () => fn(tx)),
  };
}

/** Whether the native driver can open this URL (file databases only). */
export function isFileUrl(url: string): boolean {
  return url.startsWith("file:");
}

export async function ensureParentDir(url: string, options?: { create?: boolean }) {
  await preparePrivateDatabaseFile(url.slice("file:".length), options);
}

/** A batch through a client's own batch call: one atomic request, as a replica sends its primary. */
export function clientBatchWriter(client: Client): BatchWriter {
  return async (statements) => {
    const results = await client.batch(
      statements.map((statement) => ({ sql: statement.sql, args: [...statement.args] })),
      "write",
    );
    return results.map((result) => ({
      rows: result.rows as unknown as SqlRow[],
      rowsAffected: result.rowsAffected,
    }));
  };
}

async function openClient(url: string): Promise<Client> {
  const client = createClient({ url, concurrency: 1, intMode: "number" });
  if (isFileUrl(url)) {
    await client.execute("PRAGMA journal_mode = WAL");
    for (const pragma of CONNECTION_PRAGMAS) await client.execute(pragma);
  }
  return client;
}

/** The batch writers of a local file: data and bookkeeping connections, the log's opened on first use. */
function localBatchWriters(url: string, dataConnection: NativeConnection, mutex: Mutex) {
  const connections: NativeConnection[] = [dataConnection, openNative(url, SERVING_BOOKKEEPING_PRAGMAS)];
  const data = nativeBatchWriter(connections[0], mutex, false);
  const bookkeeping = nativeBatchWriter(connections[1], mutex, true);
  let log: BatchWriter | undefined;
  const logWriter = () => {
    if (log === undefined) {
      const connection = openNative(url, LOG_WRITER_PRAGMAS);
      connections.push(connection);
      // Serialised only among the log's own batches: against other connections SQLite's lock decides.
      log = nativeBatchWriter(connection, new Mutex(), true);
    }
    return log;
  };
  return {
    writer: (channel: BatchChannel) =>
      channel === "data" ? data : channel === "bookkeeping" ? bookkeeping : logWriter(),
    close: () => connections.forEach((connection) => connection.close()),
  };
}

export async function openDatabase(url: string): Promise<Database> {
  const file = isFileUrl(url);
  if (file) await ensureParentDir(url);
  const readClient = await openClient(url);
  const mutex = new Mutex();
  const nativeRead = file ? openNative(url) : null;
  const nativeWrite = file ? openNative(url) : null;
  const writeClient = nativeWrite === null ? await openClient(url) : null;
  const write = drizzle(nativeWrite === null ? writeClient! : nativeWriteClient(nativeWrite) as unknown as Client, {
    schema,
  });
  const local = nativeWrite === null ? null : localBatchWriters(url, nativeWrite, mutex);
  const inTransaction = nativeWrite === null ? null : checkedStatements(preparedStatements(nativeWrite));
  const clientBatch = writeClient === null ? null : clientBatchWriter(writeClient);
  const statements = nativeRead === null
    ? clientStatements((stmt) => readClient.execute(stmt))
    : preparedStatements(nativeRead);
  return {
    url,
    writesLocal: true,
    replica: null,
    readPrimaryTime: null,
    read: drizzle(readClient, { schema }),
    readClient,
    statements,
    epochs: new ChangeEpochs(statements),
    transaction: (fn) =>
      mutex.run(() =>
        write.transaction((tx) => {
          if (inTransaction !== null) transactionStatements.set(tx, inTransaction);
          return fn(tx);
        })
      ),
    writeBatch: (batch, { channel = "data" } = {}) =>
      local === null ? mutex.run(() => clientBatch!(batch)) : local.writer(channel)(batch),
    close() {
      readClient.close();
      writeClient?.close();
      nativeRead?.close();
      local?.close();
    },
  };
}
