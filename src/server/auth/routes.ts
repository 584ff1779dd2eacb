/**
 * Sign-in, the second factor, sign-out and the current user (spec 4 and 7). Signing in takes the
 * password, then (when the account has or needs one) a TOTP code or an enrolment; until then the
 * session is marked as owing its second factor and every other call answers 403.
 */
import { type Context, Hono } from "hono";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { type SecondFactorStage, SYSTEM_USER_ID, userCredentials, userRoles, users } from "../../../db/schema.ts";
import type { Role } from "../../domain/access.ts";
import { retryAfterSeconds } from "../../domain/sign_in_throttle.ts";
import { recordAudit } from "../audit/trail.ts";
import { type AppDeps, type AppEnv, clientIp, type SessionUser } from "../http/context.ts";
import { AppError } from "../http/errors.ts";
import { readManifest } from "../http/static.ts";
import { validationError } from "../http/validation.ts";
import {
  type PageOptions,
  renderEnrolPage,
  renderLoginPage,
  renderRecoveryCodesPage,
  renderSignOutPage,
  renderVerifyPage,
} from "./login_page.ts";
import { generatePassword, hashPassword, MAX_PASSWORD_LENGTH, verifyPassword } from "./passwords.ts";
import {
  confirmEnrolment,
  hasConfirmedTotp,
  mustUseSecondFactor,
  pendingEnrolment,
  verifySecondFactor,
} from "./second_factor.ts";
import { clearSessionCookie, readSessionToken, writeSessionCookie } from "./session_cookie.ts";
import {
  createSession,
  destroySession,
  hashToken,
  type ResolvedSession,
  sessionLifetime,
} from "./sessions.ts";
import { sessionResolver } from "./middleware.ts";
import { issueDeviceCookie, knownDevice } from "./device_cookie.ts";
import { OidcSignIn, SsoRefused } from "./oidc.ts";
import {
  accountKey,
  addressKey,
  clearFailures,
  deviceKey,
  recordFailure,
  throttledUntilMs,
} from "./throttle.ts";
import { servedAtHeadquarters } from "../topology/placement.ts";

const loginSchema = z.object({
  email: z.string().trim().min(1).max(255),
  password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
});

/** "otp", a name the request log redacts (src/domain/redaction.ts): a recovery code must never be logged. */
const codeSchema = z.object({ otp: z.string().trim().min(1).max(19) });

/** The same fields as GET /api/auth/user, so the client learns its roles and any pending password change. */
const publicUser = (
  user: typeof users.$inferSelect,
  roles: readonly Role[],
  mustChangePassword: boolean,
): SessionUser => ({
  id: user.id,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  profileImageUrl: user.profileImageUrl,
  role: user.role,
  roles,
  mustChangePassword,
});

const isFormPost = (c: Context) => {
  const contentType = c.req.header("content-type") ?? "";
  return contentType.startsWith("application/x-www-form-urlencoded") ||
    contentType.startsWith("multipart/form-data");
};

async function readBody(c: Context, isForm: boolean): Promise<unknown> {
  if (isForm) return Object.fromEntries(await c.req.formData());
  return await c.req.json().catch(() => {
    throw new AppError("validation", "Request body must be JSON", { fields: { body: "Invalid JSON" } });
  });
}

export function authRoutes(deps: AppDeps) {
  const { db, config, secrets } = deps;
  const app = new Hono<AppEnv>();
  const resolver = sessionResolver(deps);
  const lifetime = sessionLifetime(config);
  const sso = config.oidc ? new OidcSignIn(config.oidc, config, secrets) : null;
  /** With single sign-on, passwords are for break-glass administrators, and only when allowed. */
  const localSignIn = !config.oidc || config.oidc.localBreakGlass;
  const loginPage = (options: PageOptions) =>
    renderLoginPage({
      ...options,
      ssoProviderName: config.oidc?.providerName ?? null,
      localForm: localSignIn,
    });
  // Verified against when the e-mail is unknown, so both paths cost one argon2 verification.
  const decoyHash = hashPassword(generatePassword(), config.passwordHashCost);

  const page = async (
    c: Context,
    html: (options: PageOptions) => string,
    options: Partial<PageOptions> = {},
    status = 200,
  ) => {
    const manifest = await readManifest(config.distDir);
    c.header("Cache-Control", "no-store");
    return c.html(html({ cssHref: manifest?.css ?? null, ...options }), status as 200);
  };

  /** 429 with Retry-After, as a page for the forms and as JSON for everyone else. */
  const throttled = (
    c: Context,
    untilMs: number,
    isForm: boolean,
    render: (options: PageOptions) => string,
  ) => {
    const seconds = retryAfterSeconds(untilMs, Date.now());
    c.header("Retry-After", String(seconds));
    if (isForm) return page(c, render, { retryAfterSeconds: seconds }, 429);
    return c.json({
      message: "Too many failed sign-in attempts. Try again later.",
      code: "rate_limited",
      retryAfterSeconds: seconds,
    }, 429);
  };

  /** The session this browser holds, pending or complete, without counting the look as activity. */
  const currentSession = async (c: Context): Promise<ResolvedSession | null> => {
    const token = readSessionToken(c, config);
    return token ? await resolver.resolve(token, false) : null;
  };

  /**
   * The back-off keys of an attempt for `email`: the account and the client address; or, when this
   * browser completed a sign-in for that e-mail before, its device alone, so that neither guesses at
   * the account nor guesses from the same address (a shared proxy) hold the owner back there.
   */
  const throttleKeys = (c: Context, email: string) => {
    const device = knownDevice(c, config, secrets, email);
    if (device) return { personal: deviceKey(device), known: true, all: [deviceKey(device)] };
    const ip = clientIp(c, config);
    const personal = accountKey(email);
    return { personal, known: false, all: [personal, ...(ip ? [addressKey(ip)] : [])] };
  };

  /** The cookies of a completed sign-in: the session, and a device cookie unless the browser has one. */
  const completeSignIn = (c: Context, token: string, email: string, knownBrowser: boolean) => {
    writeSessionCookie(c, config, token);
    if (!knownBrowser) issueDeviceCookie(c, config, secrets, email);
  };

  const actor = (c: Context, userId: string) => ({
    userId,
    ipAddress: clientIp(c, config),
    userAgent: c.req.header("user-agent") ?? null,
  });

  app.get("/login", async (c) => {
    const session = await currentSession(c);
    if (session?.secondFactor) return c.redirect("/api/login/second-factor", 303);
    return page(c, loginPage, { error: c.req.query("error") ?? null });
  });

  app.post("/login", async (c) => {
    const isForm = isFormPost(c);
    const parsed = loginSchema.safeParse(await readBody(c, isForm));
    if (!parsed.success) {
      if (isForm) return c.redirect("/api/login?error=invalid", 303);
      throw validationError(parsed.error.issues);
    }
    const email = parsed.data.email.toLowerCase();
    const throttle = throttleKeys(c, email);
    const keys = throttle.all;

    if (!localSignIn) {
      if (isForm) return c.redirect("/api/login?error=local", 303);
      throw new AppError("forbidden", `Sign in with ${config.oidc!.providerName}`);
    }
    const waitUntil = await throttledUntilMs(db.read, keys);
    if (waitUntil !== null) return throttled(c, waitUntil, isForm, loginPage);

    const user = await db.read.select().from(users).where(eq(users.email, email)).get();
    const credentials = user
      ? await db.read.select().from(userCredentials).where(eq(userCredentials.userId, user.id)).get()
      : undefined;
    const passwordOk = await verifyPassword(
      parsed.data.password,
      credentials?.passwordHash ?? await decoyHash,
    );

    if (!user || !credentials || !passwordOk || user.disabledAt) {
      await db.transaction(async (tx) => {
        for (const key of keys) await recordFailure(tx, key);
        await recordAudit(tx, actor(c, user?.id ?? SYSTEM_USER_ID), {
          entityType: "session",
          entityId: user?.id ?? email.slice(0, 255),
          action: "login_failed",
          changes: { email },
        });
      });
      if (isForm) return c.redirect("/api/login?error=invalid", 303);
      throw new AppError("unauthorized", "Invalid email or password");
    }

    if (config.oidc && user.role !== "admin") {
      if (isForm) return c.redirect("/api/login?error=local", 303);
      throw new AppError(
        "forbidden",
        `Password sign-in is reserved for break-glass administrators; sign in with ${config.oidc.providerName}`,
      );
    }

    const roles = (await db.read.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, user.id))
      .all()).map((row) => row.role);
    const stage: SecondFactorStage | undefined = await hasConfirmedTotp(db.read, user.id)
      ? "verify"
      : await mustUseSecondFactor(db.read, config, roles)
      ? "enrol"
      : undefined;
    const previous = readSessionToken(c, config);
    const { token } = await db.transaction(async (tx) => {
      // A sign-in replaces whatever session this browser held, so it cannot be revived later.
      if (previous) await destroySession(tx, hashToken(previous));
      const session = await createSession(tx, user.id, lifetime, actor(c, user.id), stage);
      // Failures are forgiven only once the whole sign-in succeeds: a known password must not
      // reset the back-off that guards the second factor.
      if (!stage) await clearFailures(tx, throttle.personal);
      await recordAudit(tx, actor(c, user.id), {
        entityType: "session",
        entityId: user.id,
        action: stage ? "login_password" : "login",
        ...(stage ? { changes: { secondFactor: stage } } : {}),
      });
      return session;
    });
    if (stage) writeSessionCookie(c, config, token);
    else completeSignIn(c, token, email, throttle.known);
    if (isForm) return c.redirect(stage ? "/api/login/second-factor" : "/", 303);
    return c.json({
      ...publicUser(user, roles, credentials?.mustChangePassword ?? false),
      ...(stage ? { secondFactor: stage } : {}),
    }, 200);
  });

  /** The page of the step a pending session owes: the code form, or the enrolment with its QR code. */
  const secondFactorPage = async (session: ResolvedSession) => {
    if (session.secondFactor === "verify") return renderVerifyPage;
    const enrolment = await pendingEnrolment(db, secrets, session.user);
    return (options: PageOptions) =>
      renderEnrolPage({ ...options, qrCode: enrolment.otpauthQrCode, secret: enrolment.secret });
  };

  /** The second-factor step of a pending session: a code to enter, or an enrolment to finish. */
  app.get("/login/second-factor", async (c) => {
    const session = await currentSession(c);
    if (!session?.secondFactor) return c.redirect(session ? "/" : "/api/login", 303);
    return page(
      c,
      await secondFactorPage(session),
      { error: c.req.query("error") ?? null },
    );
  });

  /** The same step for API clients: what is owed, and for an enrolment the secret and its QR code. */
  app.get("/auth/second-factor", async (c) => {
    const session = await currentSession(c);
    if (!session) return c.json({ message: "Unauthorized" }, 401);
    if (!session.secondFactor) return c.json({ stage: null });
    if (session.secondFactor === "verify") return c.json({ stage: "verify" });
    return c.json({ stage: "enrol", enrolment: await pendingEnrolment(db, secrets, session.user) });
  });

  app.post("/login/second-factor", async (c) => {
    const isForm = isFormPost(c);
    const session = await currentSession(c);
    if (!session?.secondFactor) {
      if (isForm) return c.redirect("/api/login", 303);
      throw new AppError("unauthorized", "Sign in with your password first");
    }
    const parsed = codeSchema.safeParse(await readBody(c, isForm));
    if (!parsed.success) {
      if (isForm) return c.redirect("/api/login/second-factor?error=code", 303);
      throw validationError(parsed.error.issues);
    }
    const { user } = session;
    const throttle = throttleKeys(c, user.email);
    const keys = throttle.all;
    const waitUntil = await throttledUntilMs(db.read, keys);
    if (waitUntil !== null) return throttled(c, waitUntil, isForm, await secondFactorPage(session));

    const outcome = await db.transaction(async (tx) => {
      const enrolling = session.secondFactor === "enrol";
      const recoveryCodes = enrolling ? await confirmEnrolment(tx, secrets, user, parsed.data.otp) : null;
      const method = enrolling
        ? (recoveryCodes ? "enrolment" : null)
        : await verifySecondFactor(tx, secrets, user, parsed.data.otp);
      if (!method) {
        for (const key of keys) await recordFailure(tx, key);
        await recordAudit(tx, actor(c, user.id), {
          entityType: "session",
          entityId: user.id,
          action: "second_factor_failed",
        });
        return null;
      }
      // A fresh session id once the sign-in is complete: the pending one is never upgraded in place.
      await destroySession(tx, session.sid);
      const created = await createSession(tx, user.id, lifetime, actor(c, user.id));
      await clearFailures(tx, throttle.personal);
      await recordAudit(tx, actor(c, user.id), {
        entityType: "session",
        entityId: user.id,
        action: "login",
        changes: { secondFactor: method },
      });
      return { token: created.token, recoveryCodes };
    });
    if (!outcome) {
      if (isForm) return c.redirect("/api/login/second-factor?error=code", 303);
      throw new AppError("unauthorized", "The code is not correct or was already used", {
        fields: { otp: "Invalid or used code" },
      });
    }
    completeSignIn(c, outcome.token, user.email, throttle.known);
    if (isForm) {
      if (outcome.recoveryCodes) {
        const codes = outcome.recoveryCodes;
        return page(c, (options) => renderRecoveryCodesPage({ ...options, codes }));
      }
      return c.redirect("/", 303);
    }
    return c.json(
      { ...user, ...(outcome.recoveryCodes ? { recoveryCodes: outcome.recoveryCodes } : {}) },
      200,
    );
  });

  /** Single sign-on: off to the identity provider, and back at OIDC_REDIRECT_URI. */
  app.get("/login/oidc", servedAtHeadquarters, async (c) => {
    if (!sso) return c.json({ message: "Single sign-on is not configured", code: "not_found" }, 404);
    try {
      return c.redirect((await sso.start(c)).href, 302);
    } catch (error) {
      console.error("OIDC discovery failed:", error instanceof Error ? error.message : error);
      return page(c, loginPage, {
        message: "The identity provider cannot be reached. Try again in a moment.",
      }, 502);
    }
  });

  app.get("/login/oidc/callback", servedAtHeadquarters, async (c) => {
    if (!sso) return c.json({ message: "Single sign-on is not configured", code: "not_found" }, 404);
    const who = { ipAddress: clientIp(c, config), userAgent: c.req.header("user-agent") ?? null };
    try {
      const claims = await sso.finish(c);
      const user = await sso.userFor(db, claims, who);
      const previous = readSessionToken(c, config);
      const { token } = await db.transaction(async (tx) => {
        if (previous) await destroySession(tx, hashToken(previous));
        const session = await createSession(tx, user.id, lifetime, who);
        await recordAudit(tx, { ...who, userId: user.id }, {
          entityType: "session",
          entityId: user.id,
          action: "login",
          changes: { method: "oidc", issuer: String(claims.iss) },
        });
        return session;
      });
      writeSessionCookie(c, config, token);
      return c.redirect("/", 303);
    } catch (error) {
      if (!(error instanceof SsoRefused)) throw error;
      await db.transaction((tx) =>
        recordAudit(tx, { ...who, userId: SYSTEM_USER_ID }, {
          entityType: "session",
          entityId: "oidc",
          action: "login_failed",
          changes: { method: "oidc", reason: error.message },
        })
      );
      return page(c, loginPage, { message: `Single sign-on failed. ${error.userMessage}` }, 401);
    }
  });

  /** A link can only ask: signing out is a POST, which the cross-site guard lets through from this origin alone. */
  app.get("/logout", (c) => page(c, renderSignOutPage));

  app.post("/logout", async (c) => {
    const token = readSessionToken(c, config);
    if (token) {
      await db.transaction(async (tx) => {
        const userId = await destroySession(tx, hashToken(token));
        if (userId) {
          await recordAudit(tx, actor(c, userId), {
            entityType: "session",
            entityId: userId,
            action: "logout",
          });
        }
      });
    }
    clearSessionCookie(c, config);
    return c.redirect("/", 303);
  });

  return app;
}

/** Mounted behind the session guard. */
export function currentUserRoutes() {
  const app = new Hono<AppEnv>();
  app.get("/auth/user", (c) => c.json(c.get("user")));
  return app;
}
