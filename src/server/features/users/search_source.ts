/**
 * The staff's part of search everywhere, for those who may list users (administrators): by name or
 * e-mail address. Staff are listed whole (at most MAX_USERS_LISTED), so the text is matched row by row.
 */
import { and, asc, ne, sql } from "drizzle-orm";
import { SYSTEM_USER_ID, users } from "../../../../db/schema.ts";
import type { AppDeps } from "../../http/context.ts";
import { findingsOf, type SearchSource, textMatches } from "../../http/search_sources.ts";

/** The screen that lists the staff; it has no page per user. */
const USERS_SCREEN = "/users";

/** "Jane Doe" and "Doe" are found as well as "jane@…". */
const FULL_NAME = sql`trim(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, ''))`;

export function userSearchSource(deps: AppDeps): SearchSource {
  return {
    kind: "user",
    label: "Users",
    readRoute: ["GET", "/api/users"],
    async find(text, limit) {
      const rows = await deps.db.read.select({
        id: users.id,
        email: users.email,
        fullName: sql<string>`${FULL_NAME}`,
        disabledAt: users.disabledAt,
      }).from(users)
        .where(and(ne(users.id, SYSTEM_USER_ID), textMatches([sql`${users.email}`, FULL_NAME], text)))
        .orderBy(asc(users.email))
        .limit(limit + 1);
      return findingsOf(rows, limit, (row) => ({
        id: row.id,
        label: row.fullName || row.email,
        detail: [row.fullName ? row.email : null, row.disabledAt === null ? "active" : "disabled"]
          .filter(Boolean).join(" · "),
        link: USERS_SCREEN,
      }));
    },
  };
}
