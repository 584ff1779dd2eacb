/**
 * Signing in with a password: the form, and the attempt, which ends signed in, owing a second factor,
 * or refused (counted against the back-off and audited). The back-off lets the attempt through, and
 * counts it as a failure, before the password is checked; a right password hands that failure back.
 */
import type { Context, Hono } from "hono";
import { eq } from "drizzle-orm";
import {
  type SecondFactorStage,
  SYSTEM_USER_ID,
  userCredentials,
  userIdentities,
  userRoles,
  users,
} from "../../../db/schema.ts";
import { ATTACK_ALERT_FAILURES } from "../../domain/sign_in_throttle.ts";
import { recordAudit } from "../audit/trail.ts";
import type { AppEnv } from "../http/context.ts";
import { AppError } from "../http/errors.ts";
import { validationError } from "../http/validation.ts";
import { verifyPassword } from "./passwords.ts";
import { hasConfirmedTotp, mustUseSecondFactor } from "./second_factor.ts";
import { readSessionToken, writeSessionCookie } from "./session_cookie.ts";
import { createSession, destroySession, hashToken } from "./sessions.ts";
import { reportUnderAttack } from "./attack_alerts.ts";
import { admitAttempt, clearFailures, failuresInARow, handBackFailure } from "./throttle.ts";
import { isFormPost, loginSchema, publicUser, readBody, type SignInKit } from "./sign_in_kit.ts";

type User = typeof users.$inferSelect;
type ThrottleKeys = ReturnType<SignInKit["throttleKeys"]>;

export function passwordSignInRoutes(app: Hono<AppEnv>, kit: SignInKit) {
  app.get("/login", async (c) => {
    const session = await kit.currentSession(c);
    if (session?.secondFactor) return c.redirect("/api/login/second-factor", 303);
    return kit.page(c, await kit.loginPage(), { error: c.req.query("error") ?? null });
  });

  app.post("/login", async (c) => {
    const isForm = isFormPost(c);
    const parsed = loginSchema.safeParse(await readBody(c, isForm));
    if (!parsed.success) {
      if (isForm) return c.redirect("/api/login?error=invalid", 303);
      throw validationError(parsed.error.issues);
    }
    const email = parsed.data.email.toLowerCase();
    const throttle = kit.throttleKeys(c, email);

    if (!kit.localSignIn) {
      if (isForm) return c.redirect("/api/login?error=local", 303);
      throw new AppError("forbidden", `Sign in with ${kit.config.oidc!.providerName}`);
    }
    const known = throttle.device !== null;
    const refusal = await admitAttempt(kit.db, throttle.all, known ? null : kit.waitTicket(c, email), kit.clock.now);
    if (refusal) return kit.refused(c, known ? null : email, refusal, isForm);

    const { db } = kit;
    const user = await db.read.select().from(users).where(eq(users.email, email)).get();
    const credentials = user
      ? await db.read.select().from(userCredentials).where(eq(userCredentials.userId, user.id)).get()
      : undefined;
    const passwordOk = await verifyPassword(
      parsed.data.password,
      credentials?.passwordHash ?? await kit.decoyHash,
    );

    if (!user || !credentials || !passwordOk || user.disabledAt) {
      return await refusePassword(kit, c, { user, email, throttle, isForm });
    }

    // With single sign-on, passwords are for break-glass administrators: a linked account is the provider's.
    if (kit.config.oidc && (user.role !== "admin" || await hasProviderIdentity(db, user.id))) {
      await db.transaction((tx) => handBackFailure(tx, throttle.all, kit.clock.now()));
      if (isForm) return c.redirect("/api/login?error=local", 303);
      throw new AppError(
        "forbidden",
        `Password sign-in is reserved for break-glass administrators; sign in with ${kit.config.oidc.providerName}`,
      );
    }
    return await acceptPassword(kit, c, { user, email, throttle, isForm }, credentials.mustChangePassword);
  });
}

async function hasProviderIdentity(db: SignInKit["db"], userId: string): Promise<boolean> {
  const identity = await db.read.select({ userId: userIdentities.userId }).from(userIdentities)
    .where(eq(userIdentities.userId, userId)).limit(1).get();
  return identity !== undefined;
}

async function refusePassword(
  kit: SignInKit,
  c: Context<AppEnv>,
  attempt: { user: User | undefined; email: string; throttle: ThrottleKeys; isForm: boolean },
) {
  const { user, email, throttle, isForm } = attempt;
  await kit.db.transaction(async (tx) => {
    // The failure was counted when the attempt was let through (admitAttempt).
    const actor = kit.actor(c, user?.id ?? SYSTEM_USER_ID);
    await recordAudit(tx, actor, {
      entityType: "session",
      entityId: user?.id ?? email.slice(0, 255),
      action: "login_failed",
      changes: { email },
    });
    if (!user || throttle.device !== null) return;
    const nowMs = kit.clock.now();
    const failures = await failuresInARow(tx, throttle.personal, nowMs);
    if (failures >= ATTACK_ALERT_FAILURES) {
      await reportUnderAttack(tx, actor, user.id, { factor: "password", failures }, nowMs);
    }
  });
  if (isForm) return c.redirect("/api/login?error=invalid", 303);
  throw new AppError("unauthorized", "Invalid email or password");
}

/** A session for a right password: complete, or pending the second factor the account has or needs. */
async function acceptPassword(
  kit: SignInKit,
  c: Context<AppEnv>,
  attempt: { user: User; email: string; throttle: ThrottleKeys; isForm: boolean },
  mustChangePassword: boolean,
) {
  const { db, config } = kit;
  const { user, email, throttle, isForm } = attempt;
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
    const nowMs = kit.clock.now();
    const session = await createSession(tx, user.id, await kit.lifetime(), nowMs, kit.actor(c, user.id), stage);
    await handBackFailure(tx, throttle.all, nowMs);
    // The account's failures are forgiven only once the whole sign-in succeeds.
    if (!stage) await clearFailures(tx, throttle.personal);
    await recordAudit(tx, kit.actor(c, user.id), {
      entityType: "session",
      entityId: user.id,
      action: stage ? "login_password" : "login",
      ...(stage ? { changes: { secondFactor: stage } } : {}),
    });
    return session;
  });
  if (stage) writeSessionCookie(c, config, token);
  else kit.completeSignIn(c, token, email, throttle.device);
  if (isForm) return c.redirect(stage ? "/api/login/second-factor" : "/", 303);
  return c.json({
    ...publicUser(user, roles, mustChangePassword),
    ...(stage ? { secondFactor: stage } : {}),
  }, 200);
}
