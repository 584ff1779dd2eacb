/** Dashboard calls (spec 7), mounted under /api. */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../http/context.ts";
import { dashboardCharts, dashboardStats, dashboardTrends, recentRegistrations, systemAlerts } from "./service.ts";

export function dashboardRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/dashboard/stats", async (c) => c.json(await dashboardStats(deps.db.read)));
  app.get("/dashboard/recent-registrations", async (c) => c.json(await recentRegistrations(deps.db.read)));
  app.get("/dashboard/trends", async (c) => c.json(await dashboardTrends(deps.db.read)));
  app.get("/dashboard/charts", async (c) => c.json(await dashboardCharts(deps.db.read)));
  app.get("/dashboard/alerts", async (c) => {
    const forAdministrator = c.get("user").roles.includes("administrator");
    return c.json({ alerts: await systemAlerts(deps.db.read, forAdministrator) });
  });
  return app;
}
