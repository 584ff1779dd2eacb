/**
 * Single sign-on through the bank's identity provider: the authorization code flow with PKCE,
 * state and nonce, done by openid-client (an OpenID-certified relying party), which also verifies
 * the ID token: signature against the provider's published keys, issuer, audience, expiry and
 * nonce. Nothing here parses or checks a token by hand. The flow's secrets (state, nonce, PKCE
 * verifier) wait for the callback in a short-lived cookie encrypted with the server's key.
 */
import type { Context } from "hono";
import { and, eq, sql } from "drizzle-orm";
import * as client from "openid-client";
import { SYSTEM_USER_ID, userIdentities, userRoles, users } from "../../../db/schema.ts";
import { isRole, type Role } from "../../domain/access.ts";
import { claimAt, mapClaimRoles } from "../../domain/oidc_roles.ts";
import {
  EMAIL_TAKEN_MESSAGE,
  type ProviderIdentity,
  providerRoleChange,
} from "../../domain/provider_identity.ts";
import { type Actor, recordAudit } from "../audit/trail.ts";
import type { Config } from "../config.ts";
import type { Database, Tx } from "../db/database.ts";
import type { Secrets } from "../secrets.ts";
import { grantedRoles, type OidcConfig } from "./oidc_config.ts";
import { roleLabelOf } from "./users.ts";
import { PROVIDER_GRANT, replaceRoles } from "./role_grants.ts";
import { roleConflict } from "../../domain/dual_control.ts";
import { checkStaffEmail, newAccountSkeleton } from "./identity.ts";
import { personName } from "../../domain/staff_identity.ts";
import { AppError } from "../http/errors.ts";
import { clearCookie, readCookie, writeCookie } from "./session_cookie.ts";

const FLOW_COOKIE = "cbr_oidc";
/** Time allowed between leaving for the provider and coming back. */
const FLOW_MAX_AGE_SECONDS = 10 * 60;
const MAX_NAME_LENGTH = 255;

/** A refusal to show the user; the detail goes to the audit trail only. */
export class SsoRefused extends Error {
  constructor(readonly userMessage: string, detail: string) {
    super(detail);
  }
}

interface FlowState {
  state: string;
  nonce: string;
  verifier: string;
}

/** What openid-client found wrong, for the audit trail: its message, code, and the claim or cause. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const parts = [error.message];
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  if (typeof code === "string") parts.push(`[${code}]`);
  if (cause instanceof Error) parts.push(`(${describe(cause)})`);
  else if (cause && typeof cause === "object" && "claim" in cause) {
    parts.push(`(claim ${String(cause.claim)})`);
  }
  return parts.join(" ");
}

/** The provider's e-mail address and names under the console's own rules; a refusal says which and why. */
function providerProfile(claims: Record<string, unknown>) {
  let email: string | null = null;
  if (typeof claims.email === "string") {
    const checked = checkStaffEmail(claims.email);
    if (!checked.ok) {
      throw new SsoRefused(
        `Your e-mail address at the identity provider cannot be used in the console: ${checked.error.message}. Ask your administrator to correct it there.`,
        `refused provider email for ${String(claims.sub)}: ${checked.error.message}`,
      );
    }
    email = checked.value;
  }
  const name = (claim: string, field: string) => {
    const value = claims[claim];
    const checked = personName(typeof value === "string" ? value.slice(0, MAX_NAME_LENGTH) : null, field);
    if (checked.ok) return checked.value;
    throw new SsoRefused(
      `Your name at the identity provider cannot be used in the console: ${checked.error.message}. Ask your administrator to correct it there.`,
      `refused provider ${claim} for ${String(claims.sub)}: ${checked.error.message}`,
    );
  };
  return { email, names: { firstName: name("given_name", "firstName"), lastName: name("family_name", "lastName") } };
}

/** An address that looks like an existing account's is refused at sign-in with the reason, not a 409. */
async function lookAlikeRefused(newSkeleton: () => Promise<string>, email: string): Promise<string> {
  try {
    return await newSkeleton();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    throw new SsoRefused(
      "Your e-mail address at the identity provider looks like another console account's. Ask your administrator.",
      `provider email ${email} refused: ${error.message}`,
    );
  }
}

const isLoopback = (url: URL) => /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(url.hostname);

export class OidcSignIn {
  readonly #oidc: OidcConfig;
  readonly #config: Config;
  readonly #secrets: Secrets;
  #discovered: Promise<client.Configuration> | null = null;

  constructor(oidc: OidcConfig, config: Config, secrets: Secrets) {
    this.#oidc = oidc;
    this.#config = config;
    this.#secrets = secrets;
  }

  /** Discovery once, retried on the next sign-in if the provider was unreachable. */
  #configuration(): Promise<client.Configuration> {
    this.#discovered ??= client.discovery(
      this.#oidc.issuer,
      this.#oidc.clientId,
      { client_secret: this.#oidc.clientSecret, redirect_uris: [this.#oidc.redirectUri.href] },
      client.ClientSecretBasic(this.#oidc.clientSecret),
      // Plain http only to a provider on this machine (development and the tests).
      this.#oidc.issuer.protocol === "http:" && isLoopback(this.#oidc.issuer)
        ? { execute: [client.allowInsecureRequests] }
        : undefined,
    ).then((configuration) => {
      // Without this, openid-client trusts an ID token from the token endpoint on the strength of
      // TLS alone (OIDC Core 3.1.3.7); the console checks its signature against the provider's keys too.
      client.enableNonRepudiationChecks(configuration);
      return configuration;
    }, (error) => {
      this.#discovered = null;
      throw error;
    });
    return this.#discovered;
  }

  /** The provider's authorization URL; the flow's secrets go into the flow cookie. */
  async start(c: Context): Promise<URL> {
    const configuration = await this.#configuration();
    const flow: FlowState = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
    };
    const sealed = await this.#secrets.encrypt(JSON.stringify(flow));
    // Lax: the provider sends the browser back with a cross-site top-level GET.
    writeCookie(c, this.#config, FLOW_COOKIE, sealed, { sameSite: "Lax", maxAge: FLOW_MAX_AGE_SECONDS });
    return client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.#oidc.redirectUri.href,
      scope: this.#oidc.scopes,
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: "S256",
    });
  }

  /**
   * The verified ID token claims of the provider's answer at the callback. The flow cookie is
   * spent whatever the outcome, so an answer cannot be replayed.
   */
  async finish(c: Context): Promise<Record<string, unknown>> {
    const sealed = readCookie(c, this.#config, FLOW_COOKIE);
    clearCookie(c, this.#config, FLOW_COOKIE);
    if (!sealed) {
      throw new SsoRefused("The sign-in took too long or was started elsewhere.", "no flow cookie");
    }
    let flow: FlowState;
    try {
      flow = JSON.parse(await this.#secrets.decrypt(sealed));
    } catch {
      throw new SsoRefused("The sign-in took too long or was started elsewhere.", "unreadable flow cookie");
    }
    const configuration = await this.#configuration();
    // The provider redirected to OIDC_REDIRECT_URI; behind a proxy the request's own URL may differ.
    const callback = new URL(this.#oidc.redirectUri);
    callback.search = new URL(c.req.url).search;
    try {
      const tokens = await client.authorizationCodeGrant(configuration, callback, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error("no ID token");
      return claims as Record<string, unknown>;
    } catch (error) {
      throw new SsoRefused(
        "The identity provider's answer could not be verified.",
        describe(error).slice(0, 500),
      );
    }
  }

  /** The mapped roles, refused when there are none or when they may not be held together. */
  #rolesOf(claims: Record<string, unknown>, subject: string): Role[] {
    const roles = grantedRoles(mapClaimRoles(claimAt(claims, this.#oidc.rolesClaim), this.#oidc.roleMap));
    if (roles.length === 0) {
      throw new SsoRefused(
        "Your account at the identity provider has no role in the console. Ask your administrator for access.",
        `no mapped role in claim ${this.#oidc.rolesClaim} for ${subject}`,
      );
    }
    const conflict = roleConflict(roles);
    if (conflict) {
      throw new SsoRefused(
        "Your roles at the identity provider may not be held together here. Ask your administrator to fix them.",
        `conflicting mapped roles for ${subject}: ${conflict}`,
      );
    }
    return roles;
  }

  /**
   * The console user for verified claims: the one linked to their issuer and subject, else a new
   * one. A provider account whose e-mail address is already a console account's is refused until an
   * administrator links the two (never linked by e-mail). The provider's role mapping applies to the
   * linked account at every sign-in, but never removes the last active administrator.
   */
  async userFor(db: Database, claims: Record<string, unknown>, actor: Omit<Actor, "userId">) {
    const identity: ProviderIdentity = { issuer: String(claims.iss), subject: String(claims.sub) };
    const roles = this.#rolesOf(claims, identity.subject);
    return await db.transaction(async (tx) => {
      const match = and(
        eq(userIdentities.issuer, identity.issuer),
        eq(userIdentities.subject, identity.subject),
      );
      const linked = await tx.select({ userId: userIdentities.userId }).from(userIdentities).where(match)
        .get();
      if (linked) {
        await tx.update(userIdentities).set({ lastSignInAt: new Date().toISOString() }).where(match);
      }
      const userId = linked?.userId ??
        await createProviderAccount(tx, identity, { ...accountClaims(claims), roles }, actor);
      const user = await tx.select().from(users).where(eq(users.id, userId)).get();
      if (!user || user.disabledAt) {
        throw new SsoRefused("This console account is disabled.", `disabled user ${userId}`);
      }
      const held = await applyMappedRoles(tx, { ...actor, userId }, user.role, roles);
      return { ...user, role: roleLabelOf(held), roles: held };
    });
  }
}

interface AccountClaims {
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
}

function accountClaims(claims: Record<string, unknown>): AccountClaims {
  const { email, names } = providerProfile(claims);
  return { email, emailVerified: claims.email_verified === true, ...names };
}

/**
 * A new console account for a provider identity that is linked to none, with the mapped roles.
 * Refused when the provider has not verified the e-mail address, or when the address is already a
 * console account's: only an administrator links an identity to an existing account.
 */
async function createProviderAccount(
  tx: Tx,
  identity: ProviderIdentity,
  account: AccountClaims & { roles: Role[] },
  actor: Omit<Actor, "userId">,
): Promise<string> {
  const { email, roles } = account;
  if (!email || !account.emailVerified) {
    throw new SsoRefused(
      "The identity provider did not confirm your e-mail address, so no console account can be matched.",
      `no verified email for ${identity.subject}`,
    );
  }
  const existing = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`)
    .get();
  if (existing) {
    throw new SsoRefused(
      `${EMAIL_TAKEN_MESSAGE} Your provider identity: issuer ${identity.issuer}, subject ${identity.subject}.`,
      `the e-mail address ${email} is console user ${existing.id}'s, and the identity ${identity.issuer} ` +
        `${identity.subject} is not linked to it`,
    );
  }
  const userId = crypto.randomUUID();
  const role = roleLabelOf(roles);
  const emailSkeleton = await lookAlikeRefused(() => newAccountSkeleton(tx, email), email);
  await tx.insert(users).values({
    id: userId,
    email,
    emailSkeleton,
    firstName: account.firstName,
    lastName: account.lastName,
    role,
  });
  await replaceRoles(tx, userId, roles, PROVIDER_GRANT);
  await recordAudit(tx, { ...actor, userId }, {
    entityType: "user",
    entityId: userId,
    action: "create",
    changes: { after: { email, role, roles, source: "oidc" } },
  });
  await tx.insert(userIdentities).values({ ...identity, userId });
  return userId;
}

/**
 * Applies the provider's mapped roles to a linked account and returns the roles it holds after:
 * the mapped ones, or, when they would leave no active administrator, the ones it held (audited).
 */
async function applyMappedRoles(tx: Tx, actor: Actor, label: string, mapped: Role[]): Promise<Role[]> {
  const userId = actor.userId;
  const held =
    (await tx.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId)).all())
      .map((row) => row.role).filter(isRole);
  const [others] = await tx.all<{ n: number }>(sql`SELECT count(*) AS n FROM users u
    JOIN user_roles r ON r.user_id = u.id AND r.role = 'administrator'
    WHERE u.id <> ${userId} AND u.id <> ${SYSTEM_USER_ID} AND u.disabled_at IS NULL`);
  const outcome = providerRoleChange(held, mapped, others.n);
  if (outcome.kind === "unchanged") return held;
  if (outcome.kind === "keep") {
    console.warn(`Single sign-on: user ${userId} keeps the roles ${held.join(", ")}: ${outcome.reason}.`);
    await recordAudit(tx, actor, {
      entityType: "user",
      entityId: userId,
      action: "role_mapping_held",
      changes: { held, mapped, reason: outcome.reason, source: "oidc" },
    });
    return held;
  }
  const role = roleLabelOf(outcome.roles);
  await tx.update(users).set({ role, updatedAt: new Date().toISOString() }).where(eq(users.id, userId));
  await replaceRoles(tx, userId, outcome.roles, PROVIDER_GRANT);
  await recordAudit(tx, actor, {
    entityType: "user",
    entityId: userId,
    action: "update",
    changes: { before: { role: label, roles: held }, after: { role, roles: outcome.roles, source: "oidc" } },
  });
  return outcome.roles;
}
