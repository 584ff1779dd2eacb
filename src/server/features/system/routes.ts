/** The node's place in the topology and how fresh its figures are (docs/deployment.md), under /api. */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../http/context.ts";
import type { HeadquartersLink } from "../../topology/headquarters_link.ts";
import { divergenceReports, replicationState } from "./service.ts";

export function systemRoutes(deps: AppDeps, link: HeadquartersLink | null): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/system/replication", (c) => c.json(replicationState(deps, link)));
  app.get("/system/divergence-reports", async (c) => c.json(await divergenceReports(deps)));
  return app;
}

/**
 * Public, before sign-in: whether this node accepts changes. Regional nodes ask headquarters this
 * every sync interval (topology/headquarters_link.ts); it says nothing else about the node.
 */
export function systemHealthRoutes(deps: AppDeps, link: HeadquartersLink | null): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/system/health", (c) => c.json({ changesAccepted: replicationState(deps, link).changesAccepted }));
  return app;
}
