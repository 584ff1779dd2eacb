/** National routing registry: list and register participants (spec 2.8 and 7). */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { validate } from "../../http/validation.ts";
import { createNationalRoutingBody } from "./schemas.ts";
import { createNationalRoutingEntry, listNationalRouting } from "./service.ts";

export function nationalRoutingRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const defaultPrefix = deps.config.features.nationalRoutingIssuerPrefix;

  app.get("/national-routing", async (c) => c.json(await listNationalRouting(deps.db.read)));

  app.post("/national-routing", validate("json", createNationalRoutingBody), async (c) => {
    const entry = await createNationalRoutingEntry(
      deps.db,
      actorOf(c, deps.config),
      defaultPrefix,
      c.req.valid("json"),
    );
    return c.json(entry, 201);
  });

  return app;
}
