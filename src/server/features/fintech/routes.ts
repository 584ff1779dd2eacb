/** Fintech endpoints (spec 7): provider status, Plaid account services, Visa card payments. */
import { Hono } from "hono";
import { type AppDeps, type AppEnv, actorOf } from "../../http/context.ts";
import { validate } from "../../http/validation.ts";
import { type FintechProviders, providersFrom } from "./provider_config.ts";
import { checkBalanceSchema, directTransferSchema, pushPaymentSchema, verifyAccountSchema } from "./schemas.ts";
import { createFintechService } from "./service.ts";

export function fintechRoutes(deps: AppDeps, providers?: FintechProviders): Hono<AppEnv> {
  const service = createFintechService(deps.db, providers ?? providersFrom(deps.config.features));
  const app = new Hono<AppEnv>();

  app.get("/fintech/status", (c) => c.json(service.status()));

  app.post("/plaid/verify-account", validate("json", verifyAccountSchema), async (c) => {
    return c.json(await service.verifyAccount(actorOf(c, deps.config), c.req.valid("json")));
  });

  app.post("/plaid/check-balance", validate("json", checkBalanceSchema), async (c) => {
    return c.json(await service.checkBalance(actorOf(c, deps.config), c.req.valid("json")));
  });

  app.post("/visa/direct-transfer", validate("json", directTransferSchema), async (c) => {
    return c.json(await service.directTransfer(actorOf(c, deps.config), c.req.valid("json")));
  });

  app.post("/visa/push-payment", validate("json", pushPaymentSchema), async (c) => {
    return c.json(await service.pushPayment(actorOf(c, deps.config), c.req.valid("json")));
  });

  return app;
}
