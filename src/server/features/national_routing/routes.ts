/** National routing registry: list, register, change a participant's status, history (spec 2.8 and 7). */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { notFound } from "../../http/errors.ts";
import { validate } from "../../http/validation.ts";
import { submitForApproval } from "../approvals/four_eyes.ts";
import { asOfQuery } from "../../registry_history/instants.ts";
import { instantLabel } from "../../../domain/code_lifecycle.ts";
import { createNationalRoutingBody, nationalRoutingIdParam, participantStatusBody } from "./schemas.ts";
import { createNationalRoutingEntry, listNationalRouting } from "./service.ts";
import { changeParticipantStatus, nationalRoutingEntryAt, nationalRoutingHistory } from "./lifecycle.ts";

export function nationalRoutingRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const defaultPrefix = deps.config.features.nationalRoutingIssuerPrefix;

  app.get("/national-routing", validate("query", asOfQuery), async (c) => {
    return c.json(await listNationalRouting(deps.db.read, c.req.valid("query").asOf));
  });

  app.post("/national-routing", validate("json", createNationalRoutingBody), async (c) => {
    const entry = await createNationalRoutingEntry(
      deps.db,
      actorOf(c, deps.config),
      defaultPrefix,
      c.req.valid("json"),
      deps.clock.now(),
    );
    return c.json(entry, 201);
  });

  app.get("/national-routing/:id/history", validate("param", nationalRoutingIdParam), async (c) => {
    const history = await nationalRoutingHistory(deps.db.read, c.req.valid("param").id);
    if (history === undefined) throw notFound("National routing entry");
    return c.json(history);
  });

  /** A participant enabled, paused or disabled from a date: always a second person's decision. */
  app.patch(
    "/national-routing/:id/status",
    validate("param", nationalRoutingIdParam),
    validate("json", participantStatusBody),
    async (c) => {
      const { id } = c.req.valid("param");
      const change = c.req.valid("json");
      const current = await nationalRoutingEntryAt(deps.db.read, id, new Date(deps.clock.now()).toISOString());
      if (current === undefined) throw notFound("National routing entry");
      const actor = actorOf(c, deps.config);
      const when = change.effectiveFrom === null ? "at once" : `from ${instantLabel(change.effectiveFrom)}`;
      return await submitForApproval(c, deps, {
        kind: "code_change",
        payload: { entity: "national_routing_entry", key: id, ...change },
        summary: {
          description: `Change the participant status of ${current.institutionName} (${current.centralBankCode}) from ${current.participantStatus} to ${change.participantStatus} ${when}: ${change.reason}`,
          code: {
            key: current.centralBankCode,
            statusBefore: current.participantStatus,
            statusAfter: change.participantStatus,
            effectiveFrom: change.effectiveFrom,
          },
        },
        amountMinor: null,
        currency: null,
        rehearse: (db) =>
          changeParticipantStatus(db, actor, id, change, { requestedBy: actor.userId, approvedBy: null }, deps.clock.now()),
      }, change.reason);
    },
  );

  return app;
}
