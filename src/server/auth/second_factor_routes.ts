/**
 * The second-factor step of a pending session: the page or state of what it owes, and the code that
 * completes the sign-in (a TOTP or recovery code, or the first code of an enrolment). Codes are
 * limited by src/domain/second_factor_limits.ts, decided and judged inside one write transaction, so
 * that codes for one account are judged one at a time across every process on the database.
 */
import type { Context, Hono } from "hono";
import { and, eq, gt, lt } from "drizzle-orm";
import { secondFactorFailures, sessions } from "../../../db/schema.ts";
import {
  type CodeAttemptFacts,
  codeVerdict,
  reachesHourlyLimit,
  signInEndsAfter,
  WRONG_CODE_WINDOW_MS,
} from "../../domain/second_factor_limits.ts";
import { recordAudit } from "../audit/trail.ts";
import type { Tx } from "../db/database.ts";
import type { AppEnv } from "../http/context.ts";
import { AppError } from "../http/errors.ts";
import { validationError } from "../http/validation.ts";
import { reportUnderAttack } from "./attack_alerts.ts";
import { confirmEnrolment, pendingEnrolment, verifySecondFactor } from "./second_factor.ts";
import { clearSessionCookie } from "./session_cookie.ts";
import { createSession, destroySession, type ResolvedSession } from "./sessions.ts";
import {
  backoffUntilMs,
  clearFailures,
  deviceKey,
  recordFailure,
  secondFactorKey,
  type ThrottleKey,
} from "./throttle.ts";
import { codeSchema, isFormPost, readBody, type SignInKit } from "./sign_in_kit.ts";

/** The keys of one code attempt: the password's back-off keys and the codes' own. */
interface CodeKeys {
  throttle: ReturnType<SignInKit["throttleKeys"]>;
  /** The codes' back-off: the known browser's, or the account's for browsers that never signed in as it. */
  backoff: ThrottleKey;
}

const WRONG_CODE_MESSAGE = "The code is not correct or was already used";
const PASSWORD_AGAIN_MESSAGE = "Too many wrong codes. Sign in with your password again.";
const hourlyLimitMessage = (seconds: number) =>
  `Too many wrong codes for this account in the last hour. Try again in ${Math.ceil(seconds / 60)} minutes.`;

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
    // With the fraction of a millisecond: a code's arrival and the previous code's judgment can fall
    // in the same millisecond, and which came first decides whether it is judged.
    const arrivedAtMs = kit.clock.preciseNow();
    const isForm = isFormPost(c);
    const session = await kit.currentSession(c);
    if (!session?.secondFactor) {
      if (isForm) return c.redirect("/api/login", 303);
      throw new AppError("unauthorized", "Sign in with your password first", {
        extra: { needed: "password" },
      });
    }
    const parsed = codeSchema.safeParse(await readBody(c, isForm));
    if (!parsed.success) {
      if (isForm) return c.redirect("/api/login/second-factor?error=code", 303);
      throw validationError(parsed.error.issues);
    }
    const { user } = session;
    const throttle = kit.throttleKeys(c, user.email);
    const backoff = throttle.device === null ? secondFactorKey(user.id) : deviceKey(throttle.device);
    const outcome = await checkCode(kit, c, session, { throttle, backoff }, parsed.data.otp, arrivedAtMs);
    if (outcome.kind === "wait") {
      const message = outcome.reason === "hourly_limit" ? hourlyLimitMessage : undefined;
      return kit.throttled(c, outcome.untilMs, isForm, await kit.secondFactorPage(session), message);
    }
    if (outcome.kind !== "signed_in") {
      return refuseCode(c, kit, isForm, outcome.kind === "wrong" ? "wrong" : "ended");
    }
    kit.completeSignIn(c, outcome.token, user.email, throttle.device);
    if (isForm) {
      if (outcome.recoveryCodes) return kit.recoveryCodesPage(c, user, outcome.recoveryCodes);
      return c.redirect("/", 303);
    }
    return c.json(
      { ...user, ...(outcome.recoveryCodes ? { recoveryCodes: outcome.recoveryCodes } : {}) },
      200,
    );
  });
}

/** A wrong code, or a pending sign-in that has ended (its wrong codes spent): the password again. */
function refuseCode(c: Context<AppEnv>, kit: SignInKit, isForm: boolean, why: "wrong" | "ended") {
  if (why === "wrong") {
    if (isForm) return c.redirect("/api/login/second-factor?error=code", 303);
    throw new AppError("unauthorized", WRONG_CODE_MESSAGE, { fields: { otp: "Invalid or used code" } });
  }
  clearSessionCookie(c, kit.config);
  if (isForm) return c.redirect("/api/login?error=codes", 303);
  throw new AppError("unauthorized", PASSWORD_AGAIN_MESSAGE, {
    fields: { otp: "Invalid or used code" },
    extra: { needed: "password" },
  });
}

type CodeOutcome =
  | { kind: "wait"; reason: "hourly_limit" | "parallel" | "backoff"; untilMs: number }
  | { kind: "wrong" }
  | { kind: "ended" }
  | { kind: "signed_in"; token: string; recoveryCodes: string[] | null };

/**
 * One transaction: the limits decide whether the code is judged; a wrong code is counted and
 * audited; a right one replaces the pending session.
 */
function checkCode(
  kit: SignInKit,
  c: Context<AppEnv>,
  session: ResolvedSession,
  keys: CodeKeys,
  otp: string,
  arrivedAtMs: number,
): Promise<CodeOutcome> {
  const { user } = session;
  return kit.db.transaction(async (tx) => {
    // Another request may have ended the pending sign-in since this one read it.
    const pending = await tx.select({ sid: sessions.sid }).from(sessions).where(eq(sessions.sid, session.sid))
      .get();
    if (!pending) return { kind: "ended" };
    const facts = await codeFacts(tx, session, keys, arrivedAtMs, kit.clock.preciseNow());
    const verdict = codeVerdict(facts);
    if (verdict.kind === "password_again") return { kind: "ended" };
    if (verdict.kind === "wait") return verdict;
    const enrolling = session.secondFactor === "enrol";
    const recoveryCodes = enrolling ? await confirmEnrolment(tx, kit.secrets, user, otp, facts.nowMs) : null;
    const method = enrolling
      ? (recoveryCodes ? "enrolment" : null)
      : await verifySecondFactor(tx, kit.secrets, user, otp, facts.nowMs);
    if (!method) return await countWrongCode(kit, c, tx, session, keys, facts);
    // A fresh session id once the sign-in is complete: the pending one is never upgraded in place.
    await destroySession(tx, session.sid);
    const created = await createSession(tx, user.id, await kit.lifetime(), kit.clock.now(), {
      ...kit.actor(c, user.id),
      secondFactorDone: session.secondFactor ?? undefined,
    });
    await clearFailures(tx, keys.backoff);
    await clearFailures(tx, keys.throttle.personal);
    await recordAudit(tx, kit.actor(c, user.id), {
      entityType: "session",
      entityId: user.id,
      action: "login",
      changes: { secondFactor: method },
    });
    return { kind: "signed_in" as const, token: created.token, recoveryCodes };
  });
}

/** What the limits decide on, read inside the judging transaction. */
async function codeFacts(
  tx: Tx,
  session: ResolvedSession,
  keys: CodeKeys,
  arrivedAtMs: number,
  nowMs: number,
): Promise<CodeAttemptFacts> {
  const rows = await tx.select().from(secondFactorFailures).where(and(
    eq(secondFactorFailures.userId, session.user.id),
    gt(secondFactorFailures.failedAtMs, nowMs - WRONG_CODE_WINDOW_MS),
  )).all();
  const lastWrongCodeMs = rows.reduce<number | null>(
    (last, row) => Math.max(last ?? 0, row.failedAtMs),
    null,
  );
  return {
    arrivedAtMs,
    nowMs,
    lastWrongCodeMs,
    wrongCodesThisSignIn: rows.filter((row) => row.sessionId === session.sid).length,
    wrongCodesRecentMs: rows.filter((row) => row.deviceId === keys.throttle.device).map((row) =>
      row.failedAtMs
    ),
    backoffUntilMs: await backoffUntilMs(tx, keys.backoff, nowMs),
  };
}

/** Counts a wrong code: the back-off, the sign-in's and the hour's counts, the audit row; ends the sign-in at five. */
async function countWrongCode(
  kit: SignInKit,
  c: Context<AppEnv>,
  tx: Tx,
  session: ResolvedSession,
  keys: CodeKeys,
  facts: CodeAttemptFacts,
): Promise<CodeOutcome> {
  const { user } = session;
  const failedAtMs = kit.clock.preciseNow();
  await tx.delete(secondFactorFailures).where(
    lt(secondFactorFailures.failedAtMs, failedAtMs - WRONG_CODE_WINDOW_MS),
  );
  await tx.insert(secondFactorFailures).values({
    userId: user.id,
    sessionId: session.sid,
    deviceId: keys.throttle.device,
    failedAtMs,
  });
  await recordFailure(tx, keys.backoff, failedAtMs);
  const wrongCodesThisSignIn = facts.wrongCodesThisSignIn + 1;
  const ended = signInEndsAfter(wrongCodesThisSignIn);
  if (ended) await destroySession(tx, session.sid);
  const actor = kit.actor(c, user.id);
  await recordAudit(tx, actor, {
    entityType: "session",
    entityId: user.id,
    action: "second_factor_failed",
    changes: { wrongCodesThisSignIn, ...(ended ? { signInEnded: true } : {}) },
  });
  const recent = facts.wrongCodesRecentMs.filter((ms) => failedAtMs - ms < WRONG_CODE_WINDOW_MS).length + 1;
  if (keys.throttle.device === null && reachesHourlyLimit(recent)) {
    await reportUnderAttack(tx, actor, user.id, { factor: "second_factor", failures: recent }, failedAtMs);
  }
  return { kind: ended ? "ended" : "wrong" };
}
