/**
 * Single sign-on through the bank's identity provider: the authorization code flow with PKCE,
 * state and nonce, done by openid-client (an OpenID-certified relying party), which also verifies
 * the ID token: signature against the provider's published keys, issuer, audience, expiry and
 * nonce. Nothing here parses or checks a token by hand. The flow's secrets (state, nonce, PKCE
 * verifier) wait for the callback in a short-lived cookie encrypted with the server's key.
 */
import type { Context } from "hono";
import { and, eq } from "drizzle-orm";
import * as client from "openid-client";
import { userIdentities, userRoles, users } from "../../../db/schema.ts";
import { claimAt, mapClaimRoles } from "../../domain/oidc_roles.ts";
import { type Actor, recordAudit } from "../audit/trail.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { Secrets } from "../secrets.ts";
import { grantedRoles, type OidcConfig } from "./oidc_config.ts";
import { roleLabelOf } from "./users.ts";
import { PROVIDER_GRANT, replaceRoles } from "./role_grants.ts";
import { roleConflict } from "../../domain/dual_control.ts";
import type { Role } from "../../domain/access.ts";
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
   * The console user for verified claims: found by (issuer, subject), else linked by a verified
   * e-mail address, else created. The role follows the provider on every sign-in.
   */
  async userFor(db: Database, claims: Record<string, unknown>, actor: Omit<Actor, "userId">) {
    const issuer = String(claims.iss);
    const subject = String(claims.sub);
    const roles = this.#rolesOf(claims, subject);
    const role = roleLabelOf(roles);
    const { email, names } = providerProfile(claims);
    const emailVerified = claims.email_verified === true;
    return await db.transaction(async (tx) => {
      const identity = await tx.select({ userId: userIdentities.userId }).from(userIdentities)
        .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject))).get();
      let userId = identity?.userId ?? null;
      if (!userId) {
        if (!email || !emailVerified) {
          throw new SsoRefused(
            "The identity provider did not confirm your e-mail address, so no console account can be matched.",
            `no verified email for ${subject}`,
          );
        }
        const existing = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
        userId = existing?.id ?? crypto.randomUUID();
        if (!existing) {
          const emailSkeleton = await lookAlikeRefused(() => newAccountSkeleton(tx, email), email);
          await tx.insert(users).values({ id: userId, email, emailSkeleton, ...names, role });
          await replaceRoles(tx, userId, roles, PROVIDER_GRANT);
          await recordAudit(tx, { ...actor, userId }, {
            entityType: "user",
            entityId: userId,
            action: "create",
            changes: { after: { email, role, roles, source: "oidc" } },
          });
        }
        await tx.insert(userIdentities).values({ issuer, subject, userId });
      } else {
        await tx.update(userIdentities).set({ lastSignInAt: new Date().toISOString() })
          .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)));
      }
      const user = await tx.select().from(users).where(eq(users.id, userId)).get();
      if (!user || user.disabledAt) {
        throw new SsoRefused("This console account is disabled.", `disabled user ${userId}`);
      }
      const held = (await tx.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId)).all())
        .map((row) => row.role);
      const same = held.length === roles.length && roles.every((granted) => held.includes(granted));
      if (user.role !== role || !same) {
        await tx.update(users).set({ role, updatedAt: new Date().toISOString() }).where(eq(users.id, userId));
        await replaceRoles(tx, userId, roles, PROVIDER_GRANT);
        await recordAudit(tx, { ...actor, userId }, {
          entityType: "user",
          entityId: userId,
          action: "update",
          changes: { before: { role: user.role, roles: held }, after: { role, roles, source: "oidc" } },
        });
      }
      return { ...user, role, roles };
    });
  }
}
