/** SQL shared by the lists that name people. */
import { type SQL, sql } from "drizzle-orm";

/**
 * A person's name for lists, from the users row aliased `alias`: first and last name, or else the
 * e-mail. The alias is a fixed identifier written in the calling query, never user input.
 */
export function personNameSql(alias: string): SQL {
  return sql.raw(
    `coalesce(nullif(trim(coalesce(${alias}.first_name, '') || ' ' || coalesce(${alias}.last_name, '')), ''), ${alias}.email)`,
  );
}
