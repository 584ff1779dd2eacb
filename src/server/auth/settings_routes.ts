/**
 * The administrator's sign-in settings (the Security tab's "MFA required"), kept on the server
 * because the server enforces them. Reading is open to every signed-in user, so the tab can show
 * the value; changing it is for administrators and is audited.
 */
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { MAX_REASON_LENGTH } from "../../domain/approval.ts";
import { signInSettings } from "../../../db/schema.ts";
import { type Actor, recordAudit } from "../audit/trail.ts";
import type { Database } from "../db/database.ts";
import { administer, administrationDraft } from "../features/approvals/four_eyes.ts";
import { assertMayActAlone, type GrantOrigin } from "./role_grants.ts";
import { grantNote } from "./users.ts";
import { actorOf, type AppDeps, type AppEnv } from "../http/context.ts";
import { validate } from "../http/validation.ts";
import { secondFactorPolicy } from "./second_factor.ts";

const settingsBody = z.object({ mfaRequired: z.boolean() }).strict();
/** The route's body: under dual control it also carries the maker's reason (read by requestReasonOf). */
const settingsRequestBody = settingsBody.extend({ requestReason: z.string().max(MAX_REASON_LENGTH).optional() });

export function signInSettingsRoutes(deps: AppDeps) {
  const { db, config } = deps;
  const app = new Hono<AppEnv>();

  const current = async () => {
    const policy = await secondFactorPolicy(db.read, config);
    // enforced tells the screen when REQUIRE_MFA=0 makes the setting moot on this server.
    return { mfaRequired: policy.requiredForAll, mfaEnforced: policy.enforced };
  };

  app.get("/auth/sign-in-settings", async (c) => c.json(await current()));

  // Administrators only: the role rule in src/domain/access.ts. Under dual control, a request.
  app.put("/auth/sign-in-settings", validate("json", settingsRequestBody), async (c) => {
    const { mfaRequired } = c.req.valid("json");
    const actor = actorOf(c, config);
    const settings = { payload: { mfaRequired }, summary: { mfaRequired } };
    const change = (target: Database, origin: GrantOrigin) =>
      updateSignInSettings(target, actor, mfaRequired, origin);
    const request = () => administrationDraft("sign_in_settings", actor, settings, change);
    return await administer(c, deps, request, async (origin) => {
      await change(db, origin);
      return c.json(await current());
    });
  });

  return app;
}

/** The answer of GET and PUT /api/auth/sign-in-settings, as the settings screen reads it. */
export interface SignInSettings {
  mfaRequired: boolean;
  mfaEnforced: boolean;
}

export const signInSettingsSchema = settingsBody;

export async function updateSignInSettings(db: Database, actor: Actor, mfaRequired: boolean, origin: GrantOrigin) {
  await db.transaction(async (tx) => {
    await assertMayActAlone(tx, origin);
    const before = await tx.select({ mfaRequired: signInSettings.mfaRequiredForAll }).from(signInSettings)
      .where(eq(signInSettings.id, 1)).get();
    await tx.update(signInSettings).set({
      mfaRequiredForAll: mfaRequired,
      updatedAt: new Date().toISOString(),
      updatedBy: actor.userId,
    }).where(eq(signInSettings.id, 1));
    await recordAudit(tx, actor, {
      entityType: "sign_in_settings",
      entityId: "1",
      action: "update",
      changes: { before: { mfaRequired: before?.mfaRequired ?? true }, after: { mfaRequired }, control: grantNote(origin) },
    });
  });
}
