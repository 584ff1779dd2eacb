/** SWIFT/BIC codes: list, register, look up, change status and history (spec 2.6 and 7). */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { notFound } from "../../http/errors.ts";
import { validate } from "../../http/validation.ts";
import { submitForApproval } from "../approvals/four_eyes.ts";
import { codeChangeSummary } from "../../registry_history/code_changes.ts";
import { asOfQuery } from "../../registry_history/instants.ts";
import { bicParam, registerSwiftCodeBody, swiftCodeStatusBody } from "./schemas.ts";
import { listSwiftCodes, lookupSwiftCodeAt, registerSwiftCode } from "./service.ts";
import { changeSwiftCodeStatus, swiftCodeHistory } from "./lifecycle.ts";

export function swiftCodesRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const nowIso = () => new Date(deps.clock.now()).toISOString();

  app.get("/swift-codes", validate("query", asOfQuery), async (c) => {
    return c.json(await listSwiftCodes(deps.db.read, c.req.valid("query").asOf, nowIso()));
  });

  app.post("/swift-codes", validate("json", registerSwiftCodeBody), async (c) => {
    const record = await registerSwiftCode(deps.db, actorOf(c, deps.config), c.req.valid("json"), deps.clock.now());
    return c.json(record, 201);
  });

  app.get("/swift-codes/:bic", validate("param", bicParam), validate("query", asOfQuery), async (c) => {
    const record = await lookupSwiftCodeAt(deps.db.read, c.req.valid("param").bic, c.req.valid("query").asOf ?? nowIso());
    if (record === undefined) throw notFound("BIC");
    return c.json(record);
  });

  app.get("/swift-codes/:bic/history", validate("param", bicParam), async (c) => {
    const history = await swiftCodeHistory(deps.db.read, c.req.valid("param").bic);
    if (history === undefined) throw notFound("BIC");
    return c.json(history);
  });

  /** Every status change of a BIC needs a second person; it takes effect when approved, or at its date. */
  app.patch("/swift-codes/:bic/status", validate("param", bicParam), validate("json", swiftCodeStatusBody), async (c) => {
    const { bic } = c.req.valid("param");
    const change = c.req.valid("json");
    const current = await lookupSwiftCodeAt(deps.db.read, bic, nowIso());
    if (current === undefined) throw notFound("BIC");
    const actor = actorOf(c, deps.config);
    const request = { ...change, successor: change.successorBic };
    return await submitForApproval(c, deps, {
      kind: "code_change",
      payload: { entity: "swift_code", key: bic, ...change },
      summary: codeChangeSummary("BIC", current.bicCode, current.status, request),
      amountMinor: null,
      currency: null,
      rehearse: (db) =>
        changeSwiftCodeStatus(db, actor, bic, change, { requestedBy: actor.userId, approvedBy: null }, deps.clock.now()),
    }, change.reason);
  });

  return app;
}
