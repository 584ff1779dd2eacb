/** Local user accounts: creation (first admin, `deno task user:add`) and lookup. */
import { and, eq, isNull, ne } from "drizzle-orm";
import { SYSTEM_USER_ID, userCredentials, userRoles, users } from "../../../db/schema.ts";
import type { Role } from "../../domain/access.ts";
import { type Actor, recordAudit } from "../audit/trail.ts";
import type { Config } from "../config.ts";
import type { Database, Tx } from "../db/database.ts";
import type { Result } from "../../domain/result.ts";
import { personName } from "../../domain/staff_identity.ts";
import { AppError } from "../http/errors.ts";
import { checkStaffEmail, newAccountSkeleton } from "./identity.ts";
import { generatePassword, hashPassword, passwordProblem } from "./passwords.ts";

export interface NewUser {
  email: string;
  password: string;
  firstName?: string | null;
  lastName?: string | null;
  /** Operator when not given: the least a working account needs. */
  roles?: readonly Role[];
  /** The password was chosen for the user (initial or reset): they must replace it at sign-in. */
  mustChangePassword?: boolean;
}

/** The spec's users.role label, kept in step with the roles. */
export const roleLabelOf = (
  roles: readonly Role[],
) => (roles.includes("administrator") ? "admin" : "operator");

export async function replaceRoles(tx: Tx, userId: string, roles: readonly Role[]): Promise<void> {
  await tx.delete(userRoles).where(eq(userRoles.userId, userId));
  await tx.insert(userRoles).values(roles.map((role) => ({ userId, role })));
}

/** A rule's value, or a 400 naming the field: `email: character U+200B (zero width space) at position 4 is not allowed`. */
function valueOrRefuse<T>(result: Result<T>, field: string): T {
  if (result.ok) return result.value;
  throw new AppError("validation", `${field}: ${result.error.message}`, {
    fields: { [field]: result.error.message },
  });
}

export async function createUser(
  db: Database,
  config: Config,
  input: NewUser,
  actor: Actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null },
): Promise<{ id: string; email: string }> {
  const email = valueOrRefuse(checkStaffEmail(input.email), "email");
  const firstName = valueOrRefuse(personName(input.firstName, "firstName"), "firstName");
  const lastName = valueOrRefuse(personName(input.lastName, "lastName"), "lastName");
  const problem = await passwordProblem(input.password, { email, firstName, lastName });
  if (problem) throw new AppError("validation", problem, { fields: { password: problem } });
  const roles: readonly Role[] = input.roles && input.roles.length > 0
    ? [...new Set(input.roles)]
    : ["operator"];
  const mustChangePassword = input.mustChangePassword ?? false;
  const passwordHash = await hashPassword(input.password, config.passwordHashCost);
  const id = crypto.randomUUID();
  await db.transaction(async (tx) => {
    const emailSkeleton = await newAccountSkeleton(tx, email);
    await tx.insert(users).values({
      id,
      email,
      emailSkeleton,
      firstName,
      lastName,
      role: roleLabelOf(roles),
    });
    await tx.insert(userCredentials).values({ userId: id, passwordHash, mustChangePassword });
    await replaceRoles(tx, id, roles);
    await recordAudit(tx, actor, {
      entityType: "user",
      entityId: id,
      action: "create",
      changes: { after: { email, roles, mustChangePassword } },
    });
  });
  return { id, email };
}

/**
 * On a database with no real users, creates the first admin (administrator and operator, so that a
 * fresh install can be used at once; four-eyes control still needs a second person) from ADMIN_EMAIL/ADMIN_PASSWORD, or
 * with a generated password that is printed once.
 */
export async function ensureFirstAdmin(
  db: Database,
  config: Config,
  log: (line: string) => void = console.log,
): Promise<void> {
  const anyUser = await db.read.select({ id: users.id }).from(users)
    .where(and(ne(users.id, SYSTEM_USER_ID), isNull(users.disabledAt))).limit(1).get();
  if (anyUser) return;
  const email = config.adminEmail ?? "admin@centralbank.local";
  const password = config.adminPassword ?? generatePassword();
  await createUser(db, config, {
    email,
    password,
    firstName: null,
    lastName: null,
    roles: ["administrator", "operator"],
  });
  if (config.adminPassword) {
    log(`Created the first administrator ${email} with the password from ADMIN_PASSWORD.`);
  } else {
    log(`Created the first administrator ${email} with the generated password: ${password}`);
    log("This password is shown only once; sign in and keep it safe.");
  }
}
