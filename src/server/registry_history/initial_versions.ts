/**
 * Every registry record has at least one version: the one it was registered with. Rows written before
 * versions existed, or by a seeder in bulk, get theirs here at start, in one statement per table
 * built from the Drizzle schema so that a new column is carried without a second list of columns.
 * Only the rows queued in registry_unversioned (a trigger queues every insert, migration 1520) are
 * looked at, so that a start costs what was inserted since the previous one, not a pass over the
 * whole registry.
 */
import { getTableConfig, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type Database, statementsOf, type Tx } from "../db/database.ts";
import { REGISTRY_TABLES, type RegistryEntityType } from "./versions.ts";

/** The instant a record was registered with, per table. */
const REGISTERED_AT: Readonly<Record<RegistryEntityType, string>> = {
  institution: "created_at",
  routing_code: "created_at",
  swift_code: "created_at",
  national_routing_entry: "registration_date",
};

function jsonValue(column: SQLiteColumn): string {
  if (column.columnType === "SQLiteBoolean") return `json(CASE WHEN t.${column.name} THEN 'true' ELSE 'false' END)`;
  if (column.columnType === "SQLiteTextJson") return `json(t.${column.name})`;
  return `t.${column.name}`;
}

/** `json_object(...)` of a row `t` of the table, keyed by Drizzle property name (the versions' shape). */
function rowJson(entityType: RegistryEntityType): string {
  const table = REGISTRY_TABLES[entityType];
  const properties = Object.entries(table as unknown as Record<string, unknown>);
  const pairs = getTableConfig(table).columns.map((column) => {
    const property = properties.find(([, value]) => value === column)![0];
    return `'${property}', ${jsonValue(column)}`;
  });
  return `json_object(${pairs.join(", ")})`;
}

/**
 * CROSS JOIN keeps the queue as the outer loop: statistics taken while it was long must not turn the
 * statement into a scan of the whole table.
 */
function backfillStatement(entityType: RegistryEntityType): string {
  const at = `t.${REGISTERED_AT[entityType]}`;
  return `INSERT INTO registry_versions (entity_type, entity_id, valid_from, data, changes, summary, requested_by,
      applied_at, created_at)
    SELECT '${entityType}', t.id, ${at}, ${rowJson(entityType)}, '{}', 'Registered', NULL, ${at}, ${at}
    FROM registry_unversioned q CROSS JOIN ${getTableConfig(REGISTRY_TABLES[entityType]).name} t
    WHERE q.entity_type = '${entityType}' AND t.id = q.entity_id
      AND NOT EXISTS (SELECT 1 FROM registry_versions v WHERE v.entity_type = '${entityType}' AND v.entity_id = t.id)`;
}

/** Who and what a bulk writer's creation versions name. */
export interface CreationStamp {
  /** The instant the rows were written, in force at once. */
  at: string;
  summary: string;
  requestedBy: string | null;
  approvedBy: string | null;
  approvalRequestId: string | null;
}

/**
 * The first version of rows a bulk writer (the registry import) has just inserted in `tx`, in one
 * statement: the whole row as data and as changes, as recordVersion records a creation, without a
 * read per row. `idsQuery` is a SELECT of the new rows' ids (with `idsArgs`), so that any number of
 * rows travels as one statement. Answers how many versions it wrote.
 */
export function recordBulkCreationVersions(
  tx: Tx,
  entityType: RegistryEntityType,
  idsQuery: string,
  idsArgs: readonly (string | number)[],
  stamp: CreationStamp,
): Promise<number> {
  const row = rowJson(entityType);
  return statementsOf(tx).run(
    `INSERT INTO registry_versions (entity_type, entity_id, valid_from, data, changes, summary, requested_by,
        approved_by, approval_request_id, applied_at, created_at)
      SELECT '${entityType}', t.id, ?, ${row}, ${row}, ?, ?, ?, ?, ?, ?
      FROM ${getTableConfig(REGISTRY_TABLES[entityType]).name} t WHERE t.id IN (${idsQuery})`,
    [
      stamp.at,
      stamp.summary,
      stamp.requestedBy,
      stamp.approvedBy,
      stamp.approvalRequestId,
      stamp.at,
      stamp.at,
      ...idsArgs,
    ],
  );
}

/**
 * Headquarters and standalone nodes, after migrations and seeds; answers how many versions it added.
 * Every queued row has a version once this commits, so the queue is emptied in the same transaction.
 */
export async function recordMissingInitialVersions(db: Database): Promise<number> {
  let added = 0;
  await db.transaction(async (tx) => {
    const statements = statementsOf(tx);
    for (const entityType of Object.keys(REGISTRY_TABLES) as RegistryEntityType[]) {
      added += await statements.run(backfillStatement(entityType), []);
    }
    await statements.run("DELETE FROM registry_unversioned", []);
  });
  return added;
}
