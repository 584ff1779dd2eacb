/**
 * User management for administrators, and every user's own password change. Each change commits
 * with its audit row; roles, disabling and password resets bump the auth epoch (triggers of
 * 0003/0800), so every process applies them to the user's very next request.
 */
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { sessions, SYSTEM_USER_ID, userCredentials, userRoles, users } from "../../../../db/schema.ts";
import type { Role } from "../../../domain/access.ts";
import { DECISION_REFUSAL_MESSAGES, grantDecides, grantsPower, roleConflict } from "../../../domain/dual_control.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import { generatePassword, hashPassword, passwordProblem, verifyPassword } from "../../auth/passwords.ts";
import {
  assertMayActAlone,
  dualControlState,
  type GrantOrigin,
  grantsOf,
  replaceRoles,
} from "../../auth/role_grants.ts";
import { assertRolesSeparate, createUser, grantNote, roleLabelOf } from "../../auth/users.ts";
import type { Config } from "../../config.ts";
import type { Database, Queryable, Tx } from "../../db/database.ts";
import { AppError, conflict, notFound } from "../../http/errors.ts";
import { passwordMinimumLength } from "../../settings/system_settings.ts";

/** A staff register, not a customer base: listed whole. */
export const MAX_USERS_LISTED = 1_000;

export interface UserView {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  roles: Role[];
  disabled: boolean;
  disabledAt: string | null;
  mustChangePassword: boolean;
  createdAt: string;
  /** Why the roles may not be held together (held from before the rule): the account cannot request or approve. */
  roleConflict: string | null;
  /** Roles granted by one administrator alone, not yet confirmed by a second: they do not decide anything. */
  unconfirmedRoles: Role[];
}

interface UserRow {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  roles: string | null;
  disabledAt: string | null;
  mustChangePassword: number | null;
  createdAt: string;
  unconfirmed: string | null;
}

/** Roles that decide (approver, administrator) granted alone and never confirmed; founding administrators excepted. */
const USER_COLUMNS = sql`u.id AS id, u.email AS email, u.first_name AS firstName, u.last_name AS lastName,
  (SELECT group_concat(r.role) FROM user_roles r WHERE r.user_id = u.id) AS roles,
  u.disabled_at AS disabledAt, c.must_change_password AS mustChangePassword, u.created_at AS createdAt,
  (SELECT group_concat(g.role) FROM role_grants g WHERE g.user_id = u.id AND g.confirmed_by IS NULL
    AND g.source IN ('sole_administrator', 'legacy') AND g.role = 'approver') AS unconfirmed`;

function toView(row: UserRow): UserView {
  const roles = (row.roles ?? "").split(",").filter(Boolean).sort() as Role[];
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    roles,
    disabled: row.disabledAt !== null,
    disabledAt: row.disabledAt,
    mustChangePassword: row.mustChangePassword === 1,
    createdAt: row.createdAt,
    roleConflict: roleConflict(roles),
    unconfirmedRoles: (row.unconfirmed ?? "").split(",").filter(Boolean) as Role[],
  };
}

export async function listUsers(db: Queryable): Promise<UserView[]> {
  const rows = await db.all<UserRow>(sql`SELECT ${USER_COLUMNS}
    FROM users u LEFT JOIN user_credentials c ON c.user_id = u.id
    WHERE u.id <> ${SYSTEM_USER_ID} ORDER BY u.email LIMIT ${MAX_USERS_LISTED}`);
  return rows.map(toView);
}

export async function findUser(db: Queryable, id: string): Promise<UserView> {
  // all(), not get(): drizzle's get() over raw SQL fails on an empty result.
  const [row] = await db.all<UserRow>(sql`SELECT ${USER_COLUMNS}
    FROM users u LEFT JOIN user_credentials c ON c.user_id = u.id
    WHERE u.id = ${id} AND u.id <> ${SYSTEM_USER_ID}`);
  if (!row) throw notFound("User");
  return toView(row);
}

export interface NewStaffUser {
  email: string;
  firstName: string | null;
  lastName: string | null;
  roles: Role[];
}

export async function createStaffUser(
  db: Database,
  config: Config,
  actor: Actor,
  input: NewStaffUser,
  origin: GrantOrigin,
): Promise<{ user: UserView; initialPassword: string }> {
  const initialPassword = generatePassword();
  const { id } = await createUser(db, config, {
    ...input,
    password: initialPassword,
    mustChangePassword: true,
  }, origin, actor);
  return { user: await findUser(db.read, id), initialPassword };
}

/** Someone must stay able to manage users: the last active administrator keeps the role and stays enabled. */
async function assertAnotherAdministrator(tx: Tx, userId: string, field: string): Promise<void> {
  const other = await tx.select({ id: users.id }).from(users)
    .innerJoin(userRoles, and(eq(userRoles.userId, users.id), eq(userRoles.role, "administrator")))
    .where(and(ne(users.id, userId), isNull(users.disabledAt))).limit(1).get();
  if (!other) {
    throw conflict(field, "The last active administrator must keep the administrator role and stay enabled");
  }
}

export interface UserChange {
  roles?: Role[];
  disabled?: boolean;
}

export async function updateStaffUser(
  db: Database,
  actor: Actor,
  id: string,
  change: UserChange,
  origin: GrantOrigin,
): Promise<UserView> {
  if (change.roles !== undefined) assertRolesSeparate(change.roles);
  await db.transaction(async (tx) => {
    const before = await findUser(tx, id);
    const losesAdministrator = change.roles !== undefined && before.roles.includes("administrator") &&
      !change.roles.includes("administrator");
    if (losesAdministrator && !before.disabled) await assertAnotherAdministrator(tx, id, "roles");
    if (change.disabled === true && !before.disabled && before.roles.includes("administrator")) {
      await assertAnotherAdministrator(tx, id, "disabled");
    }
    const reEnables = change.disabled === false && before.disabled;
    if (reEnables) await assertMayActAlone(tx, origin);
    await applyUserChange(tx, id, change, before.disabled, origin);
    const after = await findUser(tx, id);
    await recordAudit(tx, actor, {
      entityType: "user",
      entityId: id,
      action: change.disabled === true ? "disable" : change.disabled === false ? "enable" : "update_roles",
      changes: {
        before: { roles: before.roles, disabled: before.disabled },
        after: { roles: after.roles, disabled: after.disabled },
        ...(grantsPower(before, change) ? { grant: grantNote(origin) } : {}),
      },
    });
  });
  return await findUser(db.read, id);
}

async function applyUserChange(tx: Tx, id: string, change: UserChange, wasDisabled: boolean, origin: GrantOrigin) {
  const now = new Date().toISOString();
  if (change.roles !== undefined) {
    await replaceRoles(tx, id, change.roles, origin);
    await tx.update(users).set({ role: roleLabelOf(change.roles), updatedAt: now }).where(eq(users.id, id));
  }
  if (change.disabled !== undefined && change.disabled !== wasDisabled) {
    await tx.update(users).set({ disabledAt: change.disabled ? now : null, updatedAt: now }).where(
      eq(users.id, id),
    );
    // A disabled user's sessions end now, not at their idle timeout.
    if (change.disabled) await tx.delete(sessions).where(eq(sessions.userId, id));
  }
}

/** A new one-time password that the user must replace at the next sign-in; their sessions end. */
export async function resetPassword(
  db: Database,
  config: Config,
  actor: Actor,
  id: string,
  origin: GrantOrigin,
): Promise<{ initialPassword: string }> {
  const initialPassword = generatePassword();
  const passwordHash = await hashPassword(initialPassword, config.passwordHashCost);
  await db.transaction(async (tx) => {
    await findUser(tx, id);
    await assertMayActAlone(tx, origin);
    await tx.update(userCredentials).set({
      passwordHash,
      passwordChangedAt: new Date().toISOString(),
      mustChangePassword: true,
    }).where(eq(userCredentials.userId, id));
    await tx.delete(sessions).where(eq(sessions.userId, id));
    await recordAudit(tx, actor, {
      entityType: "user",
      entityId: id,
      action: "reset_password",
      changes: { after: { grant: grantNote(origin) } },
    });
  });
  return { initialPassword };
}

/**
 * A second administrator confirms the roles one administrator granted alone (or that were held
 * before grants were recorded): from then on they decide. The confirmer is neither the holder nor
 * the one who granted them.
 */
export async function confirmRoles(db: Database, actor: Actor, id: string): Promise<UserView> {
  await db.transaction(async (tx) => {
    const user = await findUser(tx, id);
    if (user.unconfirmedRoles.length === 0) throw conflict("roles", "No role of this user awaits confirmation");
    if (id === actor.userId) throw conflict("roles", "Nobody confirms their own roles: another administrator must");
    const own = (await grantsOf(tx, actor.userId)).find((grant) => grant.role === "administrator");
    if (!own || !grantDecides(own)) {
      throw new AppError("forbidden", DECISION_REFUSAL_MESSAGES.unconfirmed_grant);
    }
    const now = new Date().toISOString();
    const confirmed = await tx.all<{ role: string }>(sql`UPDATE role_grants
      SET confirmed_by = ${actor.userId}, confirmed_at = ${now}
      WHERE user_id = ${id} AND confirmed_by IS NULL AND source IN ('sole_administrator', 'legacy')
        AND granted_by IS NOT ${actor.userId} RETURNING role`);
    if (confirmed.length === 0) {
      throw conflict("roles", "You granted these roles: another administrator must confirm them");
    }
    await recordAudit(tx, actor, {
      entityType: "user",
      entityId: id,
      action: "confirm_roles",
      changes: { after: { confirmedRoles: confirmed.map((row) => row.role) } },
    });
  });
  return await findUser(db.read, id);
}

/** The signed-in user's own change; their other sessions end, the current one stays. */
export async function changeOwnPassword(
  db: Database,
  config: Config,
  actor: Actor,
  sessionId: string | null,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const credentials = await db.read.select().from(userCredentials).where(
    eq(userCredentials.userId, actor.userId),
  )
    .get();
  if (!credentials || !(await verifyPassword(input.currentPassword, credentials.passwordHash))) {
    throw new AppError("validation", "The current password is not correct", {
      fields: { currentPassword: "The current password is not correct" },
    });
  }
  const owner = await db.read.select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users).where(eq(users.id, actor.userId)).get();
  const problem = input.newPassword === input.currentPassword
    ? "The new password must differ from the current one"
    : await passwordProblem(input.newPassword, owner ?? { email: "" }, await passwordMinimumLength(db));
  if (problem) throw new AppError("validation", problem, { fields: { newPassword: problem } });
  const passwordHash = await hashPassword(input.newPassword, config.passwordHashCost);
  await db.transaction(async (tx) => {
    await tx.update(userCredentials).set({
      passwordHash,
      passwordChangedAt: new Date().toISOString(),
      mustChangePassword: false,
    }).where(eq(userCredentials.userId, actor.userId));
    await tx.delete(sessions).where(
      sessionId
        ? and(eq(sessions.userId, actor.userId), ne(sessions.sid, sessionId))
        : eq(sessions.userId, actor.userId),
    );
    await recordAudit(tx, actor, { entityType: "user", entityId: actor.userId, action: "change_password" });
  });
}

export interface DualControlSummary {
  inForce: boolean;
  since: string | null;
  activeAdministrators: number;
  /** Accounts holding roles that may not be held together: they cannot request or approve until resolved. */
  roleConflicts: { id: string; email: string; roles: Role[]; problem: string }[];
}

/** What the administrators' banner and the Users screen say about dual control. */
export async function dualControlSummary(db: Queryable): Promise<DualControlSummary> {
  const [state, everyone] = await Promise.all([dualControlState(db), listUsers(db)]);
  return {
    ...state,
    roleConflicts: everyone.filter((user) => user.roleConflict !== null && !user.disabled)
      .map((user) => ({ id: user.id, email: user.email, roles: user.roles, problem: user.roleConflict! })),
  };
}
