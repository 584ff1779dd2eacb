/** Card endpoints (spec 7): list, funding sources, issue, distribute, load. */
import { type Context, Hono } from "hono";
import { formatCurrencyEnUs, formatMoney, parseMoney } from "../../../domain/money.ts";
import type { Actor } from "../../audit/trail.ts";
import { type AppDeps, type AppEnv, actorOf } from "../../http/context.ts";
import { answerOnce, idempotencyKey, keyOf, sendKeyedAnswer } from "../../http/idempotency.ts";
import type { ApprovalKind } from "../../../domain/approval.ts";
import type { ApprovalGround } from "../../../domain/movement_limits.ts";
import { requestReasonOf } from "../approvals/four_eyes.ts";
import { fileOverLimit, type MovementControl, moveOrFile } from "../ledger/movement_limits.ts";
import { CARD_CURRENCY, type FundingSource } from "./funding_sources.ts";
import { paginationQuery, validate } from "../../http/validation.ts";
import { cardIdParam, distributeCardSchema, issueCardSchema, loadCardSchema } from "./schemas.ts";
import { type CardService, type CardServiceOptions, createCardService, secureRandomDigits } from "./service.ts";

const amountText = (amountMinor: number) => formatMoney(BigInt(amountMinor));

export function cardsRoutes(deps: AppDeps, options?: Partial<CardServiceOptions>): Hono<AppEnv> {
  const serviceOptions: CardServiceOptions = {
    issuerPrefixes: options?.issuerPrefixes ?? deps.config.features.cardIssuerPrefixes,
    randomDigits: options?.randomDigits ?? secureRandomDigits,
  };
  const service = createCardService(deps, serviceOptions);
  /** The same service on another view of the database (inside a transaction, a four-eyes rehearsal). */
  const serviceOn = (db: AppDeps["db"]) => createCardService({ ...deps, db }, serviceOptions);
  const funded = fundedMutation(deps, serviceOn);
  const app = new Hono<AppEnv>();

  app.get("/cards", validate("query", paginationQuery), async (c) => {
    const { limit, offset } = c.req.valid("query");
    return c.json(await service.list(limit, offset));
  });

  app.get("/cards/funding-sources", async (c) => c.json(await service.fundingSources()));

  app.post("/cards/issue", validate("json", issueCardSchema), idempotencyKey(), (c) => {
    const input = c.req.valid("json");
    return funded(c, keyOf(c.req.valid("header")), {
      kind: "card_issue",
      payload: { ...input, initialBalance: amountText(input.initialBalance) },
      description: `Issue a ${input.cardBrand} ${input.cardType} card to ${input.cardholderName} funded with ${
        formatCurrencyEnUs(BigInt(input.initialBalance), CARD_CURRENCY)
      }`,
      fundingSource: "central_bank_treasury",
      amountMinor: input.initialBalance,
      status: 201,
      run: (on, actor, control) => on.issue(actor, input, control),
    });
  });

  app.post("/cards/distribute", validate("json", distributeCardSchema), idempotencyKey(), (c) => {
    const input = c.req.valid("json");
    return funded(c, keyOf(c.req.valid("header")), {
      kind: "card_distribute",
      payload: { ...input, loadAmount: amountText(input.loadAmount) },
      description: `Distribute a ${input.cardBrand} ${input.cardType} card to ${input.recipientInfo.name} loaded with ${
        formatCurrencyEnUs(BigInt(input.loadAmount), CARD_CURRENCY)
      }`,
      fundingSource: "central_bank_treasury",
      amountMinor: input.loadAmount,
      status: 201,
      run: (on, actor, control) => on.distribute(actor, input, control),
    });
  });

  app.post(
    "/cards/:cardId/load",
    validate("param", cardIdParam),
    validate("json", loadCardSchema),
    idempotencyKey(),
    (c) => {
      const { cardId } = c.req.valid("param");
      const input = c.req.valid("json");
      return funded(c, keyOf(c.req.valid("header")), {
        kind: "card_load",
        payload: { ...input, cardId, amount: amountText(input.amount) },
        description: `Load ${formatCurrencyEnUs(BigInt(input.amount), CARD_CURRENCY)} onto card ${cardId}`,
        fundingSource: input.fundingSource,
        amountMinor: input.amount,
        status: 200,
        run: (on, actor, control) => on.load(actor, cardId, input, control),
      });
    },
  );

  return app;
}

/** A card mutation that moves money, as its route describes it. */
interface FundedMutation {
  kind: ApprovalKind;
  /** The validated request, JSON-safe (money as decimal strings): the approval's payload, the key's request. */
  payload: unknown;
  description: string;
  fundingSource: FundingSource;
  amountMinor: number;
  status: 200 | 201;
  run: (on: CardService, actor: Actor, control: MovementControl) => Promise<unknown>;
}

/**
 * A card mutation that moves money: done at once when it is free or within the maker's limits
 * (decided in its own transaction), otherwise filed for approval in that same transaction, with
 * what it would do to the funding source's balance and why it needs a second person. With an
 * Idempotency-Key either happens once and its answer is replayed for every retry.
 */
function fundedMutation(deps: AppDeps, serviceOn: (db: AppDeps["db"]) => CardService) {
  /** What funding `amountMinor` from a source would do to its balance, for the approval queue. */
  const fundingFigures = async (service: CardService, fundingSource: FundingSource, amountMinor: number) => {
    const source = (await service.fundingSources()).find((candidate) => candidate.fundingSource === fundingSource);
    if (!source) return null;
    const before = parseMoney(source.currentBalance);
    return {
      accountNumber: source.accountNumber,
      accountName: source.accountName,
      balanceBefore: source.currentBalance,
      balanceAfter: before.ok ? formatMoney(before.value - BigInt(amountMinor)) : null,
    };
  };
  return async (c: Context<AppEnv>, key: string | null, mutation: FundedMutation) => {
    const actor = actorOf(c, deps.config);
    const requestReason = await requestReasonOf(c);
    const file = async (inner: AppDeps["db"], grounds: readonly ApprovalGround[]) =>
      await fileOverLimit(inner, actor, {
        kind: mutation.kind,
        payload: mutation.payload,
        summary: {
          description: mutation.description,
          source: await fundingFigures(serviceOn(inner), mutation.fundingSource, mutation.amountMinor),
        },
        amountMinor: BigInt(mutation.amountMinor),
        currency: CARD_CURRENCY,
        rehearse: (db) => mutation.run(serviceOn(db), actor, "second_person"),
      }, requestReason, grounds);
    const keyed = { userId: actor.userId, route: mutation.kind, key, request: [mutation.payload, requestReason] };
    const alone = async (inner: AppDeps["db"]) => await mutation.run(serviceOn(inner), actor, "alone");
    return sendKeyedAnswer(
      c,
      await answerOnce(deps.db, keyed, (inner) =>
        moveOrFile(
          async () => ({ status: mutation.status, body: await alone(inner) }),
          (grounds) => file(inner, grounds),
        )),
    );
  };
}
