/** Card endpoints (spec 7): list, funding sources, issue, distribute, load. */
import { Hono } from "hono";
import { formatMoney, parseMoney } from "../../../domain/money.ts";
import { type AppDeps, type AppEnv, actorOf } from "../../http/context.ts";
import { needsApproval, submitForApproval } from "../approvals/four_eyes.ts";
import { CARD_CURRENCY, type FundingSource } from "./funding_sources.ts";
import { paginationQuery, validate } from "../../http/validation.ts";
import { cardIdParam, distributeCardSchema, issueCardSchema, loadCardSchema } from "./schemas.ts";
import { type CardServiceOptions, createCardService, secureRandomDigits } from "./service.ts";

export function cardsRoutes(deps: AppDeps, options?: Partial<CardServiceOptions>): Hono<AppEnv> {
  const serviceOptions: CardServiceOptions = {
    issuerPrefixes: options?.issuerPrefixes ?? deps.config.features.cardIssuerPrefixes,
    randomDigits: options?.randomDigits ?? secureRandomDigits,
  };
  const service = createCardService(deps, serviceOptions);
  /** The same service on another view of the database (a four-eyes rehearsal). */
  const serviceOn = (db: AppDeps["db"]) => createCardService({ ...deps, db }, serviceOptions);
  const app = new Hono<AppEnv>();

  app.get("/cards", validate("query", paginationQuery), async (c) => {
    const { limit, offset } = c.req.valid("query");
    return c.json(await service.list(limit, offset));
  });

  app.get("/cards/funding-sources", async (c) => c.json(await service.fundingSources()));

  /** What funding `amountMinor` from a source would do to its balance, for the approval queue. */
  const fundingFigures = async (fundingSource: FundingSource, amountMinor: number) => {
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
  const needsApprovalFor = (amountMinor: number) =>
    amountMinor > 0 && needsApproval(deps.db.read, CARD_CURRENCY, BigInt(amountMinor));
  const amountText = (amountMinor: number) => formatMoney(BigInt(amountMinor));

  app.post("/cards/issue", validate("json", issueCardSchema), async (c) => {
    const input = c.req.valid("json");
    if (await needsApprovalFor(input.initialBalance)) {
      return await submitForApproval(c, deps, {
        kind: "card_issue",
        payload: { ...input, initialBalance: amountText(input.initialBalance) },
        summary: {
          description: `Issue a ${input.cardBrand} ${input.cardType} card to ${input.cardholderName} funded with ${
            amountText(input.initialBalance)
          } ${CARD_CURRENCY}`,
          source: await fundingFigures("central_bank_treasury", input.initialBalance),
        },
        amountMinor: BigInt(input.initialBalance),
        currency: CARD_CURRENCY,
        rehearse: (db) => serviceOn(db).issue(actorOf(c, deps.config), input),
      });
    }
    return c.json(await service.issue(actorOf(c, deps.config), c.req.valid("json")), 201);
  });

  app.post("/cards/distribute", validate("json", distributeCardSchema), async (c) => {
    const input = c.req.valid("json");
    if (await needsApprovalFor(input.loadAmount)) {
      return await submitForApproval(c, deps, {
        kind: "card_distribute",
        payload: { ...input, loadAmount: amountText(input.loadAmount) },
        summary: {
          description: `Distribute a ${input.cardBrand} ${input.cardType} card to ${input.recipientInfo.name} loaded with ${
            amountText(input.loadAmount)
          } ${CARD_CURRENCY}`,
          source: await fundingFigures("central_bank_treasury", input.loadAmount),
        },
        amountMinor: BigInt(input.loadAmount),
        currency: CARD_CURRENCY,
        rehearse: (db) => serviceOn(db).distribute(actorOf(c, deps.config), input),
      });
    }
    return c.json(await service.distribute(actorOf(c, deps.config), c.req.valid("json")), 201);
  });

  app.post(
    "/cards/:cardId/load",
    validate("param", cardIdParam),
    validate("json", loadCardSchema),
    async (c) => {
      const { cardId } = c.req.valid("param");
      const input = c.req.valid("json");
      if (await needsApprovalFor(input.amount)) {
        return await submitForApproval(c, deps, {
          kind: "card_load",
          payload: { ...input, cardId, amount: amountText(input.amount) },
          summary: {
            description: `Load ${amountText(input.amount)} ${CARD_CURRENCY} onto card ${cardId}`,
            source: await fundingFigures(input.fundingSource, input.amount),
          },
          amountMinor: BigInt(input.amount),
          currency: CARD_CURRENCY,
          rehearse: (db) => serviceOn(db).load(actorOf(c, deps.config), cardId, input),
        });
      }
      return c.json(await service.load(actorOf(c, deps.config), cardId, c.req.valid("json")));
    },
  );

  return app;
}
