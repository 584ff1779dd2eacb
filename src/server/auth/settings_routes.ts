/**
 * The administrator's sign-in settings (the Security tab's "MFA required"), kept on the server
 * because the server enforces them. Reading is open to every signed-in user, so the tab can show
 * the value; changing it is for administrators and is audited.
 */
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { signInSettings } from "../../../db/schema.ts";
import { recordAudit } from "../audit/trail.ts";
import { actorOf, type AppDeps, type AppEnv } from "../http/context.ts";
import { validate } from "../http/validation.ts";
import { secondFactorPolicy } from "./second_factor.ts";

const settingsBody = z.object({ mfaRequired: z.boolean() }).strict();

export function signInSettingsRoutes(deps: AppDeps) {
  const { db, config } = deps;
  const app = new Hono<AppEnv>();

  const current = async () => {
    const policy = await secondFactorPolicy(db.read, config);
    // enforced tells the screen when REQUIRE_MFA=0 makes the setting moot on this server.
    return { mfaRequired: policy.requiredForAll, mfaEnforced: policy.enforced };
  };

  app.get("/auth/sign-in-settings", async (c) => c.json(await current()));

  // Administrators only: the role rule in src/domain/access.ts.
  app.put(
    "/auth/sign-in-settings",
    validate("json", settingsBody),
    async (c) => {
      const { mfaRequired } = c.req.valid("json");
      await db.transaction(async (tx) => {
        const before = await tx.select({ mfaRequired: signInSettings.mfaRequiredForAll }).from(signInSettings)
          .where(eq(signInSettings.id, 1)).get();
        await tx.update(signInSettings).set({
          mfaRequiredForAll: mfaRequired,
          updatedAt: new Date().toISOString(),
          updatedBy: c.get("user").id,
        }).where(eq(signInSettings.id, 1));
        await recordAudit(tx, actorOf(c, config), {
          entityType: "sign_in_settings",
          entityId: "1",
          action: "update",
          changes: { before: { mfaRequired: before?.mfaRequired ?? true }, after: { mfaRequired } },
        });
      });
      return c.json(await current());
    },
  );

  return app;
}

/** The answer of GET and PUT /api/auth/sign-in-settings, as the settings screen reads it. */
export interface SignInSettings {
  mfaRequired: boolean;
  mfaEnforced: boolean;
}
