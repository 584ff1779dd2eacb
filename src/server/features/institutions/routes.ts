/** Institution registry and code lookup routes (spec 7), mounted under /api. */
import { type Context, Hono } from "hono";
import type { ApiAccessEnv } from "../../api_access/env.ts";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { submitForApproval } from "../approvals/four_eyes.ts";
import { notFound } from "../../http/errors.ts";
import { validate } from "../../http/validation.ts";
import {
  asOfQuerySchema,
  createInstitutionSchema,
  type InstitutionChangeInput,
  institutionChangeSchema,
  institutionIdParamSchema,
  institutionListQuerySchema,
  searchQuerySchema,
  type StatusChangeInput,
  statusChangeSchema,
} from "./schemas.ts";
import { createInstitution, listInstitutions, searchRoutingCodes, searchSwiftCodes } from "./service.ts";
import { institutionAsOf, listInstitutionsAsOf } from "./as_of.ts";
import { applyInstitutionChange, describeChanges, registerInstitutionHooks } from "./lifecycle.ts";
import { changeInstitutionStatus } from "./status_changes.ts";
import { historyOf } from "../../registry_history/versions.ts";
import { type InstitutionSearchState, institutionSearchState } from "./search_source.ts";
import { type CachedPage, PageCache } from "./page_cache.ts";
import type { InstitutionListQuery } from "./schemas.ts";
import { institutionOverview } from "./overview.ts";

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
  registerInstitutionHooks();
  const pages = new PageCache(db.epochs);
  const listPage = (query: InstitutionListQuery): Promise<CachedPage> =>
    pages.get(query, async () => {
      const page = await listInstitutions(db.read, query, counts, texts, shares);
      return { body: JSON.stringify(page.items), total: page.total };
    });

  app.get("/institutions", validate("query", institutionListQuerySchema), async (c) => {
    const { asOf, ...query } = c.req.valid("query");
    if (asOf === undefined) return sendPage(c, await listPage(query));
    const page = await listInstitutionsAsOf(db.read, query, asOf);
    c.header(TOTAL_COUNT_HEADER, String(page.total));
    return c.json(page.items);
  });

  /** The institution page: details, changes to come, status history, codes, registry entry, accounts, audit events. */
  app.get("/institutions/:id/overview", validate("param", institutionIdParamSchema), async (c) => {
    return c.json(await institutionOverview(db.read, c.req.valid("param").id, nowOf(deps)));
  });

  overTimeRoutes(app, deps);

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
    if (type === "institution" && asOf !== undefined) {
      const page = await listInstitutionsAsOf(db.read, { search: query, limit, offset }, asOf);
      c.header(TOTAL_COUNT_HEADER, String(page.total));
      return c.json(page.items);
    }
    if (type === "institution") return sendPage(c, await listPage({ search: query, limit, offset }));
    const page = type === "routing"
      ? await searchRoutingCodes(db.read, query, limit, offset)
      : await searchSwiftCodes(db.read, query, limit, offset);
    c.header(TOTAL_COUNT_HEADER, String(page.total));
    return c.json(page.items);
  });

  return app;
}

/** One institution as in force at an instant, its history, and edits from a date. */
function overTimeRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  const { db } = deps;
  /** Every version of the institution with its dates and who requested and approved it, newest first. */
  app.get("/institutions/:id/history", validate("param", institutionIdParamSchema), async (c) => {
    const { id } = c.req.valid("param");
    const history = await historyOf(db.read, "institution", id);
    if (history.length === 0 && !await institutionAsOf(db.read, id, nowOf(deps))) throw notFound("Institution");
    return c.json(history);
  });

  app.get(
    "/institutions/:id",
    validate("param", institutionIdParamSchema),
    validate("query", asOfQuerySchema),
    async (c) => {
      const institution = await institutionAsOf(db.read, c.req.valid("param").id, c.req.valid("query").asOf ?? nowOf(deps));
      if (!institution) throw notFound("Institution");
      return c.json(institution);
    },
  );

  app.patch(
    "/institutions/:id",
    validate("param", institutionIdParamSchema),
    validate("json", institutionChangeSchema),
    (c) => requestInstitutionChange(c, deps, c.req.valid("param").id, c.req.valid("json")),
  );
}

const nowOf = (deps: AppDeps) => new Date(deps.clock.now()).toISOString();

/** The people of a change rehearsed at submission: the requester alone, no approver yet. */
const rehearsedBy = (c: Context<AppEnv>) => ({ requestedBy: c.get("user").id, approvedBy: null, approvalRequestId: null });

/**
 * Every status change (onboarding, suspension, reactivation, termination) needs a second person.
 * The reason travels in the payload so that the change's own audit row carries it at approval.
 */
async function requestStatusChange(c: Context<AppEnv>, deps: AppDeps, id: string, change: StatusChangeInput) {
  const { db, config } = deps;
  const { status, reason, effectiveFrom } = change;
  const current = await institutionAsOf(db.read, id, nowOf(deps));
  if (!current) throw notFound("Institution");
  const when = effectiveFrom ? ` from ${effectiveFrom.slice(0, 10)}` : "";
  return await submitForApproval(c, deps, {
    kind: "institution_status",
    payload: { id, ...change },
    summary: {
      description: `Change the status of ${current.name} from ${current.status} to ${status}${when}${
        reason ? `: ${reason}` : ""
      }`,
      institution: { id, name: current.name, statusBefore: current.status, statusAfter: status, reason, effectiveFrom },
    },
    amountMinor: null,
    currency: null,
    rehearse: (rehearsal) =>
      changeInstitutionStatus(rehearsal, actorOf(c, config), id, change, rehearsedBy(c), deps.clock.now()),
  }, reason);
}

/** An edit of an institution's details, from a date or at once, needs a second person too. */
async function requestInstitutionChange(c: Context<AppEnv>, deps: AppDeps, id: string, change: InstitutionChangeInput) {
  const { db, config } = deps;
  const current = await institutionAsOf(db.read, id, nowOf(deps));
  if (!current) throw notFound("Institution");
  const { effectiveFrom, reason, ...fields } = change;
  const set = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const when = effectiveFrom ? `from ${effectiveFrom.slice(0, 10)}` : "at once";
  return await submitForApproval(c, deps, {
    kind: "institution_change",
    payload: { id, ...change },
    summary: {
      description: `Change ${current.name} ${when}: ${describeChanges(set)}`,
      institution: { id, name: current.name, changes: set, effectiveFrom: effectiveFrom ?? null, reason },
    },
    amountMinor: null,
    currency: null,
    rehearse: (rehearsal) =>
      rehearsal.transaction((tx) =>
        applyInstitutionChange(tx, actorOf(c, config), id, change, rehearsedBy(c), deps.clock.now())
      ),
  }, reason);
}
