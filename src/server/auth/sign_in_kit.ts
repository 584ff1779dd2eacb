/**
 * What the sign-in routes share: the pages they answer with, the back-off keys of an attempt, the
 * cookies of a completed sign-in and the actor of their audit rows.
 */
import type { Context } from "hono";
import { z } from "zod";
import type { users } from "../../../db/schema.ts";
import type { Role } from "../../domain/access.ts";
import { retryAfterSeconds } from "../../domain/sign_in_throttle.ts";
import { type AppDeps, clientIp, type SessionUser } from "../http/context.ts";
import { AppError } from "../http/errors.ts";
import { readManifest } from "../http/static.ts";
import { signInSteps } from "../../domain/first_sign_in.ts";
import {
  type PageOptions,
  renderEnrolPage,
  renderLoginPage,
  renderRecoveryCodesPage,
  renderVerifyPage,
} from "./login_page.ts";
import { generatePassword, hashPassword, MAX_PASSWORD_LENGTH } from "./passwords.ts";
import { pendingEnrolment, secondFactorPolicy } from "./second_factor.ts";
import { readSessionToken, writeSessionCookie } from "./session_cookie.ts";
import { type ResolvedSession, sessionLifetime } from "./sessions.ts";
import { sessionResolver } from "./middleware.ts";
import { issueDeviceCookie, knownDevice } from "./device_cookie.ts";
import { OidcSignIn } from "./oidc.ts";
import { accountKey, addressKey, deviceKey, type Refusal } from "./throttle.ts";
import { issueWaitTicket, readWaitTicket } from "./wait_ticket.ts";

export const loginSchema = z.object({
  email: z.string().trim().min(1).max(255),
  password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
});

/** "otp", a name the request log redacts (src/domain/redaction.ts): a recovery code must never be logged. */
export const codeSchema = z.object({ otp: z.string().trim().min(1).max(19) });

/** The same fields as GET /api/auth/user, so the client learns its roles and any pending password change. */
export const publicUser = (
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

export const isFormPost = (c: Context) => {
  const contentType = c.req.header("content-type") ?? "";
  return contentType.startsWith("application/x-www-form-urlencoded") ||
    contentType.startsWith("multipart/form-data");
};

export async function readBody(c: Context, isForm: boolean): Promise<unknown> {
  if (isForm) return Object.fromEntries(await c.req.formData());
  return await c.req.json().catch(() => {
    throw new AppError("validation", "Request body must be JSON", { fields: { body: "Invalid JSON" } });
  });
}

export class SignInKit {
  readonly db: AppDeps["db"];
  readonly config: AppDeps["config"];
  readonly secrets: AppDeps["secrets"];
  /** The time of every back-off, ticket and session decision (topology/clock.ts). */
  readonly clock: AppDeps["clock"];
  readonly resolver: ReturnType<typeof sessionResolver>;
  readonly sso: OidcSignIn | null;
  /** With single sign-on, passwords are for break-glass administrators, and only when allowed. */
  readonly localSignIn: boolean;
  /** Verified against when the e-mail is unknown, so both paths cost one argon2 verification. */
  readonly decoyHash: Promise<string>;

  constructor(deps: AppDeps) {
    const { db, config, secrets, clock } = deps;
    this.db = db;
    this.config = config;
    this.secrets = secrets;
    this.clock = clock;
    this.resolver = sessionResolver(deps);
    this.sso = config.oidc ? new OidcSignIn(config.oidc, config, secrets) : null;
    this.localSignIn = !config.oidc || config.oidc.localBreakGlass;
    this.decoyHash = hashPassword(generatePassword(), config.passwordHashCost);
  }

  /** A new session's lifetime: the System Settings' idle timeout under the host's ceiling. */
  lifetime = () => sessionLifetime(this.db, this.config);

  /** The sign-in page, saying beforehand who will need an authenticator app (the second-factor policy). */
  async loginPage(): Promise<(options: PageOptions) => string> {
    const policy = await secondFactorPolicy(this.db.read, this.config);
    const authenticatorNeeded = !policy.enforced ? "none" : policy.requiredForAll ? "all" : "some";
    return (options: PageOptions) =>
      renderLoginPage({
        ...options,
        ssoProviderName: this.config.oidc?.providerName ?? null,
        localForm: this.localSignIn,
        authenticatorNeeded,
      });
  }

  async page(
    c: Context,
    html: (options: PageOptions) => string,
    options: Partial<PageOptions> = {},
    status = 200,
  ) {
    const manifest = await readManifest(this.config.distDir);
    c.header("Cache-Control", "no-store");
    return c.html(
      html({ cssHref: manifest?.css ?? null, scriptSrc: manifest?.signInJs ?? null, ...options }),
      status as 200,
    );
  }

  /** 429 with Retry-After, as a page for the forms and as JSON for everyone else. */
  throttled(
    c: Context,
    untilMs: number,
    isForm: boolean,
    render: (options: PageOptions) => string,
    message?: (seconds: number) => string,
  ) {
    const seconds = retryAfterSeconds(untilMs, this.clock.now());
    c.header("Retry-After", String(seconds));
    const text = message?.(seconds) ?? null;
    if (isForm) return this.page(c, render, { retryAfterSeconds: seconds, message: text }, 429);
    return c.json({
      message: text ?? "Too many failed sign-in attempts. Try again later.",
      code: "rate_limited",
      retryAfterSeconds: seconds,
    }, 429);
  }

  /** The waiting ticket this browser holds for `email` (wait_ticket.ts), or null. */
  waitTicket(c: Context, email: string) {
    return readWaitTicket(c, this.config, this.secrets, email);
  }

  /**
   * A password attempt the back-off refused: 429, and a waiting ticket for a browser that has none
   * usable (`email` is null for a known browser, which waits on its own failures alone).
   */
  async refused(c: Context, email: string | null, refusal: Refusal, isForm: boolean) {
    if (email !== null && refusal.newTicketFromMs !== null) {
      issueWaitTicket(c, this.config, this.secrets, email, refusal.newTicketFromMs, this.clock.now());
    }
    return this.throttled(c, refusal.untilMs, isForm, await this.loginPage());
  }

  /** The session this browser holds, pending or complete, without counting the look as activity. */
  async currentSession(c: Context): Promise<ResolvedSession | null> {
    const token = readSessionToken(c, this.config);
    return token ? await this.resolver.resolve(token, false) : null;
  }

  /**
   * The back-off keys of an attempt for `email`: the account and the client address; or, when this
   * browser completed a sign-in for that e-mail before, its device alone, so that neither guesses at
   * the account nor guesses from the same address (a shared proxy) hold the owner back there.
   */
  throttleKeys(c: Context, email: string) {
    const device = knownDevice(c, this.config, this.secrets, email);
    if (device) return { personal: deviceKey(device), device, all: [deviceKey(device)] };
    const ip = clientIp(c, this.config);
    const personal = accountKey(email);
    return { personal, device: null, all: [personal, ...(ip ? [addressKey(ip)] : [])] };
  }

  /** The cookies of a completed sign-in: the session, and a device cookie unless the browser has one. */
  completeSignIn(c: Context, token: string, email: string, device: string | null) {
    writeSessionCookie(c, this.config, token);
    if (device === null) issueDeviceCookie(c, this.config, this.secrets, email);
  }

  actor(c: Context, userId: string) {
    return {
      userId,
      ipAddress: clientIp(c, this.config),
      userAgent: c.req.header("user-agent") ?? null,
    };
  }

  /** The page of the step a pending session owes: the code form, or the enrolment with its QR code. */
  async secondFactorPage(session: ResolvedSession) {
    const { mustChangePassword } = session.user;
    if (session.secondFactor === "verify") {
      const steps = signInSteps({ secondFactor: "verify", mustChangePassword });
      return (options: PageOptions) => renderVerifyPage({ ...options, steps: { steps, current: "verify" } });
    }
    const enrolment = await pendingEnrolment(this.db, this.secrets, session.user);
    const steps = signInSteps({ secondFactor: "enrol", mustChangePassword });
    return (options: PageOptions) =>
      renderEnrolPage({
        ...options,
        qrCode: enrolment.otpauthQrCode,
        secret: enrolment.secret,
        steps: { steps, current: "enrol" },
      });
  }

  /** The recovery codes of an enrolment just confirmed: shown once, to copy, download and confirm as saved. */
  recoveryCodesPage(c: Context, user: SessionUser, codes: string[]) {
    const steps = signInSteps({ secondFactor: "enrol", mustChangePassword: user.mustChangePassword });
    const file = {
      consoleAddress: new URL(c.req.url).origin,
      email: user.email,
      date: new Date(this.clock.now()).toISOString().slice(0, 10),
    };
    return this.page(c, (options) =>
      renderRecoveryCodesPage({ ...options, codes, file, steps: { steps, current: "recovery_codes" } }));
  }
}
