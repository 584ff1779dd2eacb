/** The API request log for the API Management screen, administrators only. */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../http/context.ts";
import { validate } from "../../http/validation.ts";
import { apiLogQuerySchema } from "./schemas.ts";
import { apiLogCharts, apiLogStats, listApiLogs } from "./service.ts";

export function apiLogsRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/api-logs", validate("query", apiLogQuerySchema), async (c) => {
    return c.json(await listApiLogs(deps.db.read, c.req.valid("query")));
  });

  app.get("/api-logs/stats", async (c) => c.json(await apiLogStats(deps.db.read)));
  app.get("/api-logs/charts", async (c) => c.json(await apiLogCharts(deps.db.read)));

  return app;
}
