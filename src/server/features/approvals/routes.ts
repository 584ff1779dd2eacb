/** The approval queue: list, detail, approve, reject, withdraw; and the approval settings. */
import { type Context, Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { administer, type ApprovalExecutors } from "./four_eyes.ts";
import { answerOnce, idempotencyKey, keyOf, sendKeyedAnswer } from "../../http/idempotency.ts";
import { validate } from "../../http/validation.ts";
import { approvalIdParam, decisionSchema, listApprovalsQuery, updateSettingsSchema } from "./schemas.ts";
import { approvalPreview, previewQuery } from "./preview.ts";
import { cancel, decide, getApproval, getSettings, listApprovals, settingsDraft, updateSettings } from "./service.ts";

/** Lists answer a plain JSON array; the total for paging and the badge travels in this header. */
export const TOTAL_COUNT_HEADER = "X-Total-Count";

export function approvalsRoutes(deps: AppDeps, executors: ApprovalExecutors): Hono<AppEnv> {
  const { db, config } = deps;
  const app = new Hono<AppEnv>();

  app.get("/approvals", validate("query", listApprovalsQuery), async (c) => {
    const page = await listApprovals(db.read, c.req.valid("query"), c.get("user").id);
    c.header(TOTAL_COUNT_HEADER, String(page.total));
    return c.json(page.items);
  });

  // Before "/approvals/:id": "preview" is no request id.
  app.get("/approvals/preview", validate("query", previewQuery), async (c) => {
    return c.json(await approvalPreview(deps, c.get("user").id, c.req.valid("query")));
  });

  app.get("/approvals/:id", validate("param", approvalIdParam), async (c) => {
    return c.json(await getApproval(db.read, c.req.valid("param").id));
  });

  for (const decision of ["approve", "reject"] as const) {
    const decided = decisionAnswer(deps, executors, decision);
    app.post(
      `/approvals/:id/${decision}`,
      validate("param", approvalIdParam),
      validate("json", decisionSchema),
      idempotencyKey(),
      async (c) => {
        const { id } = c.req.valid("param");
        return sendKeyedAnswer(c, await decided(c, id, c.req.valid("json").reason, keyOf(c.req.valid("header"))));
      },
    );
  }

  app.post("/approvals/:id/cancel", validate("param", approvalIdParam), async (c) => {
    return c.json(await cancel(db, actorOf(c, config), c.req.valid("param").id));
  });

  app.get("/approval-settings", async (c) => c.json(await getSettings(db.read)));

  app.put("/approval-settings", validate("json", updateSettingsSchema), async (c) => {
    const actor = actorOf(c, config);
    const input = c.req.valid("json");
    return await administer(
      c,
      deps,
      () => settingsDraft(actor, input),
      async (origin) => c.json(await updateSettings(db, actor, input, origin)),
    );
  });

  return app;
}

/**
 * The decision, with the approved request's execution, in one transaction. With an Idempotency-Key
 * it happens once and its answer is replayed for every retry; a one-time password an approval hands
 * out is never kept, so a replay answers the decided request without it.
 */
function decisionAnswer(deps: AppDeps, executors: ApprovalExecutors, decision: "approve" | "reject") {
  return async (c: Context<AppEnv>, id: string, reason: string, key: string | null) => {
    const user = c.get("user");
    const actor = actorOf(c, deps.config);
    const decider = {
      userId: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      roles: user.roles,
    };
    const keyed = { userId: user.id, route: `approval_${decision}`, key, request: [id, reason] };
    return await answerOnce(deps.db, keyed, async (inner) => {
      const { initialPassword, ...body } = await decide(inner, executors, actor, decider, id, decision, reason);
      return { status: 200, body, ...(initialPassword === undefined ? {} : { secret: { initialPassword } }) };
    });
  };
}
