/**
 * Sign-in, the second factor, sign-out and the current user (spec 4 and 7). Signing in takes the
 * password, then (when the account has or needs one) a TOTP code or an enrolment; until then the
 * session is marked as owing its second factor and every other call answers 403.
 */
import { Hono } from "hono";
import { recordAudit } from "../audit/trail.ts";
import type { AppDeps, AppEnv } from "../http/context.ts";
import { renderSignOutPage } from "./login_page.ts";
import { clearSessionCookie, readSessionToken } from "./session_cookie.ts";
import { destroySession, hashToken } from "./sessions.ts";
import { passwordSignInRoutes } from "./password_sign_in.ts";
import { secondFactorRoutes } from "./second_factor_routes.ts";
import { ssoRoutes } from "./sso_routes.ts";
import { SignInKit } from "./sign_in_kit.ts";
import { sessionResolver } from "./middleware.ts";
import { signInSteps } from "../../domain/first_sign_in.ts";

export function authRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const kit = new SignInKit(deps);
  passwordSignInRoutes(app, kit);
  secondFactorRoutes(app, kit);
  ssoRoutes(app, kit);
  signOutRoutes(app, kit);
  return app;
}

function signOutRoutes(app: Hono<AppEnv>, kit: SignInKit) {
  const { db, config } = kit;
  /** A link can only ask: signing out is a POST, which the cross-site guard lets through from this origin alone. */
  app.get("/logout", (c) => kit.page(c, renderSignOutPage));

  app.post("/logout", async (c) => {
    const token = readSessionToken(c, config);
    if (token) {
      await db.transaction(async (tx) => {
        const userId = await destroySession(tx, hashToken(token));
        if (userId) {
          await recordAudit(tx, kit.actor(c, userId), {
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
}

/**
 * Mounted behind the session guard. While a one-time password is still in use the answer also
 * carries `signInSteps`, the steps of this sign-in (src/domain/first_sign_in.ts), so that the
 * password screen goes on counting where the sign-in pages left off.
 */
export function currentUserRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const sessions = sessionResolver(deps);
  app.get("/auth/user", async (c) => {
    const user = c.get("user");
    const token = readSessionToken(c, deps.config);
    if (!user.mustChangePassword || c.get("apiKeyId") || !token) return c.json(user);
    const session = await sessions.resolve(token, false);
    const steps = signInSteps({ secondFactor: session?.secondFactorDone ?? null, mustChangePassword: true });
    return c.json({ ...user, signInSteps: steps });
  });
  return app;
}
