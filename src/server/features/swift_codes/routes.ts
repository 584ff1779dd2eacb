/** SWIFT/BIC codes: list, register and look up (spec 2.6 and 7). */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { notFound } from "../../http/errors.ts";
import { validate } from "../../http/validation.ts";
import { bicParam, registerSwiftCodeBody } from "./schemas.ts";
import { findSwiftCode, listSwiftCodes, registerSwiftCode } from "./service.ts";

export function swiftCodesRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/swift-codes", async (c) => c.json(await listSwiftCodes(deps.db.read)));

  app.post("/swift-codes", validate("json", registerSwiftCodeBody), async (c) => {
    const record = await registerSwiftCode(deps.db, actorOf(c, deps.config), c.req.valid("json"));
    return c.json(record, 201);
  });

  app.get("/swift-codes/:bic", validate("param", bicParam), async (c) => {
    const record = await findSwiftCode(deps.db.read, c.req.valid("param").bic);
    if (record === undefined) throw notFound("BIC");
    return c.json(record);
  });

  return app;
}
