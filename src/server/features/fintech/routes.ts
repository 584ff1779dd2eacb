/**
 * Fintech endpoints (spec 7): provider status, Plaid account services, Visa card payments. Each call
 * takes an Idempotency-Key, so a retry never calls the provider twice.
 */
import { Hono } from "hono";
import { type AppDeps, type AppEnv, actorOf } from "../../http/context.ts";
import { idempotencyKey, keyOf, sendKeyedAnswer } from "../../http/idempotency.ts";
import { validate } from "../../http/validation.ts";
import { type FintechProviders, providersFrom } from "./provider_config.ts";
import { checkBalanceSchema, directTransferSchema, pushPaymentSchema, verifyAccountSchema } from "./schemas.ts";
import { createFintechService } from "./service.ts";

export function fintechRoutes(deps: AppDeps, providers?: FintechProviders): Hono<AppEnv> {
  const chosen = providers ?? providersFrom(deps.config.features);
  const service = createFintechService(deps.db, chosen, deps.secrets);
  const app = new Hono<AppEnv>();

  app.get("/fintech/status", async (c) => c.json(await service.status()));

  app.post("/plaid/verify-account", validate("json", verifyAccountSchema), idempotencyKey(), async (c) => {
    const key = keyOf(c.req.valid("header"));
    return sendKeyedAnswer(c, await service.verifyAccount(actorOf(c, deps.config), key, c.req.valid("json")));
  });

  app.post("/plaid/check-balance", validate("json", checkBalanceSchema), idempotencyKey(), async (c) => {
    const key = keyOf(c.req.valid("header"));
    return sendKeyedAnswer(c, await service.checkBalance(actorOf(c, deps.config), key, c.req.valid("json")));
  });

  app.post("/visa/direct-transfer", validate("json", directTransferSchema), idempotencyKey(), async (c) => {
    const key = keyOf(c.req.valid("header"));
    return sendKeyedAnswer(c, await service.directTransfer(actorOf(c, deps.config), key, c.req.valid("json")));
  });

  app.post("/visa/push-payment", validate("json", pushPaymentSchema), idempotencyKey(), async (c) => {
    const key = keyOf(c.req.valid("header"));
    return sendKeyedAnswer(c, await service.pushPayment(actorOf(c, deps.config), key, c.req.valid("json")));
  });

  return app;
}
