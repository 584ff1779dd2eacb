/** Institution registry and code lookup routes (spec 7), mounted under /api. */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../context.ts";
import { submitForApproval } from "../../four_eyes.ts";
import { notFound } from "../../errors.ts";
import { validate } from "../../validation.ts";
import {
  createInstitutionSchema,
  institutionIdParamSchema,
  institutionListQuerySchema,
  searchQuerySchema,
  statusChangeSchema,
} from "./schemas.ts";
import {
  changeInstitutionStatus,
  createCountCache,
  createInstitution,
  getInstitution,
  listInstitutions,
  searchRoutingCodes,
  searchSwiftCodes,
} from "./service.ts";
import { SearchTexts } from "./search_texts.ts";
import { institutionOverview } from "./overview.ts";

/** Lists answer a plain JSON array; the total for paging travels in this header. */
export const TOTAL_COUNT_HEADER = "X-Total-Count";

export function institutionsRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const app = new Hono<AppEnv>();
  const counts = createCountCache();
  const texts = new SearchTexts(db.statements);

  app.get("/institutions", validate("query", institutionListQuerySchema), async (c) => {
    const page = await listInstitutions(db.read, c.req.valid("query"), counts, texts);
    c.header(TOTAL_COUNT_HEADER, String(page.total));
    return c.json(page.items);
  });

  /** The institution page: details, status history, codes, registry entry, accounts, audit events. */
  app.get("/institutions/:id/overview", validate("param", institutionIdParamSchema), async (c) => {
    return c.json(await institutionOverview(db.read, c.req.valid("param").id));
  });

  app.get("/institutions/:id", validate("param", institutionIdParamSchema), async (c) => {
    const institution = await getInstitution(db.read, c.req.valid("param").id);
    if (!institution) throw notFound("Institution");
    return c.json(institution);
  });

  app.post("/institutions", validate("json", createInstitutionSchema), async (c) => {
    const created = await createInstitution(db, actorOf(c, config), c.req.valid("json"));
    return c.json(created, 201);
  });

  app.patch(
    "/institutions/:id/status",
    validate("param", institutionIdParamSchema),
    validate("json", statusChangeSchema),
    async (c) => {
      // Approving, suspending or reactivating an institution always needs a second person. The
      // reason travels in the payload so that the change's own audit row carries it at approval.
      const { id } = c.req.valid("param");
      const { status, reason } = c.req.valid("json");
      const current = await getInstitution(db.read, id);
      if (!current) throw notFound("Institution");
      return await submitForApproval(c, deps, {
        kind: "institution_status",
        payload: { id, status, reason },
        summary: {
          description: `Change the status of ${current.name} from ${current.status} to ${status}${
            reason ? `: ${reason}` : ""
          }`,
          institution: { id, name: current.name, statusBefore: current.status, statusAfter: status, reason },
        },
        amountMinor: null,
        currency: null,
        rehearse: (rehearsal) => changeInstitutionStatus(rehearsal, actorOf(c, config), id, status, reason),
      }, reason);
    },
  );

  app.get("/search", validate("query", searchQuerySchema), async (c) => {
    const { type, query, limit, offset } = c.req.valid("query");
    const page = type === "routing"
      ? await searchRoutingCodes(db.read, query, limit, offset)
      : type === "swift"
      ? await searchSwiftCodes(db.read, query, limit, offset)
      : await listInstitutions(db.read, { search: query, limit, offset }, counts, texts);
    c.header(TOTAL_COUNT_HEADER, String(page.total));
    return c.json(page.items);
  });

  return app;
}
