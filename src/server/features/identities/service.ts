/**
 * Provider identities of console users: an administrator links one (issuer and subject) to a user,
 * or unlinks it. Single sign-on never links by e-mail address (src/server/auth/oidc.ts), so these
 * are the only links made to an existing account. Each change commits with its audit row; unlinking
 * also ends the sessions the user opened through the provider.
 */
import { assertMayActAlone, type GrantOrigin } from "../../auth/role_grants.ts";
import { grantNote } from "../../auth/users.ts";
import { administrationDraft, type RequestDraft } from "../approvals/four_eyes.ts";
import { and, eq, sql } from "drizzle-orm";
import {
  sessions,
  SYSTEM_USER_ID,
  userCredentials,
  userIdentities,
  userRoles,
  users,
} from "../../../../db/schema.ts";
import { isRole } from "../../../domain/access.ts";
import { linkRefusal, type ProviderIdentity } from "../../../domain/provider_identity.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import type { Database, Queryable, Tx } from "../../db/database.ts";
import { conflict, notFound } from "../../http/errors.ts";

export const IDENTITY_ENTITY_TYPE = "user_identity";

export interface IdentityView {
  issuer: string;
  subject: string;
  createdAt: string;
  lastSignInAt: string;
}

const identityColumns = {
  issuer: userIdentities.issuer,
  subject: userIdentities.subject,
  createdAt: userIdentities.createdAt,
  lastSignInAt: userIdentities.lastSignInAt,
};

async function assertUser(db: Queryable, userId: string): Promise<void> {
  const user = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get();
  if (!user || user.id === SYSTEM_USER_ID) throw notFound("User");
}

export async function listProviderIdentities(db: Queryable, userId: string): Promise<IdentityView[]> {
  await assertUser(db, userId);
  return await db.select(identityColumns).from(userIdentities).where(eq(userIdentities.userId, userId))
    .orderBy(userIdentities.issuer, userIdentities.subject).all();
}

async function linkTarget(tx: Tx, userId: string, issuer: string) {
  const roles =
    (await tx.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId)).all())
      .map((row) => row.role).filter(isRole);
  const password = await tx.select({ userId: userCredentials.userId }).from(userCredentials)
    .where(eq(userCredentials.userId, userId)).get();
  const atIssuer = await tx.select({ subject: userIdentities.subject }).from(userIdentities)
    .where(and(eq(userIdentities.userId, userId), eq(userIdentities.issuer, issuer))).all();
  return {
    id: userId,
    roles,
    hasLocalPassword: password !== undefined,
    subjectsAtIssuer: atIssuer.map((row) => row.subject),
  };
}

/**
 * Links `identity` to the user: their next single sign-on through it lands on this account, whose
 * roles the provider's mapping then manages. Refused (409) for a break-glass administrator, an
 * identity linked elsewhere, or a second identity of the user at the same issuer.
 */
export async function linkProviderIdentity(
  db: Database,
  actor: Actor,
  userId: string,
  identity: ProviderIdentity,
  origin: GrantOrigin,
): Promise<IdentityView> {
  return await db.transaction(async (tx) => {
    await assertMayActAlone(tx, origin);
    await assertUser(tx, userId);
    const holder = await tx.select({ userId: userIdentities.userId }).from(userIdentities)
      .where(and(eq(userIdentities.issuer, identity.issuer), eq(userIdentities.subject, identity.subject)))
      .get();
    const refusal = linkRefusal(await linkTarget(tx, userId, identity.issuer), holder?.userId ?? null);
    if (refusal) throw conflict(refusal.field, refusal.message);
    const [linked] = await tx.insert(userIdentities).values({ ...identity, userId }).returning(
      identityColumns,
    );
    await recordAudit(tx, actor, {
      entityType: IDENTITY_ENTITY_TYPE,
      entityId: userId,
      action: "link",
      changes: {
        before: null,
        after: { issuer: identity.issuer, subject: identity.subject },
        control: grantNote(origin),
      },
    });
    return linked;
  });
}

/** Unlinks `identity` from the user and ends the sessions they opened through the provider. */
export async function unlinkProviderIdentity(
  db: Database,
  actor: Actor,
  userId: string,
  identity: ProviderIdentity,
): Promise<void> {
  await db.transaction(async (tx) => {
    await assertUser(tx, userId);
    const removed = await tx.delete(userIdentities).where(and(
      eq(userIdentities.userId, userId),
      eq(userIdentities.issuer, identity.issuer),
      eq(userIdentities.subject, identity.subject),
    )).returning({ subject: userIdentities.subject });
    if (removed.length === 0) throw notFound("Provider identity of this user");
    await tx.delete(sessions).where(and(
      eq(sessions.userId, userId),
      sql`json_extract(${sessions.sess}, '$.signedInWith') = 'oidc'`,
    ));
    await recordAudit(tx, actor, {
      entityType: IDENTITY_ENTITY_TYPE,
      entityId: userId,
      action: "unlink",
      changes: { before: { issuer: identity.issuer, subject: identity.subject }, after: null },
    });
  });
}

/** A link gives the provider the account's sign-in: under dual control, a request for a second administrator. */
export function identityLinkDraft(actor: Actor, userId: string, identity: ProviderIdentity): RequestDraft {
  return administrationDraft(
    "identity_link",
    actor,
    { payload: { id: userId, ...identity }, summary: { userId, ...identity } },
    (inner, origin) => linkProviderIdentity(inner, actor, userId, identity, origin),
  );
}
