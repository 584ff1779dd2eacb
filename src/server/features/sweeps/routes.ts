/** Balance sweeps (spec 7): list, manual sweep, automatic sweep, detail and ISO 20022 download. */
import { Hono } from "hono";
import { formatMoney } from "../../../domain/money.ts";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import type { Database } from "../../db/database.ts";
import {
  fileApprovalRequest,
  needsApproval,
  pendingBody,
  type RequestDraft,
  requestReasonOf,
  submitForApproval,
} from "../approvals/four_eyes.ts";
import { conflict } from "../../http/errors.ts";
import { validate, validationError } from "../../http/validation.ts";
import { camt050FileName, renderCamt050 } from "./iso20022.ts";
import {
  autoSweepBodySchema,
  countSweepsQuery,
  createSweepSchema,
  idempotencyKeySchema,
  listSweepsQuery,
  sweepIdParam,
} from "./schemas.ts";
import {
  countSweepsSince,
  describeManualSweep,
  executeManualSweep,
  type Executor,
  fileManualSweepOnce,
  getSweep,
  listSweeps,
  loadSweepMessageData,
  AUTO_SWEEP_PLAN_CHANGED,
  autoSweepPlan,
  previewAutoSweep,
  runApprovedAutoSweep,
  sweepCharts,
  type SweepOutcome,
} from "./service.ts";

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";
/** The automatic run's reason is its rule; the maker may still give their own as requestReason. */
const AUTO_SWEEP_REASON = "Sweep of the balances above their sweep thresholds";

export function sweepsRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const executorOf = (user: AppEnv["Variables"]["user"]): Executor => ({
    userId: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
  });

  app.get("/balance-sweeps", validate("query", listSweepsQuery), async (c) => {
    return c.json(await listSweeps(deps.db.read, c.req.valid("query")));
  });

  /** How many sweeps ran since an instant (the screen's "today", from the browser's midnight). */
  app.get("/balance-sweeps/count", validate("query", countSweepsQuery), async (c) => {
    const since = new Date(c.req.valid("query").since).toISOString();
    return c.json({ since, count: await countSweepsSince(deps.db.read, since) });
  });

  /** Sweeps per day and ledger/liquid totals per currency per day, over the last 30 days. */
  app.get("/balance-sweeps/charts", async (c) => c.json(await sweepCharts(deps.db.read)));

  /** What the automatic sweep would move now (accounts, amounts, currencies), moving nothing. */
  app.get("/balance-sweeps/auto-sweep/plan", async (c) => c.json(await autoSweepPlan(deps.db.read)));

  app.post("/balance-sweeps/auto-sweep", validate("json", autoSweepBodySchema), async (c) => {
    // Every run that moves money needs a second person. The request holds the moves the maker saw;
    // approved, the run makes exactly those moves, or none if one no longer holds.
    const actor = actorOf(c, deps.config);
    const plan = await previewAutoSweep(deps.db);
    if (plan.sweeps.length === 0) return c.json({ sweepsExecuted: 0, sweepIds: [] });
    const confirmed = c.req.valid("json").planId;
    if (confirmed !== undefined && confirmed !== plan.planId) throw conflict("planId", AUTO_SWEEP_PLAN_CHANGED);
    const moves = plan.sweeps.map((sweep) => ({
      sourceAccountId: sweep.sourceId,
      targetAccountId: sweep.targetId,
      amount: formatMoney(sweep.amountMinor),
    }));
    const currencies = new Set(plan.sweeps.map((sweep) => sweep.currency));
    const totalMinor = plan.sweeps.reduce((sum, sweep) => sum + sweep.amountMinor, 0n);
    return await submitForApproval(c, deps, {
      kind: "auto_sweep",
      payload: { moves },
      summary: {
        description: `Automatic sweep of ${plan.sweeps.length} account(s) above their thresholds: ${
          plan.sweeps.map((sweep) =>
            `${formatMoney(sweep.amountMinor)} ${sweep.currency} ${sweep.sourceNumber} → ${sweep.targetNumber}`
          ).join("; ")
        }`,
      },
      amountMinor: currencies.size === 1 ? totalMinor : null,
      currency: currencies.size === 1 ? plan.sweeps[0].currency : null,
      rehearse: (db) => runApprovedAutoSweep(db, actor, executorOf(c.get("user")), plan.sweeps),
    }, AUTO_SWEEP_REASON);
  });

  app.post("/balance-sweeps", validate("json", createSweepSchema), async (c) => {
    const rawKey = c.req.header(IDEMPOTENCY_KEY_HEADER);
    let idempotencyKey: string | null = null;
    if (rawKey !== undefined) {
      const parsed = idempotencyKeySchema.safeParse(rawKey);
      if (!parsed.success) {
        throw validationError(
          parsed.error.issues.map((issue) => ({ ...issue, path: [IDEMPOTENCY_KEY_HEADER] })),
        );
      }
      idempotencyKey = parsed.data;
    }
    const input = c.req.valid("json");
    const described = await describeManualSweep(deps.db.read, input);
    const actor = actorOf(c, deps.config);
    let outcome: SweepOutcome;
    if (described && await needsApproval(deps.db.read, described.currency, input.sweepAmount)) {
      const draft: RequestDraft = {
        kind: "sweep",
        payload: { ...input, sweepAmount: formatMoney(input.sweepAmount) },
        summary: described.summary,
        amountMinor: input.sweepAmount,
        currency: described.currency,
        rehearse: (db) => executeManualSweep(db, actor, executorOf(c.get("user")), input, null),
      };
      const reason = await requestReasonOf(c, input.sweepReason);
      const file = async (db: Database) => pendingBody(await fileApprovalRequest(db, actor, draft, reason));
      if (idempotencyKey === null) return c.json(await file(deps.db), 202);
      outcome = await fileManualSweepOnce(deps.db, actor, input, idempotencyKey, file);
    } else {
      outcome = await executeManualSweep(deps.db, actor, executorOf(c.get("user")), input, idempotencyKey);
    }
    if (outcome.replayed) c.header(IDEMPOTENT_REPLAYED_HEADER, "true");
    return c.body(outcome.bodyJson, outcome.status, { "Content-Type": "application/json" });
  });

  app.get("/balance-sweeps/:id", validate("param", sweepIdParam), async (c) => {
    return c.json(await getSweep(deps.db.read, c.req.valid("param").id));
  });

  app.get("/balance-sweeps/:id/iso20022", validate("param", sweepIdParam), async (c) => {
    const data = await loadSweepMessageData(deps.db.read, c.req.valid("param").id);
    return c.body(renderCamt050(data), 200, {
      "Content-Type": "application/xml; charset=utf-8",
      "Content-Disposition": `attachment; filename="${
        camt050FileName(data.sweep.transactionReference ?? data.sweep.id)
      }"`,
      "Cache-Control": "no-store",
    });
  });

  return app;
}
