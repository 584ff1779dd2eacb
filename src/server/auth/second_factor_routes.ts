/**
 * The second-factor step of a pending session: the page or state of what it owes, and the code that
 * completes the sign-in (a TOTP or recovery code, or the first code of an enrolment).
 */
import type { Context, Hono } from "hono";
import { recordAudit } from "../audit/trail.ts";
import type { AppEnv } from "../http/context.ts";
import { AppError } from "../http/errors.ts";
import { validationError } from "../http/validation.ts";
import { renderRecoveryCodesPage } from "./login_page.ts";
import { confirmEnrolment, pendingEnrolment, verifySecondFactor } from "./second_factor.ts";
import { createSession, destroySession, type ResolvedSession } from "./sessions.ts";
import { clearFailures, recordFailure, throttledUntilMs } from "./throttle.ts";
import { codeSchema, isFormPost, readBody, type SignInKit } from "./sign_in_kit.ts";

export function secondFactorRoutes(app: Hono<AppEnv>, kit: SignInKit) {
  /** The second-factor step of a pending session: a code to enter, or an enrolment to finish. */
  app.get("/login/second-factor", async (c) => {
    const session = await kit.currentSession(c);
    if (!session?.secondFactor) return c.redirect(session ? "/" : "/api/login", 303);
    return kit.page(
      c,
      await kit.secondFactorPage(session),
      { error: c.req.query("error") ?? null },
    );
  });

  /** The same step for API clients: what is owed, and for an enrolment the secret and its QR code. */
  app.get("/auth/second-factor", async (c) => {
    const session = await kit.currentSession(c);
    if (!session) return c.json({ message: "Unauthorized" }, 401);
    if (!session.secondFactor) return c.json({ stage: null });
    if (session.secondFactor === "verify") return c.json({ stage: "verify" });
    return c.json({ stage: "enrol", enrolment: await pendingEnrolment(kit.db, kit.secrets, session.user) });
  });

  app.post("/login/second-factor", async (c) => {
    const isForm = isFormPost(c);
    const session = await kit.currentSession(c);
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
    const throttle = kit.throttleKeys(c, user.email);
    const waitUntil = await throttledUntilMs(kit.db.read, throttle.all);
    if (waitUntil !== null) return kit.throttled(c, waitUntil, isForm, await kit.secondFactorPage(session));

    const outcome = await checkCode(kit, c, session, throttle, parsed.data.otp);
    if (!outcome) {
      if (isForm) return c.redirect("/api/login/second-factor?error=code", 303);
      throw new AppError("unauthorized", "The code is not correct or was already used", {
        fields: { otp: "Invalid or used code" },
      });
    }
    kit.completeSignIn(c, outcome.token, user.email, throttle.known);
    if (isForm) {
      if (outcome.recoveryCodes) {
        const codes = outcome.recoveryCodes;
        return kit.page(c, (options) => renderRecoveryCodesPage({ ...options, codes }));
      }
      return c.redirect("/", 303);
    }
    return c.json(
      { ...user, ...(outcome.recoveryCodes ? { recoveryCodes: outcome.recoveryCodes } : {}) },
      200,
    );
  });
}

/** One transaction: a wrong code is counted and audited; a right one replaces the pending session. */
function checkCode(
  kit: SignInKit,
  c: Context<AppEnv>,
  session: ResolvedSession,
  throttle: ReturnType<SignInKit["throttleKeys"]>,
  otp: string,
) {
  const { user } = session;
  return kit.db.transaction(async (tx) => {
    const enrolling = session.secondFactor === "enrol";
    const recoveryCodes = enrolling ? await confirmEnrolment(tx, kit.secrets, user, otp) : null;
    const method = enrolling
      ? (recoveryCodes ? "enrolment" : null)
      : await verifySecondFactor(tx, kit.secrets, user, otp);
    if (!method) {
      for (const key of throttle.all) await recordFailure(tx, key);
      await recordAudit(tx, kit.actor(c, user.id), {
        entityType: "session",
        entityId: user.id,
        action: "second_factor_failed",
      });
      return null;
    }
    // A fresh session id once the sign-in is complete: the pending one is never upgraded in place.
    await destroySession(tx, session.sid);
    const created = await createSession(tx, user.id, kit.lifetime, kit.actor(c, user.id));
    await clearFailures(tx, throttle.personal);
    await recordAudit(tx, kit.actor(c, user.id), {
      entityType: "session",
      entityId: user.id,
      action: "login",
      changes: { secondFactor: method },
    });
    return { token: created.token, recoveryCodes };
  });
}
