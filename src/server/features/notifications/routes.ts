/**
 * The signed-in user's notifications (feed, read state, live stream, e-mail choices) and the SMTP
 * settings the e-mails go through (docs/notifications.md).
 */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { AppError } from "../../http/errors.ts";
import { validate } from "../../http/validation.ts";
import { feedQuery, notificationIdParam, preferencesSchema, smtpSettingsSchema } from "./schemas.ts";
import { feedOf, markAllRead, markRead, type Reader } from "./service.ts";
import { preferencesOf, sendTestMail, smtpSettingsView, updatePreferences, updateSmtpSettings } from "./settings.ts";
import { notificationStream, StreamCounter } from "./stream.ts";

const readerOf = (user: AppEnv["Variables"]["user"]): Reader => ({ id: user.id, roles: user.roles });

export function notificationsRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db, config, secrets } = deps;
  const app = new Hono<AppEnv>();

  app.get("/notifications", validate("query", feedQuery), async (c) => {
    return c.json(await feedOf(db.read, readerOf(c.get("user")), c.req.valid("query")));
  });

  app.get("/notifications/stream", notificationStream(deps, new StreamCounter()));

  app.post("/notifications/read-all", async (c) => {
    await markAllRead(db, readerOf(c.get("user")));
    return c.body(null, 204);
  });

  app.post("/notifications/:id/read", validate("param", notificationIdParam), async (c) => {
    await markRead(db, readerOf(c.get("user")), c.req.valid("param").id);
    return c.body(null, 204);
  });

  app.get("/notifications/preferences", async (c) => c.json(await preferencesOf(db.read, c.get("user").id)));

  app.put("/notifications/preferences", validate("json", preferencesSchema), async (c) => {
    return c.json(await updatePreferences(db, actorOf(c, config), c.req.valid("json")));
  });

  app.get("/settings/smtp", async (c) => c.json(await smtpSettingsView(db.read)));

  app.put("/settings/smtp", validate("json", smtpSettingsSchema), async (c) => {
    return c.json(await updateSmtpSettings(db, secrets, actorOf(c, config), c.req.valid("json")));
  });

  app.post("/settings/smtp/test", async (c) => {
    const to = c.get("user").email;
    const outcome = await sendTestMail(db, secrets, actorOf(c, config), to);
    if (!outcome.sent) {
      throw new AppError("bad_gateway", `The mail server did not accept the test e-mail: ${outcome.detail}`, {
        extra: { sent: false, detail: outcome.detail },
      });
    }
    return c.json({ sent: true, to, detail: outcome.detail });
  });

  return app;
}
