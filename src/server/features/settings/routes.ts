/**
 * The System Settings screen's API (spec 2.16): every signed-in user reads the settings (the shell
 * shows the system's name); administrators change one tab at a time. The Security tab's session
 * timeout and password policy go through dual control once it is in force, like the sign-in
 * settings (src/server/auth/settings_routes.ts). The Notifications tab's routes are not here.
 */
import { Hono } from "hono";
import { z } from "zod";
import { MAX_REASON_LENGTH } from "../../../domain/approval.ts";
import { effectiveIdleMinutes, minimumPasswordLength } from "../../../domain/system_settings.ts";
import { lastBackupRun, nextScheduledBackupMs, startBackup, takesBackups } from "../../backup/runs.ts";
import type { Database } from "../../db/database.ts";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { validate } from "../../http/validation.ts";
import {
  apiSettingsSchema,
  backupSettingsSchema,
  generalSettingsSchema,
  readSystemSettings,
  securitySettingsSchema,
  type SettingsChange,
  type SettingsTab,
  systemSettingsSchema,
  updateSystemSettings,
} from "../../settings/system_settings.ts";
import { administer, administrationDraft } from "../approvals/four_eyes.ts";
import type { GrantOrigin } from "../../auth/role_grants.ts";
import { AUDIT_RETENTION_REASON, SMS_REASON, type SystemSettingsAnswer } from "./schemas.ts";

async function answerOf(deps: AppDeps): Promise<SystemSettingsAnswer> {
  const settings = await readSystemSettings(deps.db);
  const nextDueMs = takesBackups(deps.config) ? await nextScheduledBackupMs(deps) : null;
  return {
    ...settings,
    passwordMinLength: minimumPasswordLength(settings.passwordPolicy),
    sessionTimeoutCeiling: deps.config.sessionIdleMinutes,
    effectiveSessionTimeout: effectiveIdleMinutes(settings.sessionTimeout, deps.config.sessionIdleMinutes),
    requestLogRetentionDefaultDays: deps.config.apiLogRetentionDays,
    backup: {
      takesBackups: takesBackups(deps.config),
      lastRun: await lastBackupRun(deps),
      nextDueAt: nextDueMs === null ? null : new Date(Math.max(nextDueMs, deps.clock.now())).toISOString(),
    },
    readOnly: { auditLogRetention: AUDIT_RETENTION_REASON, smsNotifications: SMS_REASON },
  };
}

/** One tab's PUT: validated, written with its audit row, answered with every setting. */
function tabRoute(app: Hono<AppEnv>, deps: AppDeps, tab: SettingsTab, schema: z.ZodType<SettingsChange>) {
  app.put(`/settings/${tab}`, validate("json", schema), async (c) => {
    const change: SettingsChange = c.req.valid("json");
    await updateSystemSettings(deps.db, actorOf(c, deps.config), tab, change);
    return c.json(await answerOf(deps));
  });
}

export function settingsRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get("/settings", async (c) => c.json(await answerOf(deps)));
  tabRoute(app, deps, "general", generalSettingsSchema);
  tabRoute(app, deps, "api", apiSettingsSchema);
  tabRoute(app, deps, "backup", backupSettingsSchema);
  tabRoute(app, deps, "system", systemSettingsSchema);

  const security = securitySettingsSchema(deps.config.sessionIdleMinutes);
  // The maker's reason rides beside the fields (read by requestReasonOf).
  const securityRequest = security.extend({ requestReason: z.string().max(MAX_REASON_LENGTH).optional() });
  app.put("/settings/security", validate("json", securityRequest), async (c) => {
    const { requestReason: _, ...change } = c.req.valid("json");
    const actor = actorOf(c, deps.config);
    const act = (db: Database, origin: GrantOrigin) =>
      updateSystemSettings(db, actor, "security", change, origin);
    const request = () =>
      administrationDraft("security_settings", actor, { payload: change, summary: change }, act);
    return await administer(c, deps, request, async (origin) => {
      await act(deps.db, origin);
      return c.json(await answerOf(deps));
    });
  });

  // "Back up now": answered once the run is claimed (202); the copy can take longer than a change may,
  // so the Backup tab reads its end from GET /api/settings.
  app.post("/settings/backup/run", async (c) => {
    const { run, finished } = await startBackup(deps, "manual", actorOf(c, deps.config));
    finished.catch((error) => console.error(`Backup ${run.id} could not be recorded: ${error}`));
    return c.json(run, 202);
  });
  return app;
}
