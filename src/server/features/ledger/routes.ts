/** Ledger and liquid accounts (spec 7): list, create, and the journal reconciliation check. */
import { Hono } from "hono";
import { formatMoney } from "../../../domain/money.ts";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { openingBalanceNeedsApproval } from "../../../domain/approval.ts";
import { administer, submitForApproval } from "../approvals/four_eyes.ts";
import { validate } from "../../http/validation.ts";
import { reconcile } from "./reconciliation.ts";
import { accountIdParam, createAccountSchema, dailyOutflowLimitSchema } from "./schemas.ts";
import { createAccount, listAccounts, outflowLimitDraft, setDailyOutflowLimit } from "./service.ts";

export function ledgerRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/ledger-accounts", async (c) => c.json(await listAccounts(deps.db.read)));

  app.get("/ledger-accounts/reconciliation", async (c) => c.json(await reconcile(deps.db.readClient)));

  app.post("/ledger-accounts", validate("json", createAccountSchema), async (c) => {
    const input = c.req.valid("json");
    if (openingBalanceNeedsApproval(input.currentBalance)) {
      const opening = formatMoney(input.currentBalance);
      return await submitForApproval(c, deps, {
        kind: "opening_balance",
        payload: {
          ...input,
          currentBalance: opening,
          sweepThreshold: input.sweepThreshold === null ? null : formatMoney(input.sweepThreshold),
        },
        summary: {
          description: `Open ${input.accountType} account ${input.accountNumber} (${input.accountName}) with ${opening} ${input.currency}`,
          account: { accountNumber: input.accountNumber, accountName: input.accountName, balanceBefore: "0.00", balanceAfter: opening },
        },
        amountMinor: input.currentBalance,
        currency: input.currency,
        rehearse: (db) => createAccount(db, actorOf(c, deps.config), input),
      });
    }
    const account = await createAccount(deps.db, actorOf(c, deps.config), c.req.valid("json"));
    return c.json(account, 201);
  });

  app.put(
    "/ledger-accounts/:id/daily-outflow-limit",
    validate("param", accountIdParam),
    validate("json", dailyOutflowLimitSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const { dailyOutflowLimit } = c.req.valid("json");
      const actor = actorOf(c, deps.config);
      // Limits are controls: under dual control a second administrator approves the change.
      return await administer(
        c,
        deps,
        () => outflowLimitDraft(deps.db, actor, id, dailyOutflowLimit),
        async (origin) => c.json(await setDailyOutflowLimit(deps.db, actor, id, dailyOutflowLimit, origin)),
      );
    },
  );

  return app;
}
