/**
 * The query builder's write client for a database file: the subset of @libsql/client that
 * Drizzle's transactions use (`transaction`, and `execute` inside it), over one native connection
 * whose statements are prepared once per SQL text and kept: @libsql/client prepares every
 * statement anew, which dominates a short transaction such as a manual sweep's (docs/bench.md).
 * Values, rows and errors are converted exactly as @libsql/client does with intMode "number".
 */
import { type InStatement, type InValue, LibsqlError, type ResultSet, type Row } from "@libsql/client";
import type { NativeConnection } from "./statements.ts";

/** Statements are kept per SQL text; the query builder's SQL text is fixed per call site. */
const MAX_BUILDER_STATEMENTS = 512;
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_INT64 = -9223372036854775808n;
const MAX_INT64 = 9223372036854775807n;

type NativeStatement = ReturnType<NativeConnection["prepare"]>;
interface Prepared {
  statement: NativeStatement;
  /** Column names when the statement returns rows, or null. */
  columns: string[] | null;
}

function valueToSql(value: InValue | boolean | Date | undefined): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new RangeError("Only finite numbers (not Infinity or NaN) can be passed as arguments");
  }
  if (typeof value === "bigint" && (value < MIN_INT64 || value > MAX_INT64)) {
    throw new RangeError("bigint is too large to be represented as a 64-bit integer and passed as argument");
  }
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (value instanceof Date) return value.valueOf();
  if (value === undefined) throw new TypeError("undefined cannot be passed as argument to the database");
  return value;
}

function valueFromSql(value: unknown): unknown {
  if (typeof value === "bigint") {
    if (value < MIN_SAFE || value > MAX_SAFE) {
      throw new RangeError("Received integer which cannot be safely represented as a JavaScript number");
    }
    return Number(value);
  }
  if (value instanceof Buffer) return value.buffer;
  return value;
}

/** A row as @libsql/client makes it: indexed values, and the columns as enumerable properties. */
function rowFromSql(values: unknown[], columns: string[]): Row {
  const row: Record<string | number, unknown> = {};
  Object.defineProperty(row, "length", { value: values.length });
  for (let i = 0; i < values.length; i++) {
    const value = valueFromSql(values[i]);
    Object.defineProperty(row, i, { value });
    if (!Object.hasOwn(row, columns[i])) {
      Object.defineProperty(row, columns[i], { value, enumerable: true, configurable: true, writable: true });
    }
  }
  return row as unknown as Row;
}

function resultSet(columns: string[], rows: Row[], rowsAffected: number, lastInsertRowid?: bigint): ResultSet {
  const columnTypes = columns.map(() => "");
  return {
    columns,
    columnTypes,
    rows,
    rowsAffected,
    lastInsertRowid,
    toJSON: () => ({ columns, columnTypes, rows, rowsAffected, lastInsertRowid: lastInsertRowid?.toString() }),
  };
}

function preparer(connection: NativeConnection): (sql: string) => Prepared {
  const cache = new Map<string, Prepared>();
  return (sql) => {
    let prepared = cache.get(sql);
    if (prepared === undefined) {
      if (cache.size >= MAX_BUILDER_STATEMENTS) cache.clear();
      const statement = connection.prepare(sql);
      statement.safeIntegers(true);
      let columns: string[] | null = null;
      try {
        // raw() throws for a statement that returns no rows.
        statement.raw(true);
        columns = statement.columns().map((column: { name: string }) => column.name);
      } catch {
        columns = null;
      }
      prepared = { statement, columns };
      cache.set(sql, prepared);
    }
    return prepared;
  };
}

/** SQLite's error as @libsql/client reports it: "SQLITE_CONSTRAINT: UNIQUE constraint failed: …". */
function libsqlError(error: unknown): unknown {
  const { code, rawCode } = error as { code?: unknown; rawCode?: unknown };
  if (!(error instanceof Error) || typeof code !== "string" || !code.startsWith("SQLITE_")) return error;
  const baseCode = code.split("_").slice(0, 2).join("_");
  return new LibsqlError(error.message, baseCode, code, typeof rawCode === "number" ? rawCode : undefined, error);
}

function executor(connection: NativeConnection): (stmt: InStatement) => ResultSet {
  const prepare = preparer(connection);
  return (stmt) => {
    const sql = typeof stmt === "string" ? stmt : stmt.sql;
    const rawArgs = typeof stmt === "string" ? [] : stmt.args ?? [];
    if (!Array.isArray(rawArgs)) throw new TypeError("named arguments are not used by the query builder");
    const args = rawArgs.map(valueToSql);
    const { statement, columns } = prepare(sql);
    if (columns !== null) {
      const rows = (statement.all(args) as unknown[][]).map((values) => rowFromSql(values, columns));
      return resultSet(columns, rows, 0);
    }
    const info = statement.run(args);
    return resultSet([], [], info.changes, BigInt(info.lastInsertRowid));
  };
}

/** What Drizzle's transaction asks of its client's transaction object. */
export interface NativeWriteTransaction {
  execute(stmt: InStatement): Promise<ResultSet>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  close(): void;
}

/**
 * A write client over `connection` for Drizzle: `transaction()` begins IMMEDIATE on it. The
 * caller serialises transactions (the database's write mutex).
 */
export function nativeWriteClient(connection: NativeConnection) {
  const execute = executor(connection);
  const run = (stmt: InStatement) => {
    try {
      return Promise.resolve(execute(stmt));
    } catch (error) {
      return Promise.reject(libsqlError(error));
    }
  };
  const exec = (sql: string) => {
    try {
      connection.exec(sql);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(libsqlError(error));
    }
  };
  return {
    execute: run,
    async transaction(): Promise<NativeWriteTransaction> {
      await exec("BEGIN IMMEDIATE");
      const end = (sql: string) => () => connection.inTransaction ? exec(sql) : Promise.resolve();
      return { execute: run, commit: end("COMMIT"), rollback: end("ROLLBACK"), close: () => {} };
    },
    close: () => {},
  };
}
