/** Webhooks for downstream systems, administrators only (docs/webhooks.md). */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { validate } from "../../http/validation.ts";
import { findDelivery, listDeliveries, redeliver } from "./deliveries.ts";
import {
  createWebhookBody,
  deliveriesQuery,
  deliveryIdParam,
  updateWebhookBody,
  webhookIdParam,
} from "./schemas.ts";
import { createWebhook, deleteWebhook, listWebhooks, updateWebhook } from "./service.ts";
import { webhookPolicy } from "./settings.ts";

export function webhooksRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const policy = webhookPolicy(deps.config.features.webhookAllowedHosts);

  app.get("/webhooks", async (c) => c.json(await listWebhooks(deps.db.statements)));

  app.post("/webhooks", validate("json", createWebhookBody), async (c) => {
    const created = await createWebhook(
      deps.db,
      deps.secrets,
      actorOf(c, deps.config),
      c.req.valid("json"),
      policy,
    );
    // The signing secret is in this body and nowhere else: no cache may keep it.
    c.header("Cache-Control", "no-store");
    return c.json(created, 201);
  });

  app.patch(
    "/webhooks/:id",
    validate("param", webhookIdParam),
    validate("json", updateWebhookBody),
    async (c) => {
      const { id } = c.req.valid("param");
      return c.json(await updateWebhook(deps.db, actorOf(c, deps.config), id, c.req.valid("json"), policy));
    },
  );

  app.delete("/webhooks/:id", validate("param", webhookIdParam), async (c) => {
    await deleteWebhook(deps.db, actorOf(c, deps.config), c.req.valid("param").id);
    return c.body(null, 204);
  });

  app.get(
    "/webhooks/:id/deliveries",
    validate("param", webhookIdParam),
    validate("query", deliveriesQuery),
    async (c) => {
      const { id } = c.req.valid("param");
      return c.json(await listDeliveries(deps.db.statements, id, c.req.valid("query").limit));
    },
  );

  app.get(
    "/webhook-deliveries/:id",
    validate("param", deliveryIdParam),
    async (c) => c.json(await findDelivery(deps.db.statements, c.req.valid("param").id)),
  );

  app.post("/webhook-deliveries/:id/redeliver", validate("param", deliveryIdParam), async (c) => {
    const delivery = await redeliver(deps.db, actorOf(c, deps.config), c.req.valid("param").id);
    return c.json(delivery, 202);
  });

  return app;
}
