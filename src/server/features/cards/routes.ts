/** Card endpoints (spec 7): list, funding sources, issue, distribute, load. */
import { Hono } from "hono";
import { type AppDeps, type AppEnv, actorOf } from "../../context.ts";
import { paginationQuery, validate } from "../../validation.ts";
import { cardIdParam, distributeCardSchema, issueCardSchema, loadCardSchema } from "./schemas.ts";
import { type CardServiceOptions, createCardService, issuerPrefixesFromEnv, secureRandomDigits } from "./service.ts";

export function cardsRoutes(deps: AppDeps, options?: Partial<CardServiceOptions>): Hono<AppEnv> {
  const service = createCardService(deps, {
    issuerPrefixes: options?.issuerPrefixes ?? issuerPrefixesFromEnv(deps.config.env),
    randomDigits: options?.randomDigits ?? secureRandomDigits,
  });
  const app = new Hono<AppEnv>();

  app.get("/cards", validate("query", paginationQuery), async (c) => {
    const { limit, offset } = c.req.valid("query");
    return c.json(await service.list(limit, offset));
  });

  app.get("/cards/funding-sources", async (c) => c.json(await service.fundingSources()));

  app.post("/cards/issue", validate("json", issueCardSchema), async (c) => {
    return c.json(await service.issue(actorOf(c, deps.config), c.req.valid("json")), 201);
  });

  app.post("/cards/distribute", validate("json", distributeCardSchema), async (c) => {
    return c.json(await service.distribute(actorOf(c, deps.config), c.req.valid("json")), 201);
  });

  app.post(
    "/cards/:cardId/load",
    validate("param", cardIdParam),
    validate("json", loadCardSchema),
    async (c) => {
      const { cardId } = c.req.valid("param");
      return c.json(await service.load(actorOf(c, deps.config), cardId, c.req.valid("json")));
    },
  );

  return app;
}
