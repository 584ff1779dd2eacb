/** Balance sweeps (spec 7): list, manual sweep, automatic sweep, detail and ISO 20022 download. */
import { type Context, Hono } from "hono";
import { formatCurrencyEnUs, formatMoney } from "../../../domain/money.ts";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import type { Database } from "../../db/database.ts";
import type { ApprovalGround } from "../../../domain/movement_limits.ts";
import {
  fileApprovalRequest,
  pendingBody,
  type RequestDraft,
  requestReasonOf,
} from "../approvals/four_eyes.ts";
import { fileOverLimit, moveOrFile } from "../ledger/movement_limits.ts";
import { conflict } from "../../http/errors.ts";
import { answerOnce, idempotencyKey, keyOf, sendKeyedAnswer } from "../../http/idempotency.ts";
import { validate } from "../../http/validation.ts";
import {
  AUTO_SWEEP_PLAN_CHANGED,
  autoSweepPlan,
  previewAutoSweep,
  runApprovedAutoSweep,
} from "./automatic.ts";
import type { Executor } from "./booking.ts";
import { camt050FileName, renderCamt050 } from "./iso20022.ts";
import { describeManualSweep, executeManualSweep } from "./manual.ts";
import { countSweepsSince, getSweep, listSweeps, loadSweepMessageData, sweepCharts } from "./queries.ts";
import {
  autoSweepBodySchema,
  countSweepsQuery,
  type CreateSweepInput,
  createSweepSchema,
  listSweepsQuery,
  sweepIdParam,
} from "./schemas.ts";

/** The automatic run's reason is its rule; the maker may still give their own as requestReason. */
const AUTO_SWEEP_REASON = "Sweep of the balances above their sweep thresholds";

const executorOf = (user: AppEnv["Variables"]["user"]): Executor => ({
  userId: user.id,
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
});

type AutoSweepPreview = Awaited<ReturnType<typeof previewAutoSweep>>;

/** The approval request of an automatic run: the moves as planned now, which the run must make. */
function autoSweepDraft(plan: AutoSweepPreview, rehearse: RequestDraft["rehearse"]): RequestDraft {
  const moves = plan.sweeps.map((sweep) => ({
    sourceAccountId: sweep.sourceId,
    targetAccountId: sweep.targetId,
    amount: formatMoney(sweep.amountMinor),
  }));
  const described = plan.sweeps.map((sweep) =>
    `${formatCurrencyEnUs(sweep.amountMinor, sweep.currency)} ${sweep.sourceNumber} → ${sweep.targetNumber}`
  );
  const currencies = new Set(plan.sweeps.map((sweep) => sweep.currency));
  const totalMinor = plan.sweeps.reduce((sum, sweep) => sum + sweep.amountMinor, 0n);
  return {
    kind: "auto_sweep",
    payload: { moves },
    summary: {
      description: `Automatic sweep of ${plan.sweeps.length} account(s) above their thresholds: ${
        described.join("; ")
      }`,
    },
    amountMinor: currencies.size === 1 ? totalMinor : null,
    currency: currencies.size === 1 ? plan.sweeps[0].currency : null,
    rehearse,
  };
}

/**
 * Every automatic run that moves money needs a second person. The request holds the moves the maker
 * saw; approved, the run makes exactly those moves, or none if one no longer holds. With an
 * Idempotency-Key the run is filed once and its answer replayed for every retry.
 */
async function requestAutoSweep(
  c: Context<AppEnv>,
  deps: AppDeps,
  confirmedPlanId: string | undefined,
  key: string | null,
) {
  const actor = actorOf(c, deps.config);
  const executor = executorOf(c.get("user"));
  const requestReason = await requestReasonOf(c);
  const keyed = {
    userId: actor.userId,
    route: "auto_sweep",
    key,
    request: [confirmedPlanId ?? null, requestReason],
  };
  return sendKeyedAnswer(
    c,
    await answerOnce(deps.db, keyed, async (inner) => {
      const plan = await previewAutoSweep(inner.read);
      if (plan.sweeps.length === 0) return { status: 200, body: { sweepsExecuted: 0, sweepIds: [] } };
      if (confirmedPlanId !== undefined && confirmedPlanId !== plan.planId) {
        throw conflict("planId", AUTO_SWEEP_PLAN_CHANGED);
      }
      const draft = autoSweepDraft(plan, (db) => runApprovedAutoSweep(db, actor, executor, plan.sweeps));
      const request = await fileApprovalRequest(inner, actor, draft, requestReason || AUTO_SWEEP_REASON);
      return { status: 202, body: pendingBody(request) };
    }),
  );
}

/**
 * The manual sweep as its Idempotency-Key's record knows it. The maker's reason is appended only
 * when given, so that a key kept before the reason counted still names the same request.
 */
function sweepRequest(input: CreateSweepInput, requestReason: string | null): unknown[] {
  const sweep = [
    input.sourceAccountId,
    input.targetAccountId,
    input.sweepAmount,
    input.sweepType,
    input.sweepReason,
  ];
  return requestReason === null ? sweep : [...sweep, requestReason];
}

/**
 * A manual sweep executes at once, or, when it would take the maker's day total above the approval
 * threshold or its source's day outflow above its limit (decided in the sweep's own transaction),
 * is filed for a second person in that same transaction; with an Idempotency-Key, either happens
 * once and its answer is replayed for every retry.
 */
async function requestManualSweep(
  c: Context<AppEnv>,
  deps: AppDeps,
  input: CreateSweepInput,
  key: string | null,
) {
  const actor = actorOf(c, deps.config);
  const executor = executorOf(c.get("user"));
  const requestReason = await requestReasonOf(c);
  const file = async (db: Database, grounds: readonly ApprovalGround[]) => {
    const described = await describeManualSweep(db.read, input);
    const draft: RequestDraft = {
      kind: "sweep",
      payload: { ...input, sweepAmount: formatMoney(input.sweepAmount) },
      // Accounts that vanished since: the rehearsal answers 404 before anything is filed.
      summary: described?.summary ?? { description: `Sweep ${formatMoney(input.sweepAmount)}` },
      amountMinor: input.sweepAmount,
      currency: described?.currency ?? null,
      rehearse: (on) => executeManualSweep(on, actor, executor, input, deps.clock.now(), "second_person"),
    };
    return await fileOverLimit(db, actor, draft, requestReason || input.sweepReason?.trim() || null, grounds);
  };
  const keyed = {
    userId: actor.userId,
    route: "balance_sweep",
    key,
    request: sweepRequest(input, requestReason),
  };
  return sendKeyedAnswer(
    c,
    await answerOnce(deps.db, keyed, (inner) =>
      moveOrFile(
        async () => ({ status: 201, body: await executeManualSweep(inner, actor, executor, input, deps.clock.now()) }),
        (grounds) => file(inner, grounds),
      )),
  );
}

export function sweepsRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

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

  app.post(
    "/balance-sweeps/auto-sweep",
    validate("json", autoSweepBodySchema),
    idempotencyKey(),
    (c) => requestAutoSweep(c, deps, c.req.valid("json").planId, keyOf(c.req.valid("header"))),
  );

  app.post(
    "/balance-sweeps",
    validate("json", createSweepSchema),
    idempotencyKey(),
    (c) => requestManualSweep(c, deps, c.req.valid("json"), keyOf(c.req.valid("header"))),
  );

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
