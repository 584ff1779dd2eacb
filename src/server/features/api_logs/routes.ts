/** The API request log for the API Management screen, administrators only. */
import { Hono } from "hono";
import { requireAdmin } from "../../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../../context.ts";
import { validate } from "../../validation.ts";
import { apiLogQuerySchema } from "./schemas.ts";
import { apiLogCharts, apiLogStats, listApiLogs } from "./service.ts";

const ADMIN_ONLY = "Only administrators can read the API request log";

export function apiLogsRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/api-logs", requireAdmin(ADMIN_ONLY), validate("query", apiLogQuerySchema), async (c) => {
    return c.json(await listApiLogs(deps.db.read, c.req.valid("query")));
  });

  app.get("/api-logs/stats", requireAdmin(ADMIN_ONLY), async (c) => c.json(await apiLogStats(deps.db.read)));
  app.get("/api-logs/charts", requireAdmin(ADMIN_ONLY), async (c) => c.json(await apiLogCharts(deps.db.read)));

  return app;
}
