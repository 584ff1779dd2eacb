/**
 * Prepared statements: SQL text with positional `?` arguments, prepared once per text on a native
 * connection and kept, or run through a client for URLs the native driver does not open.
 */
import type { Client, InValue } from "@libsql/client";
import type NativeDatabase from "libsql";

/** One row as an object keyed by column name. */
export type SqlRow = Record<string, unknown>;

/** Prepared statements by SQL text; positional `?` arguments. */
export interface Statements {
  get<T extends SqlRow>(sql: string, args: readonly InValue[]): Promise<T | undefined>;
  all<T extends SqlRow>(sql: string, args: readonly InValue[]): Promise<T[]>;
  /** Runs a statement that returns no rows; resolves to the number of rows it changed. */
  run(sql: string, args: readonly InValue[]): Promise<number>;
}

/** Statements are kept per SQL text; a caller that builds SQL per call must not use them. */
export const MAX_PREPARED_STATEMENTS = 256;

export type NativeConnection = NativeDatabase.Database;
type NativeStatement = NativeDatabase.Statement;

/** Prepares each SQL text once on `connection`, and keeps it. */
export function statementCache(connection: NativeConnection): (sql: string) => NativeStatement {
  const cache = new Map<string, NativeStatement>();
  return (sql) => {
    let statement = cache.get(sql);
    if (statement === undefined) {
      if (cache.size >= MAX_PREPARED_STATEMENTS) {
        throw new Error(`more than ${MAX_PREPARED_STATEMENTS} prepared statements: is SQL built per call?`);
      }
      statement = connection.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
}

/** Statements prepared once per SQL text on one native connection. */
export function preparedStatements(connection: NativeConnection): Statements {
  const prepare = statementCache(connection);
  return {
    get: <T extends SqlRow>(sql: string, args: readonly InValue[]) => {
      try {
        // Rows of get() also carry a `_metadata` field; callers read their columns by name.
        return Promise.resolve(prepare(sql).get(args) as T | undefined);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    all: <T extends SqlRow>(sql: string, args: readonly InValue[]) => {
      try {
        return Promise.resolve(prepare(sql).all(args) as T[]);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    run: (sql: string, args: readonly InValue[]) => {
      try {
        return Promise.resolve(prepare(sql).run(args).changes);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}

/** The same interface over a client, for database URLs the native driver does not open. */
export function clientStatements(execute: Client["execute"]): Statements {
  return {
    get: async <T extends SqlRow>(sql: string, args: readonly InValue[]) =>
      (await execute({ sql, args: [...args] })).rows[0] as unknown as T | undefined,
    all: async <T extends SqlRow>(sql: string, args: readonly InValue[]) =>
      (await execute({ sql, args: [...args] })).rows as unknown as T[],
    run: async (sql: string, args: readonly InValue[]) =>
      (await execute({ sql, args: [...args] })).rowsAffected,
  };
}
