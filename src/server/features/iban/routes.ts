/** IBAN country formats and IBAN validation (spec 2.7 and 7). */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { validate } from "../../http/validation.ts";
import { countryCodeParam, createIbanConfigBody, updateIbanConfigBody, validateIbanBody } from "./schemas.ts";
import {
  createIbanConfig,
  listIbanConfigs,
  updateIbanConfig,
  validateIbanWithInstitution,
} from "./service.ts";
import { servedLocally } from "../../topology/placement.ts";

export function ibanRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post("/iban/validate", servedLocally, validate("json", validateIbanBody), async (c) => {
    return c.json(await validateIbanWithInstitution(deps.db, c.req.valid("json").iban));
  });

  app.get("/iban-configs", async (c) => c.json(await listIbanConfigs(deps.db.read)));

  app.post("/iban-configs", validate("json", createIbanConfigBody), async (c) => {
    const record = await createIbanConfig(deps.db, actorOf(c, deps.config), c.req.valid("json"));
    return c.json(record, 201);
  });

  app.patch(
    "/iban-configs/:countryCode",
    validate("param", countryCodeParam),
    validate("json", updateIbanConfigBody),
    async (c) => {
      const { countryCode } = c.req.valid("param");
      return c.json(
        await updateIbanConfig(deps.db, actorOf(c, deps.config), countryCode, c.req.valid("json")),
      );
    },
  );

  return app;
}
