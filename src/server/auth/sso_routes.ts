/** Single sign-on: off to the identity provider, and back at OIDC_REDIRECT_URI. */
import type { Hono } from "hono";
import { SYSTEM_USER_ID } from "../../../db/schema.ts";
import { recordAudit } from "../audit/trail.ts";
import { type AppEnv, clientIp } from "../http/context.ts";
import { servedAtHeadquarters } from "../topology/placement.ts";
import { SsoRefused } from "./oidc.ts";
import { readSessionToken, writeSessionCookie } from "./session_cookie.ts";
import { createSession, destroySession, hashToken } from "./sessions.ts";
import type { SignInKit } from "./sign_in_kit.ts";

export function ssoRoutes(app: Hono<AppEnv>, kit: SignInKit) {
  const { db, config, sso } = kit;

  app.get("/login/oidc", servedAtHeadquarters, async (c) => {
    if (!sso) return c.json({ message: "Single sign-on is not configured", code: "not_found" }, 404);
    try {
      return c.redirect((await sso.start(c)).href, 302);
    } catch (error) {
      console.error("OIDC discovery failed:", error instanceof Error ? error.message : error);
      return kit.page(c, await kit.loginPage(), {
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
        const session = await createSession(tx, user.id, await kit.lifetime(), kit.clock.now(), {
          ...who,
          signedInWith: "oidc",
        });
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
      return kit.page(c, await kit.loginPage(), { message: `Single sign-on failed. ${error.userMessage}` }, 401);
    }
  });
}
