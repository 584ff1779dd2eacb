/** National routing codes: list, preview, assign and look up (spec 2.5 and 7). */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { notFound } from "../../http/errors.ts";
import { validate } from "../../http/validation.ts";
import { assignRoutingCodeBody, generatePreviewBody, routingCodeParam } from "./schemas.ts";
import { assignRoutingCode, listRoutingCodes, previewRoutingCode, RoutingCodeLookup } from "./service.ts";
import { servedLocally } from "../../topology/placement.ts";

export function routingCodesRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const lookup = new RoutingCodeLookup(deps.db);

  app.get("/routing-codes", async (c) => c.json(await listRoutingCodes(deps.db.read)));

  app.post(
    "/routing-codes/generate-preview",
    servedLocally,
    validate("json", generatePreviewBody),
    async (c) => {
      const { prefix } = c.req.valid("json");
      return c.json({ code: await previewRoutingCode(deps.db.read, prefix) });
    },
  );

  app.post("/routing-codes", validate("json", assignRoutingCodeBody), async (c) => {
    const record = await assignRoutingCode(deps.db, actorOf(c, deps.config), c.req.valid("json"));
    return c.json(record, 201);
  });

  app.get("/routing-codes/:code", validate("param", routingCodeParam), async (c) => {
    const record = await lookup.find(c.req.valid("param").code);
    if (record === undefined) throw notFound("Routing code");
    return c.json(record);
  });

  return app;
}
