/** IBAN country formats and IBAN validation (spec 2.7 and 7). */
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { actorOf, type AppDeps, type AppEnv } from "../../context.ts";
import { AppError } from "../../errors.ts";
import { validate } from "../../validation.ts";
import { countryCodeParam, createIbanConfigBody, updateIbanConfigBody, validateIbanBody } from "./schemas.ts";
import {
  createIbanConfig,
  listIbanConfigs,
  updateIbanConfig,
  validateIbanWithInstitution,
} from "./service.ts";

export function ibanRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post("/iban/validate", validate("json", validateIbanBody), async (c) => {
    return c.json(await validateIbanWithInstitution(deps.db, c.req.valid("json").iban));
  });

  app.get("/iban-configs", async (c) => c.json(await listIbanConfigs(deps.db.read)));

  // A wrong format makes valid IBANs fail (or invalid ones pass) everywhere: administrators only.
  const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
    if (c.get("user").role !== "admin") {
      throw new AppError("forbidden", "Only administrators can change IBAN formats");
    }
    await next();
  });

  app.post("/iban-configs", requireAdmin, validate("json", createIbanConfigBody), async (c) => {
    const record = await createIbanConfig(deps.db, actorOf(c, deps.config), c.req.valid("json"));
    return c.json(record, 201);
  });

  app.patch(
    "/iban-configs/:countryCode",
    requireAdmin,
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
