/** The audit trail viewer, for auditors and administrators. */
import { Hono } from "hono";
import { checkpointTargetOf } from "../../audit/checkpoints.ts";
import type { AppDeps, AppEnv } from "../../http/context.ts";
import { validate } from "../../http/validation.ts";
import { auditTrailQuery } from "./schemas.ts";
import { auditFacets, chainState, listAuditEvents } from "./service.ts";

export const TOTAL_COUNT_HEADER = "X-Total-Count";

export function auditTrailRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/audit-trail", validate("query", auditTrailQuery), async (c) => {
    const page = await listAuditEvents(deps.db.read, c.req.valid("query"));
    c.header(TOTAL_COUNT_HEADER, String(page.total));
    return c.json(page.items);
  });

  app.get("/audit-trail/facets", async (c) => c.json(await auditFacets(deps.db.read)));

  app.get(
    "/audit-trail/verification",
    async (c) => c.json(await chainState(deps.db.read, checkpointTargetOf(deps.config))),
  );

  return app;
}
