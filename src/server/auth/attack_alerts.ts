/**
 * "Account under attack": an audit row on the user, and an event that tells the user themself,
 * written when an account's failures cross a threshold (failed passwords in a row, or the hourly
 * limit of wrong codes), at most once per account and factor per window, so that a sustained attack
 * is one row an hour rather than one per guess.
 * The dashboard shows administrators the accounts with such a row in the last window.
 */
import { sql } from "drizzle-orm";
import { SYSTEM_USER_ID } from "../../../db/schema.ts";
import { ATTACK_ALERT_WINDOW_MS } from "../../domain/sign_in_throttle.ts";
import { type Actor, recordAudit } from "../audit/trail.ts";
import type { Queryable, Tx } from "../db/database.ts";
import { publishEvent } from "../events/outbox.ts";

export const UNDER_ATTACK_ACTION = "sign_in_under_attack";

export type AttackedFactor = "password" | "second_factor";

/** Writes the row unless one for this account and factor was written within the window. */
export async function reportUnderAttack(
  tx: Tx,
  actor: Omit<Actor, "userId">,
  userId: string,
  details: { factor: AttackedFactor; failures: number },
  nowMs: number,
): Promise<void> {
  const since = new Date(nowMs - ATTACK_ALERT_WINDOW_MS).toISOString();
  const [recent] = await tx.all<{ n: number }>(sql`SELECT count(*) AS n FROM audit_trail
    WHERE entity_type = 'user' AND entity_id = ${userId} AND action = ${UNDER_ATTACK_ACTION}
      AND json_extract(changes, '$.factor') = ${details.factor} AND performed_at >= ${since}`);
  if (recent.n > 0) return;
  await recordAudit(tx, { ...actor, userId: SYSTEM_USER_ID }, {
    entityType: "user",
    entityId: userId,
    action: UNDER_ATTACK_ACTION,
    changes: details,
  });
  const what = details.factor === "password" ? "wrong passwords" : "wrong second-factor codes";
  await publishEvent(tx, {
    kind: "account_under_attack",
    subjectType: "user",
    subjectId: userId,
    summary: `Your account is under attack: ${details.failures} ${what} were tried and sign-in is throttled; ` +
      "if it was not you, tell an administrator",
    link: "/settings",
    data: { factor: details.factor, failures: details.failures },
    audience: { userId },
  }, new Date(nowMs));
}

/** The e-mail addresses of the accounts reported under attack within the window, newest first. */
export async function accountsUnderAttack(db: Queryable, nowMs: number): Promise<string[]> {
  const since = new Date(nowMs - ATTACK_ALERT_WINDOW_MS).toISOString();
  const rows = await db.all<{ email: string }>(sql`SELECT u.email AS email FROM audit_trail a
    JOIN users u ON u.id = a.entity_id
    WHERE a.entity_type = 'user' AND a.action = ${UNDER_ATTACK_ACTION} AND a.performed_at >= ${since}
    GROUP BY u.id ORDER BY max(a.seq) DESC`);
  return rows.map((row) => row.email);
}
