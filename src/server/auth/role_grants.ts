/**
 * The roles a user holds and how each was granted (src/domain/dual_control.ts): every role change
 * goes through `replaceRoles`, which keeps user_roles (read on every request) and role_grants (read
 * when someone decides) in step, in the caller's transaction.
 */
import { sql } from "drizzle-orm";
import type { Role } from "../../domain/access.ts";
import { dualControlInForce, type GrantSource, type RoleGrant } from "../../domain/dual_control.ts";
import type { Queryable, Tx } from "../db/database.ts";
import { conflict } from "../http/errors.ts";

/** Who gives the roles being added: the source of the grant and the people behind it. */
export interface GrantOrigin {
  source: GrantSource;
  grantedBy: string | null;
  approvedBy: string | null;
}

export const PROVIDER_GRANT: GrantOrigin = { source: "provider", grantedBy: null, approvedBy: null };
export const BOOTSTRAP_GRANT: GrantOrigin = { source: "bootstrap", grantedBy: null, approvedBy: null };
export const SEED_GRANT: GrantOrigin = { source: "seed", grantedBy: null, approvedBy: null };

/** A grant made by one administrator acting alone (or by the host's `deno task user:add`, with no actor). */
export const soleGrant = (grantedBy: string | null): GrantOrigin => ({
  source: "sole_administrator",
  grantedBy,
  approvedBy: null,
});

/** A request's rehearsal at filing: as it will be granted, with the approver still unknown. */
export const requestedGrant = (requestedBy: string): GrantOrigin => ({
  source: "dual_control",
  grantedBy: requestedBy,
  approvedBy: null,
});

export const dualControlGrant = (requestedBy: string, approvedBy: string): GrantOrigin => ({
  source: "dual_control",
  grantedBy: requestedBy,
  approvedBy,
});

export const NEEDS_SECOND_ADMINISTRATOR =
  "Dual control is in force: this change needs a second administrator's approval; submit it again as a request";

/**
 * Decided in the writing transaction: an administrator may act alone only while dual control is not
 * in force, however the route read the state before.
 */
export async function assertActingAlone(tx: Queryable): Promise<void> {
  if ((await dualControlState(tx)).inForce) throw conflict("dualControl", NEEDS_SECOND_ADMINISTRATOR);
}

/**
 * In the writing transaction of a change made alone: refused once dual control is in force. The
 * host's `deno task user:add` (no granting administrator) is not the console acting alone.
 */
export async function assertMayActAlone(tx: Queryable, origin: GrantOrigin): Promise<void> {
  if (origin.source === "sole_administrator" && origin.grantedBy !== null) await assertActingAlone(tx);
}

/**
 * Roles kept keep their grant; roles added get `origin`; roles dropped lose theirs (the audit row
 * keeps the history). Adding a role alone is refused once dual control is in force.
 */
export async function replaceRoles(tx: Tx, userId: string, roles: readonly Role[], origin: GrantOrigin) {
  const held = (await tx.all<{ role: Role }>(sql`SELECT role FROM user_roles WHERE user_id = ${userId}`))
    .map((row) => row.role);
  const added = roles.filter((role) => !held.includes(role));
  if (added.length > 0) await assertMayActAlone(tx, origin);
  const now = new Date().toISOString();
  const kept = sql.join(roles.map((role) => sql`${role}`), sql`, `);
  await tx.run(sql`DELETE FROM user_roles WHERE user_id = ${userId} AND role NOT IN (${kept})`);
  await tx.run(sql`DELETE FROM role_grants WHERE user_id = ${userId} AND role NOT IN (${kept})`);
  for (const role of added) {
    await tx.run(sql`INSERT INTO user_roles (user_id, role) VALUES (${userId}, ${role})`);
    await tx.run(sql`INSERT INTO role_grants (user_id, role, source, granted_by, approved_by, granted_at)
      VALUES (${userId}, ${role}, ${origin.source}, ${origin.grantedBy}, ${origin.approvedBy}, ${now})
      ON CONFLICT (user_id, role) DO UPDATE SET source = excluded.source, granted_by = excluded.granted_by,
        approved_by = excluded.approved_by, granted_at = excluded.granted_at, confirmed_by = NULL, confirmed_at = NULL`);
  }
  await noteDualControl(tx);
}

interface GrantRow {
  [column: string]: unknown;
  role: Role;
  source: GrantSource;
  grantedBy: string | null;
  confirmedBy: string | null;
}

export async function grantsOf(db: Queryable, userId: string): Promise<RoleGrant[]> {
  return await db.all<GrantRow>(sql`SELECT g.role, g.source, g.granted_by AS grantedBy, g.confirmed_by AS confirmedBy
    FROM role_grants g JOIN user_roles r ON r.user_id = g.user_id AND r.role = g.role
    WHERE g.user_id = ${userId} ORDER BY g.role`);
}

const ACTIVE_ADMINISTRATORS = sql`(SELECT count(*) FROM user_roles r JOIN users u ON u.id = r.user_id
  WHERE r.role = 'administrator' AND u.disabled_at IS NULL)`;

/**
 * Dual control, once reached, stays in force: the moment a second active administrator exists is
 * kept, so that disabling one administrator never hands the other back the power to act alone.
 */
export async function noteDualControl(tx: Tx): Promise<void> {
  await tx.run(sql`UPDATE administration_policy SET dual_control_since = ${new Date().toISOString()}
    WHERE id = 1 AND dual_control_since IS NULL AND ${ACTIVE_ADMINISTRATORS} >= 2`);
}

export interface DualControlState {
  inForce: boolean;
  since: string | null;
  activeAdministrators: number;
}

export async function dualControlState(db: Queryable): Promise<DualControlState> {
  const [row] = await db.all<{ since: string | null; administrators: number }>(
    sql`SELECT (SELECT dual_control_since FROM administration_policy WHERE id = 1) AS since,
      ${ACTIVE_ADMINISTRATORS} AS administrators`,
  );
  const administrators = row?.administrators ?? 0;
  return {
    inForce: row?.since != null || dualControlInForce(administrators),
    since: row?.since ?? null,
    activeAdministrators: administrators,
  };
}

/** How the audit trail names a grant: who gave it, and whether a second person took part. */
export function grantNote(origin: GrantOrigin) {
  return origin.source === "sole_administrator"
    ? { source: origin.source, dualControl: "not in force: one administrator acted alone" }
    : { source: origin.source, ...(origin.approvedBy ? { approvedBy: origin.approvedBy } : {}) };
}
