/**
 * The registry as in force at an instant (`asOf`, docs/institutions.md): one institution from its
 * version then, and lists from the versions in force then (registry_history/versions.ts inForceAt).
 * A single record read without `asOf` resolves at now the same way, so that a change due now is in
 * force on every node before headquarters' scheduler has written it into the current table.
 */
import { and, type SQL, sql } from "drizzle-orm";
import { institutions, registryVersions } from "../../../../db/schema.ts";
import { validateLei } from "../../../domain/lei.ts";
import type { Queryable } from "../../db/database.ts";
import { orderBySql } from "../../http/list_sorting.ts";
import { inForceAt, versionAsOf } from "../../registry_history/versions.ts";
import type { Institution, InstitutionListQuery, InstitutionSortKey } from "./schemas.ts";
import { type InstitutionRow, institutionsOf, type Page } from "./service.ts";

/** A version's whole record as a row; it was last updated when the version took effect. */
function rowOfVersion(data: unknown, validFrom: string): InstitutionRow {
  const row = data as InstitutionRow;
  return { ...row, updatedAt: row.updatedAt > validFrom ? row.updatedAt : validFrom };
}

/** The institution as in force at `at`, or null when it did not exist then. */
export async function institutionAsOf(db: Queryable, id: string, at: string): Promise<Institution | null> {
  const version = await versionAsOf(db, "institution", id, at);
  if (version) return (await institutionsOf(db, [rowOfVersion(version.data, version.validFrom)], at))[0];
  // A record without versions (none recorded yet) is its current row from its registration on.
  const row = await db.select().from(institutions).where(sql`${institutions.id} = ${id}`).get();
  return row && row.createdAt <= at ? (await institutionsOf(db, [row], at))[0] : null;
}

const field = (name: string) => sql`json_extract(${registryVersions.data}, ${`$.${name}`})`;

const SORT_FIELDS: Record<InstitutionSortKey, SQL> = {
  name: sql`${field("name")} COLLATE NOCASE`,
  type: field("type"),
  registrationNumber: sql`${field("registrationNumber")} COLLATE NOCASE`,
  status: field("status"),
  createdAt: field("createdAt"),
};

/** LIKE's wildcards in people's text are literal. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * The registry's list as in force at `at`: search matches a substring of the name or registration
 * number (ignoring ASCII case) or a whole LEI; status and type filter as on the current list.
 */
export async function listInstitutionsAsOf(
  db: Queryable,
  query: InstitutionListQuery,
  at: string,
): Promise<Page<Institution>> {
  const conditions: SQL[] = [inForceAt("institution", at)];
  const search = query.search?.trim() ?? "";
  if (search !== "") {
    const pattern = likePattern(search);
    const lei = validateLei(search);
    conditions.push(sql`(${field("name")} LIKE ${pattern} ESCAPE '\\' OR ${field("registrationNumber")} LIKE ${pattern} ESCAPE '\\'${
      lei.ok ? sql` OR ${field("lei")} = ${lei.value}` : sql``
    })`);
  }
  const terminated = sql`(${field("terminatedAt")} IS NOT NULL AND ${field("terminatedAt")} <= ${at})`;
  if (query.status === "terminated") conditions.push(terminated);
  else if (query.status) conditions.push(sql`${field("status")} = ${query.status} AND NOT ${terminated}`);
  if (query.type) conditions.push(sql`${field("type")} = ${query.type}`);
  const where = and(...conditions)!;
  const order = orderBySql(SORT_FIELDS, query, sql`${field("createdAt")} DESC, ${registryVersions.entityId} DESC`);
  const [rows, [count]] = await Promise.all([
    db.select({ data: registryVersions.data, validFrom: registryVersions.validFrom }).from(registryVersions)
      .where(where).orderBy(order).limit(query.limit).offset(query.offset).all(),
    db.select({ total: sql<number>`count(*)` }).from(registryVersions).where(where).all(),
  ]);
  const items = await institutionsOf(db, rows.map((row) => rowOfVersion(row.data, row.validFrom)), at);
  return { items, total: count.total };
}
