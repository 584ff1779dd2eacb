/** Local user accounts: creation (first admin, `deno task user:add`) and lookup. */
import { and, isNull, ne, sql } from "drizzle-orm";
import { SYSTEM_USER_ID, userCredentials, users } from "../../../db/schema.ts";
import type { Role } from "../../domain/access.ts";
import { roleConflict } from "../../domain/dual_control.ts";
import { type Actor, recordAudit } from "../audit/trail.ts";
import type { Config } from "../config.ts";
import type { Database, Tx } from "../db/database.ts";
import type { Result } from "../../domain/result.ts";
import { personName } from "../../domain/staff_identity.ts";
import { AppError, conflict } from "../http/errors.ts";
import { checkStaffEmail, newAccountSkeleton } from "./identity.ts";
import { generatePassword, hashPassword, passwordProblem } from "./passwords.ts";
import { passwordMinimumLength } from "../settings/system_settings.ts";
import { BOOTSTRAP_GRANT, type GrantOrigin, grantNote, replaceRoles } from "./role_grants.ts";

export { grantNote };

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

/** 409 naming the roles when they may not be held together (src/domain/dual_control.ts). */
export function assertRolesSeparate(roles: readonly Role[]): void {
  const problem = roleConflict(roles);
  if (problem) throw conflict("roles", problem);
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
  origin: GrantOrigin,
  actor: Actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null },
): Promise<{ id: string; email: string }> {
  const email = valueOrRefuse(checkStaffEmail(input.email), "email");
  const firstName = valueOrRefuse(personName(input.firstName, "firstName"), "firstName");
  const lastName = valueOrRefuse(personName(input.lastName, "lastName"), "lastName");
  const problem = await passwordProblem(input.password, { email, firstName, lastName }, await passwordMinimumLength(db));
  if (problem) throw new AppError("validation", problem, { fields: { password: problem } });
  const roles: readonly Role[] = input.roles && input.roles.length > 0 ? [...new Set(input.roles)] : ["operator"];
  assertRolesSeparate(roles);
  const mustChangePassword = input.mustChangePassword ?? false;
  const passwordHash = await hashPassword(input.password, config.passwordHashCost);
  const id = crypto.randomUUID();
  await db.transaction(async (tx) => {
    await insertUser(tx, { id, email, firstName, lastName, roles, passwordHash, mustChangePassword, origin }, actor);
  });
  return { id, email };
}

interface UserRecord {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  roles: readonly Role[];
  passwordHash: string;
  mustChangePassword: boolean;
  origin: GrantOrigin;
}

async function insertUser(tx: Tx, record: UserRecord, actor: Actor): Promise<void> {
  const { id, email, firstName, lastName, roles, passwordHash, mustChangePassword, origin } = record;
  const emailSkeleton = await newAccountSkeleton(tx, email);
  await tx.insert(users).values({ id, email, emailSkeleton, firstName, lastName, role: roleLabelOf(roles) });
  await tx.insert(userCredentials).values({ userId: id, passwordHash, mustChangePassword });
  await replaceRoles(tx, id, roles, origin);
  await recordAudit(tx, actor, {
    entityType: "user",
    entityId: id,
    action: "create",
    changes: { after: { email, roles, mustChangePassword, grant: grantNote(origin) } },
  });
}

/**
 * On a database with no real users, creates the first administrator (administrator alone: whoever
 * grants powers does not use them) from ADMIN_EMAIL/ADMIN_PASSWORD, or with a generated password.
 * Returns what the start prints once, in a block of its own (startup/first_sign_in_notes.ts): the
 * generated password is never logged anywhere else.
 */
export async function ensureFirstAdmin(
  db: Database,
  config: Config,
): Promise<{ email: string; generatedPassword: string | null } | null> {
  const anyUser = await db.read.select({ id: users.id }).from(users)
    .where(and(ne(users.id, SYSTEM_USER_ID), isNull(users.disabledAt))).limit(1).get();
  if (anyUser) return null;
  const email = config.adminEmail ?? "admin@centralbank.local";
  const password = config.adminPassword ?? generatePassword();
  await createUser(db, config, { email, password, firstName: null, lastName: null, roles: ["administrator"] }, BOOTSTRAP_GRANT);
  return { email, generatedPassword: config.adminPassword ? null : password };
}

/**
 * An upgrade never drops a role: accounts whose roles break the separation (held from before it)
 * are named at start, and stay unable to request or approve until an administrator resolves them.
 */
export async function logRoleConflicts(db: Database, log: (line: string) => void): Promise<void> {
  const rows = await db.read.all<{ email: string; roles: string }>(sql`SELECT u.email AS email,
    group_concat(r.role) AS roles FROM users u JOIN user_roles r ON r.user_id = u.id
    WHERE u.disabled_at IS NULL GROUP BY u.id ORDER BY u.email`);
  for (const row of rows) {
    const problem = roleConflict(row.roles.split(",") as Role[]);
    if (problem) {
      log(`Role conflict: ${row.email} holds ${row.roles.split(",").join(" and ")}. ${problem}; ` +
        "it cannot request or approve until an administrator changes its roles (Users screen).");
    }
  }
}
