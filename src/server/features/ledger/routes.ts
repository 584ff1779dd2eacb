/** Ledger and liquid accounts (spec 7): list, create, and the journal reconciliation check. */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../context.ts";
import { validate } from "../../validation.ts";
import { reconcile } from "./reconciliation.ts";
import { createAccountSchema } from "./schemas.ts";
import { createAccount, listAccounts } from "./service.ts";

export function ledgerRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/ledger-accounts", async (c) => c.json(await listAccounts(deps.db.read)));

  app.get("/ledger-accounts/reconciliation", async (c) => c.json(await reconcile(deps.db.readClient)));

  app.post("/ledger-accounts", validate("json", createAccountSchema), async (c) => {
    const account = await createAccount(deps.db, actorOf(c, deps.config), c.req.valid("json"));
    return c.json(account, 201);
  });

  return app;
}
