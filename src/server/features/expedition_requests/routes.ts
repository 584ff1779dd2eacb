/** Expedition requests of the Partnership Expediter (spec 2.13), mounted under /api. */
import { Hono } from "hono";
import { z } from "zod";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { validate } from "../../http/validation.ts";
import { createExpeditionRequestBody, updateExpeditionStatusBody } from "./schemas.ts";
import { createExpeditionRequest, listExpeditionRequests, updateExpeditionStatus } from "./service.ts";

const idParam = z.object({ id: z.string().min(1) });

export function expeditionRequestsRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/expedition-requests", async (c) => c.json(await listExpeditionRequests(deps.db.read)));

  app.post("/expedition-requests", validate("json", createExpeditionRequestBody), async (c) => {
    const created = await createExpeditionRequest(deps.db, actorOf(c, deps.config), c.req.valid("json"));
    return c.json(created, 201);
  });

  app.patch(
    "/expedition-requests/:id",
    validate("param", idParam),
    validate("json", updateExpeditionStatusBody),
    async (c) => {
      const { id } = c.req.valid("param");
      return c.json(await updateExpeditionStatus(deps.db, actorOf(c, deps.config), id, c.req.valid("json")));
    },
  );

  return app;
}
