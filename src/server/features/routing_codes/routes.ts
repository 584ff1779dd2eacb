/** National routing codes: list, preview, assign, look up, change status and history (spec 2.5 and 7). */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { notFound } from "../../http/errors.ts";
import { validate } from "../../http/validation.ts";
import { submitForApproval } from "../approvals/four_eyes.ts";
import { codeChangeSummary } from "../../registry_history/code_changes.ts";
import { asOfQuery } from "../../registry_history/instants.ts";
import { assignRoutingCodeBody, generatePreviewBody, routingCodeParam, routingCodeStatusBody } from "./schemas.ts";
import { assignRoutingCode, listRoutingCodes, previewRoutingCode, RoutingCodeLookup } from "./service.ts";
import { changeRoutingCodeStatus, routingCodeHistory } from "./lifecycle.ts";
import { servedLocally } from "../../topology/placement.ts";

export function routingCodesRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const lookup = new RoutingCodeLookup(deps.db, deps.clock);
  const nowIso = () => new Date(deps.clock.now()).toISOString();

  app.get("/routing-codes", validate("query", asOfQuery), async (c) => {
    return c.json(await listRoutingCodes(deps.db.read, c.req.valid("query").asOf, nowIso()));
  });

  app.post(
    "/routing-codes/generate-preview",
    servedLocally,
    validate("json", generatePreviewBody),
    async (c) => {
      const { prefix } = c.req.valid("json");
      return c.json({ code: await previewRoutingCode(deps.db.read, prefix) });
    },
  );

  app.post("/routing-codes", validate("json", assignRoutingCodeBody), async (c) => {
    const record = await assignRoutingCode(deps.db, actorOf(c, deps.config), c.req.valid("json"), deps.clock.now());
    return c.json(record, 201);
  });

  app.get("/routing-codes/:code", validate("param", routingCodeParam), validate("query", asOfQuery), async (c) => {
    const record = await lookup.find(c.req.valid("param").code, c.req.valid("query").asOf);
    if (record === undefined) throw notFound("Routing code");
    return c.json(record);
  });

  app.get("/routing-codes/:code/history", validate("param", routingCodeParam), async (c) => {
    const history = await routingCodeHistory(deps.db.read, c.req.valid("param").code);
    if (history === undefined) throw notFound("Routing code");
    return c.json(history);
  });

  /** Every status change of a code needs a second person; it takes effect when approved, or at its date. */
  app.patch(
    "/routing-codes/:code/status",
    validate("param", routingCodeParam),
    validate("json", routingCodeStatusBody),
    async (c) => {
      const { code } = c.req.valid("param");
      const change = c.req.valid("json");
      const current = await lookup.find(code);
      if (current === undefined) throw notFound("Routing code");
      const actor = actorOf(c, deps.config);
      const request = { ...change, successor: change.successorCode };
      return await submitForApproval(c, deps, {
        kind: "code_change",
        payload: { entity: "routing_code", key: code, ...change },
        summary: codeChangeSummary("routing code", code, current.status, request),
        amountMinor: null,
        currency: null,
        rehearse: (db) =>
          changeRoutingCodeStatus(db, actor, code, change, { requestedBy: actor.userId, approvedBy: null }, deps.clock.now()),
      }, change.reason);
    },
  );

  return app;
}
