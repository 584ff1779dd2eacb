/**
 * Staging an import's new rows so that its final transaction stays short on the replicated topology:
 * the rows are written into registry_import_staging in bounded batches, each in its own transaction
 * under the change deadline (other changes go on between them), and the final transaction moves them
 * into their tables with one INSERT ... SELECT per table, run inside the database, then writes their
 * first versions in one statement per table. Until it commits no reader sees any of them.
 */
import { getTableConfig } from "drizzle-orm/sqlite-core";
import type { Database, Tx } from "../../db/database.ts";
import { statementsOf } from "../../db/database.ts";
import { type CreationStamp, recordBulkCreationVersions } from "../../registry_history/initial_versions.ts";
import { REGISTRY_TABLES } from "../../registry_history/versions.ts";
import { CHANGE_DEADLINE_MS, withDeadline } from "../../topology/deadline.ts";
import type { NewRows } from "./apply.ts";

/** Rows per staging statement: five parameters each, far below SQLite's bound; one short transaction each. */
export const IMPORT_STAGING_BATCH_ROWS = 500;

type StagedType = keyof NewRows;
const STAGED_TYPES: readonly StagedType[] = ["institution", "routing_code", "swift_code"];

/** Drizzle property name → SQL column name, for the table of `entityType`. */
function columnNames(entityType: StagedType): Map<string, string> {
  const table = REGISTRY_TABLES[entityType];
  const properties = Object.entries(table as unknown as Record<string, unknown>);
  return new Map(
    getTableConfig(table).columns.map((column) => {
      const property = properties.find(([, value]) => value === column)![0];
      return [property, column.name];
    }),
  );
}

/** A row keyed by SQL column name, values as SQLite stores them. */
function stagedJson(row: Record<string, unknown>, columns: Map<string, string>): string {
  const data: Record<string, unknown> = {};
  for (const [property, value] of Object.entries(row)) {
    if (value !== undefined) data[columns.get(property)!] = value;
  }
  return JSON.stringify(data);
}

/** Removes what an earlier attempt staged; an attempt starts from nothing. */
export async function discardStaged(db: Database, importId: string): Promise<void> {
  await withDeadline(
    Date.now() + CHANGE_DEADLINE_MS,
    () =>
      db.transaction((tx) =>
        statementsOf(tx).run("DELETE FROM registry_import_staging WHERE import_id = ?", [importId])
      ),
  );
}

/** Writes the new rows into the staging table, one bounded batch per transaction. */
export async function stageRows(db: Database, importId: string, rows: NewRows): Promise<void> {
  for (const entityType of STAGED_TYPES) {
    const columns = columnNames(entityType);
    const all = rows[entityType] as Record<string, unknown>[];
    for (let start = 0; start < all.length; start += IMPORT_STAGING_BATCH_ROWS) {
      const batch = all.slice(start, start + IMPORT_STAGING_BATCH_ROWS);
      const args = batch.flatMap((
        row,
        i,
      ) => [importId, entityType, start + i, row.id as string, stagedJson(row, columns)]);
      await withDeadline(Date.now() + CHANGE_DEADLINE_MS, () =>
        db.transaction((tx) =>
          statementsOf(tx).run(
            `INSERT INTO registry_import_staging (import_id, entity_type, seq, entity_id, data) VALUES ${
              batch.map(() => "(?, ?, ?, ?, ?)").join(", ")
            }`,
            args,
          )
        ));
    }
  }
}

/** The columns a staged row of `entityType` carries: every row of a type has the same. */
function stagedColumns(rows: NewRows, entityType: StagedType): string[] {
  const [first] = rows[entityType] as Record<string, unknown>[];
  const columns = columnNames(entityType);
  return Object.entries(first).filter(([, value]) => value !== undefined).map(([property]) =>
    columns.get(property)!
  );
}

/**
 * In the final transaction: moves the staged rows into their tables and writes their first versions.
 * Answers how many rows it moved, which the caller compares with what it staged.
 */
export async function moveStaged(
  tx: Tx,
  importId: string,
  rows: NewRows,
  stamp: CreationStamp,
): Promise<number> {
  const statements = statementsOf(tx);
  let moved = 0;
  for (const entityType of STAGED_TYPES) {
    if (rows[entityType].length === 0) continue;
    const columns = stagedColumns(rows, entityType);
    const table = getTableConfig(REGISTRY_TABLES[entityType]).name;
    moved += await statements.run(
      `INSERT INTO ${table} (${columns.join(", ")})
        SELECT ${columns.map((column) => `json_extract(s.data, '$.${column}')`).join(", ")}
        FROM registry_import_staging s WHERE s.import_id = ? AND s.entity_type = ? ORDER BY s.seq`,
      [importId, entityType],
    );
    await recordBulkCreationVersions(
      tx,
      entityType,
      "SELECT entity_id FROM registry_import_staging WHERE import_id = ? AND entity_type = ?",
      [importId, entityType],
      stamp,
    );
  }
  return moved;
}
