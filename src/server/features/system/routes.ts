/** The node's place in the topology and how fresh its figures are (docs/deployment.md), under /api. */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../http/context.ts";
import { replicationState } from "./service.ts";

export function systemRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/system/replication", (c) => c.json(replicationState(deps)));
  return app;
}
