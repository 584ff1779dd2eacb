/** Institution registry and code lookup routes (spec 7), mounted under /api. */
import { type Context, Hono } from "hono";
import type { z } from "zod";
import type { ApiAccessEnv } from "../../api_access/env.ts";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { submitForApproval } from "../approvals/four_eyes.ts";
import { notFound } from "../../http/errors.ts";
import { validate } from "../../http/validation.ts";
import {
  createInstitutionSchema,
  institutionIdParamSchema,
  institutionListQuerySchema,
  searchQuerySchema,
  statusChangeSchema,
} from "./schemas.ts";
import {
  changeInstitutionStatus,
  createInstitution,
  getInstitution,
  listInstitutions,
  searchRoutingCodes,
  searchSwiftCodes,
} from "./service.ts";
import { type InstitutionSearchState, institutionSearchState } from "./search_source.ts";
import { type CachedPage, PageCache } from "./page_cache.ts";
import type { InstitutionListQuery } from "./schemas.ts";
import { institutionOverview } from "./overview.ts";
import { codesAsOf } from "../../registry_history/code_changes.ts";

/** Lists answer a plain JSON array; the total for paging travels in this header. */
export const TOTAL_COUNT_HEADER = "X-Total-Count";

/**
 * A page's JSON as kept by the page cache, handed to the request log as sent: reading it back from a
 * copy of the response would copy the whole page once more per request.
 */
function sendPage(c: Context<AppEnv>, page: CachedPage): Response {
  (c as unknown as Context<ApiAccessEnv>).set("sentResponseBody", page.body);
  c.header(TOTAL_COUNT_HEADER, String(page.total));
  return c.body(page.body, 200, { "content-type": "application/json" });
}

export function institutionsRoutes(
  deps: AppDeps,
  searchState: InstitutionSearchState = institutionSearchState(deps.db),
): Hono<AppEnv> {
  const { db, config } = deps;
  const app = new Hono<AppEnv>();
  const { counts, texts, shares } = searchState;
  const pages = new PageCache(db.epochs);
  const listPage = (query: InstitutionListQuery): Promise<CachedPage> =>
    pages.get(query, async () => {
      const page = await listInstitutions(db.read, query, counts, texts, shares);
      return { body: JSON.stringify(page.items), total: page.total };
    });

  app.get("/institutions", validate("query", institutionListQuerySchema), async (c) => {
    return sendPage(c, await listPage(c.req.valid("query")));
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
    (c) => requestStatusChange(c, deps, c.req.valid("param").id, c.req.valid("json")),
  );

  app.get("/search", validate("query", searchQuerySchema), async (c) => {
    const { type, query, limit, offset, asOf } = c.req.valid("query");
    if (type === "institution") return sendPage(c, await listPage({ search: query, limit, offset }));
    const page = type === "routing"
      ? await searchRoutingCodes(db.read, query, limit, offset, asOf)
      : await searchSwiftCodes(db.read, query, limit, offset, asOf);
    c.header(TOTAL_COUNT_HEADER, String(page.total));
    const entityType = type === "routing" ? "routing_code" : "swift_code";
    return c.json(await codesAsOf(db.read, entityType, page.items, asOf, new Date(deps.clock.now()).toISOString()));
  });

  return app;
}

/**
 * Approving, suspending or reactivating an institution always needs a second person. The reason
 * travels in the payload so that the change's own audit row carries it at approval.
 */
async function requestStatusChange(
  c: Context<AppEnv>,
  deps: AppDeps,
  id: string,
  change: z.infer<typeof statusChangeSchema>,
) {
  const { db, config } = deps;
  const { status, reason } = change;
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
}
