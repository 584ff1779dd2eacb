/**
 * Staff identities as the server checks them: the address rules of src/domain/staff_identity.ts,
 * with Unicode's character names for the messages, and the confusable skeleton (UTS #39) that
 * users.email_skeleton holds under a unique index, so that two accounts whose addresses look alike
 * cannot both exist and the database, not a scan, decides it.
 */
import { eq, isNull } from "drizzle-orm";
import { users } from "../../../db/schema.ts";
import { type ConfusablesTable, parseConfusables, skeleton } from "../../domain/confusables.ts";
import { staffEmail } from "../../domain/staff_identity.ts";
import type { Result } from "../../domain/result.ts";
import type { Database, Tx } from "../db/database.ts";
import { conflict } from "../http/errors.ts";

const CONFUSABLES_FILE = new URL("../../../db/reference/unicode_confusables_17.0.0.txt", import.meta.url);

let confusables: ConfusablesTable | null = null;

/** Unicode's table, read once (synchronously, so that zod schemas can use it; about 10 ms). */
export function confusablesTable(): ConfusablesTable {
  confusables ??= parseConfusables(Deno.readTextFileSync(CONFUSABLES_FILE));
  return confusables;
}

/** The address as stored, or why it is refused, with Unicode's name for a refused character. */
export function checkStaffEmail(raw: string): Result<string> {
  const table = confusablesTable();
  return staffEmail(raw, (codePoint) => table.names.get(codePoint));
}

/** The skeleton of an address already checked (lower-case): equal skeletons look alike. */
export function emailSkeleton(email: string): string {
  return skeleton(email, confusablesTable());
}

/**
 * The skeleton for a new account's address, after refusing an address that is an existing account's
 * or looks like one (409 naming that account). The unique index is the backstop for a concurrent insert.
 */
export async function newAccountSkeleton(tx: Tx, email: string): Promise<string> {
  const same = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
  if (same) throw conflict("email", "email already exists");
  const value = emailSkeleton(email);
  const lookAlike = await tx.select({ email: users.email }).from(users).where(eq(users.emailSkeleton, value))
    .get();
  if (lookAlike) {
    throw conflict(
      "email",
      `email looks like the existing account ${lookAlike.email} (confusable characters)`,
    );
  }
  return value;
}

/**
 * Gives every account without one its skeleton (rows written before the column existed). Two old
 * accounts that look alike cannot share the unique index: the second keeps none and is reported.
 */
export async function fillEmailSkeletons(db: Database, log: (line: string) => void): Promise<void> {
  // Most starts find none: they take no write lock.
  const any = await db.read.select({ id: users.id }).from(users).where(isNull(users.emailSkeleton)).limit(1).get();
  if (!any) return;
  await db.transaction(async (tx) => {
    const missing = await tx.select({ id: users.id, email: users.email }).from(users)
      .where(isNull(users.emailSkeleton)).all();
    for (const user of missing) {
      const value = emailSkeleton(user.email.trim().toLowerCase());
      const holder = await tx.select({ email: users.email }).from(users).where(eq(users.emailSkeleton, value))
        .get();
      if (holder) {
        log(
          `The accounts ${holder.email} and ${user.email} have e-mail addresses that look alike; disable one.`,
        );
        continue;
      }
      await tx.update(users).set({ emailSkeleton: value }).where(eq(users.id, user.id));
    }
  });
}
