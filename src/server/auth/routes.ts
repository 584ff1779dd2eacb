/** Sign-in, sign-out and the current user (spec 4 and 7). */
import { type Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { SYSTEM_USER_ID, userCredentials, userRoles, users } from "../../../db/schema.ts";
import type { Role } from "../../domain/access.ts";
import { recordAudit } from "../audit.ts";
import { type AppDeps, type AppEnv, clientIp, requestIsHttps, type SessionUser } from "../context.ts";
import { AppError } from "../errors.ts";
import { readManifest } from "../static.ts";
import { validationError } from "../validation.ts";
import { renderLoginPage } from "./login_page.ts";
import { generatePassword, hashPassword, MAX_PASSWORD_LENGTH, verifyPassword } from "./passwords.ts";
import { createSession, destroySession, hashToken, SESSION_COOKIE } from "./sessions.ts";
import {
  accountKey,
  addressKey,
  clearFailures,
  lockedUntil,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
  recordFailure,
} from "./throttle.ts";

const loginSchema = z.object({
  email: z.string().trim().min(1).max(255),
  password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
});


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

export function authRoutes(deps: AppDeps) {
  const { db, config } = deps;
  const app = new Hono<AppEnv>();
  // Verified against when the e-mail is unknown, so both paths cost one argon2 verification.
  const decoyHash = hashPassword(generatePassword(), config.passwordHashCost);

  app.get("/login", async (c) => {
    const error = c.req.query("error") ?? null;
    const manifest = await readManifest(config.distDir);
    c.header("Cache-Control", "no-store");
    return c.html(renderLoginPage({ cssHref: manifest?.css ?? null, error }));
  });

  app.post("/login", async (c) => {
    const contentType = c.req.header("content-type") ?? "";
    const isForm = contentType.startsWith("application/x-www-form-urlencoded") ||
      contentType.startsWith("multipart/form-data");
    const raw = isForm ? Object.fromEntries(await c.req.formData()) : await c.req.json().catch(() => {
      throw new AppError("validation", "Request body must be JSON", { fields: { body: "Invalid JSON" } });
    });
    const parsed = loginSchema.safeParse(raw);
    if (!parsed.success) {
      if (isForm) return c.redirect("/api/login?error=invalid", 303);
      throw validationError(parsed.error.issues);
    }
    const email = parsed.data.email.toLowerCase();
    const ip = clientIp(c, config);
    const userAgent = c.req.header("user-agent") ?? null;
    const keys = [accountKey(email), ...(ip ? [addressKey(ip)] : [])];

    if (await lockedUntil(db.read, keys)) {
      if (isForm) return c.redirect("/api/login?error=locked", 303);
      throw new AppError("rate_limited", "Too many failed sign-in attempts. Try again later.");
    }

    const user = await db.read.select().from(users).where(eq(users.email, email)).get();
    const credentials = user
      ? await db.read.select().from(userCredentials).where(eq(userCredentials.userId, user.id)).get()
      : undefined;
    const passwordOk = await verifyPassword(parsed.data.password, credentials?.passwordHash ?? await decoyHash);
    const signInAllowed = Boolean(user && credentials && passwordOk && !user.disabledAt);

    if (!signInAllowed || !user) {
      await db.transaction(async (tx) => {
        await recordFailure(tx, accountKey(email), MAX_FAILURES_PER_ACCOUNT);
        if (ip) await recordFailure(tx, addressKey(ip), MAX_FAILURES_PER_ADDRESS);
        await recordAudit(tx, { userId: user?.id ?? SYSTEM_USER_ID, ipAddress: ip, userAgent }, {
          entityType: "session",
          entityId: user?.id ?? email.slice(0, 255),
          action: "login_failed",
          changes: { email },
        });
      });
      if (isForm) return c.redirect("/api/login?error=invalid", 303);
      throw new AppError("unauthorized", "Invalid email or password");
    }

    const { token } = await db.transaction(async (tx) => {
      const session = await createSession(tx, user.id, config.sessionIdleMinutes, { ipAddress: ip, userAgent });
      await clearFailures(tx, accountKey(email));
      await recordAudit(tx, { userId: user.id, ipAddress: ip, userAgent }, {
        entityType: "session",
        entityId: user.id,
        action: "login",
      });
      return session;
    });
    setCookie(c, SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: "Lax",
      secure: config.secureCookies || requestIsHttps(c),
      path: "/",
    });
    if (isForm) return c.redirect("/", 303);
    const roles = await db.read.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, user.id))
      .all();
    return c.json(publicUser(user, roles.map((row) => row.role), credentials?.mustChangePassword ?? false), 200);
  });

  const logout = async (c: Context<AppEnv>) => {
    const token = getCookie(c, SESSION_COOKIE);
    if (token) {
      const ip = clientIp(c, config);
      await db.transaction(async (tx) => {
        const userId = await destroySession(tx, hashToken(token));
        if (userId) {
          await recordAudit(tx, { userId, ipAddress: ip, userAgent: c.req.header("user-agent") ?? null }, {
            entityType: "session",
            entityId: userId,
            action: "logout",
          });
        }
      });
    }
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.redirect("/", 303);
  };
  app.get("/logout", logout);
  app.post("/logout", logout);

  return app;
}

/** Mounted behind the session guard. */
export function currentUserRoutes() {
  const app = new Hono<AppEnv>();
  app.get("/auth/user", (c) => c.json(c.get("user")));
  return app;
}
