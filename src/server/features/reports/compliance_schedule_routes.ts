/** The compliance schedule of the Reports screen (spec 2.15), mounted under /api. */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { validate } from "../../http/validation.ts";
import { createFiling, listFilings, removeFiling, updateFiling } from "./compliance_schedule.ts";
import { createFilingSchema, filingIdParamSchema, updateFilingSchema } from "./schemas.ts";

const PATH = "/reports/compliance-schedule";

export function complianceScheduleRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(PATH, async (c) => c.json(await listFilings(deps.db.read)));

  app.post(PATH, validate("json", createFilingSchema), async (c) => {
    return c.json(await createFiling(deps.db, actorOf(c, deps.config), c.req.valid("json")), 201);
  });

  app.patch(`${PATH}/:id`, validate("param", filingIdParamSchema), validate("json", updateFilingSchema), async (c) => {
    const filing = await updateFiling(deps.db, actorOf(c, deps.config), c.req.valid("param").id, c.req.valid("json"));
    return c.json(filing);
  });

  app.delete(`${PATH}/:id`, validate("param", filingIdParamSchema), async (c) => {
    await removeFiling(deps.db, actorOf(c, deps.config), c.req.valid("param").id);
    return c.body(null, 204);
  });

  return app;
}
