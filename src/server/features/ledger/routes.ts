/** Ledger and liquid accounts (spec 7): list, create, and the journal reconciliation check. */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { openingBalanceNeedsApproval } from "../../../domain/approval.ts";
import { administer, fileApprovalRequest, pendingBody, requestReasonOf } from "../approvals/four_eyes.ts";
import { answerOnce, idempotencyKey, keyOf, sendKeyedAnswer } from "../../http/idempotency.ts";
import { validate } from "../../http/validation.ts";
import { reconcile } from "./reconciliation.ts";
import { accountIdParam, createAccountSchema, dailyOutflowLimitSchema } from "./schemas.ts";
import {
  createAccount,
  listAccounts,
  openingBalanceDraft,
  openingPayload,
  outflowLimitDraft,
  setDailyOutflowLimit,
} from "./service.ts";

export function ledgerRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/ledger-accounts", async (c) => c.json(await listAccounts(deps.db.read)));

  app.get("/ledger-accounts/reconciliation", async (c) => c.json(await reconcile(deps.db.readClient)));

  /**
   * An account opened at zero is created at once; with an opening balance it waits for a second
   * person. With an Idempotency-Key either happens once and its answer is replayed for every retry.
   */
  app.post("/ledger-accounts", validate("json", createAccountSchema), idempotencyKey(), async (c) => {
    const input = c.req.valid("json");
    const actor = actorOf(c, deps.config);
    const requestReason = await requestReasonOf(c);
    const payload = openingPayload(input);
    const keyed = {
      userId: actor.userId,
      route: "ledger_account_create",
      key: keyOf(c.req.valid("header")),
      request: [payload, requestReason],
    };
    return sendKeyedAnswer(
      c,
      await answerOnce(deps.db, keyed, async (inner) => {
        if (!openingBalanceNeedsApproval(input.currentBalance)) {
          return { status: 201, body: await createAccount(inner, actor, input) };
        }
        const draft = openingBalanceDraft(input, payload, (db) => createAccount(db, actor, input));
        const request = await fileApprovalRequest(inner, actor, draft, requestReason);
        return { status: 202, body: pendingBody(request) };
      }),
    );
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
