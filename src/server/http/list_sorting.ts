/**
 * Server-side sorting of the paged lists (every table sorts on the server, because the browser
 * holds one page only). A list names the keys it can be ordered by; the query carries
 * `sort` (one of them) and `order`, and the SQL column behind each key comes from a whitelist, so
 * no text from the request reaches the ORDER BY.
 */
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";

export const SORT_ORDERS = ["asc", "desc"] as const;

/** The `sort`/`order` fields of a list query, for `paginationQuery.extend({...})`. */
export function sortingFields<const Keys extends readonly [string, ...string[]]>(keys: Keys) {
  return {
    /** Order by this column; without it the list keeps its own default order. */
    sort: z.enum(keys).optional(),
    /** Ascending unless "desc". */
    order: z.enum(SORT_ORDERS).optional(),
  };
}

/**
 * The ORDER BY terms: the chosen key's column in the chosen direction, then `tiebreak` (the list's
 * default order, which also makes paging stable); `tiebreak` alone when no key was chosen.
 */
export function orderBySql<Key extends string>(
  columns: Readonly<Record<Key, SQL>>,
  query: { sort?: Key; order?: (typeof SORT_ORDERS)[number] },
  tiebreak: SQL,
): SQL {
  if (!query.sort) return tiebreak;
  const direction = sql.raw(query.order === "desc" ? "DESC" : "ASC");
  return sql`${columns[query.sort]} ${direction}, ${tiebreak}`;
}
