/** Balance sweeps (spec 7): list, manual sweep, automatic sweep, detail and ISO 20022 download. */
import { Hono } from "hono";
import { formatMoney } from "../../../domain/money.ts";
import { actorOf, type AppDeps, type AppEnv } from "../../context.ts";
import { needsApproval, submitForApproval } from "../../four_eyes.ts";
import { validate, validationError } from "../../validation.ts";
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
  getSweep,
  listSweeps,
  loadSweepMessageData,
  autoSweepPlan,
  previewAutoSweep,
  runAutoSweep,
  sweepCharts,
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
    // A run that would move more than the approval threshold in any one sweep needs a second person.
    const planned = await previewAutoSweep(deps.db);
    const large = [];
    for (const sweep of planned) {
      if (await needsApproval(deps.db.read, sweep.currency, sweep.amountMinor)) large.push(sweep);
    }
    if (large.length > 0) {
      const currencies = new Set(planned.map((sweep) => sweep.currency));
      const totalMinor = planned.reduce((sum, sweep) => sum + sweep.amountMinor, 0n);
      return await submitForApproval(c, deps, {
        kind: "auto_sweep",
        payload: {},
        summary: {
          description: `Automatic sweep of ${planned.length} account(s) above their thresholds: ${
            planned.map((sweep) =>
              `${formatMoney(sweep.amountMinor)} ${sweep.currency} ${sweep.sourceNumber} → ${sweep.targetNumber}`
            ).join("; ")
          }`,
        },
        amountMinor: currencies.size === 1 ? totalMinor : null,
        currency: currencies.size === 1 ? planned[0].currency : null,
        rehearse: (db) => runAutoSweep(db, actorOf(c, deps.config), executorOf(c.get("user")), "threshold"),
      }, AUTO_SWEEP_REASON);
    }
    const sweeps = await runAutoSweep(
      deps.db,
      actorOf(c, deps.config),
      executorOf(c.get("user")),
      "threshold",
      c.req.valid("json").planId,
    );
    return c.json({ sweepsExecuted: sweeps.length, sweepIds: sweeps.map((sweep) => sweep.id) });
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
    if (described && await needsApproval(deps.db.read, described.currency, input.sweepAmount)) {
      return await submitForApproval(c, deps, {
        kind: "sweep",
        payload: { ...input, sweepAmount: formatMoney(input.sweepAmount) },
        summary: described.summary,
        amountMinor: input.sweepAmount,
        currency: described.currency,
        rehearse: (db) => executeManualSweep(db, actorOf(c, deps.config), executorOf(c.get("user")), input, null),
      }, input.sweepReason);
    }
    const outcome = await executeManualSweep(
      deps.db,
      actorOf(c, deps.config),
      executorOf(c.get("user")),
      input,
      idempotencyKey,
    );
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
