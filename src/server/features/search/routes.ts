/**
 * GET /api/search/everywhere, the command palette's search. The spec's GET /api/search (one type of
 * record, the public lookup API) keeps its contract; this route answers staff sessions only.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../http/context.ts";
import type { SearchSource } from "../../http/search_sources.ts";
import { validate } from "../../http/validation.ts";
import { everywhereQuerySchema } from "./schemas.ts";
import { searchEverywhere } from "./service.ts";

export function searchRoutes(sources: readonly SearchSource[]): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/search/everywhere", validate("query", everywhereQuerySchema), async (c) => {
    return c.json(await searchEverywhere(sources, c.get("user").roles, c.req.valid("query")));
  });
  return app;
}
