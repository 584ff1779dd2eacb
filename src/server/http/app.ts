/**
 * http/ owns what every route shares: this module builds the Hono application (one process serves
 * the REST API and the pre-built SPA), with the request context, errors, validation, the shared
 * record schemas, role checks, security headers, list sorting, the OpenAPI document and static
 * files beside it.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { currentUserRoutes, authRoutes } from "../auth/routes.ts";
import { requireSession } from "../auth/middleware.ts";
import { enforceRoles } from "./access.ts";
import { createApiAccess, type RequestLog } from "../api_access/mod.ts";
import { sessionRoutes } from "../auth/session_routes.ts";
import { signInSettingsRoutes } from "../auth/settings_routes.ts";
import { type AppDeps, type AppEnv, clientIp } from "./context.ts";
import { handleError } from "./errors.ts";
import { apiKeysRoutes } from "../features/api_keys/routes.ts";
import { apiLogsRoutes } from "../features/api_logs/routes.ts";
import { centralBankConnectionsRoutes } from "../features/central_bank_connections/routes.ts";
import { cardsRoutes } from "../features/cards/routes.ts";
import { fintechRoutes } from "../features/fintech/routes.ts";
import { expeditionRequestsRoutes } from "../features/expedition_requests/routes.ts";
import { ledgerRoutes } from "../features/ledger/routes.ts";
import { sweepsRoutes } from "../features/sweeps/routes.ts";
import { dashboardRoutes } from "../features/dashboard/routes.ts";
import { ibanRoutes } from "../features/iban/routes.ts";
import { institutionsRoutes } from "../features/institutions/routes.ts";
import { institutionSearchSources, institutionSearchState } from "../features/institutions/search_source.ts";
import { accountSearchSource } from "../features/ledger/search_source.ts";
import { searchRoutes } from "../features/search/routes.ts";
import { userSearchSource } from "../features/users/search_source.ts";
import { routingCodesRoutes } from "../features/routing_codes/routes.ts";
import { swiftCodesRoutes } from "../features/swift_codes/routes.ts";
import { usersRoutes } from "../features/users/routes.ts";
import { identitiesRoutes } from "../features/identities/routes.ts";
import { approvalsRoutes } from "../features/approvals/routes.ts";
import { approvalExecutors } from "../features/approvals/executors.ts";
import { settingsRoutes } from "../features/settings/routes.ts";
import { auditTrailRoutes } from "../features/audit_trail/routes.ts";
import { notificationsRoutes } from "../features/notifications/routes.ts";
import { nationalRoutingRoutes } from "../features/national_routing/routes.ts";
import { reportsRoutes } from "../features/reports/routes.ts";
import { complianceScheduleRoutes } from "../features/reports/compliance_schedule_routes.ts";
import { systemHealthRoutes, systemRoutes } from "../features/system/routes.ts";
import { webhooksRoutes } from "../features/webhooks/routes.ts";
import { directoryRoutes } from "../features/directory/routes.ts";
import { changeDeadlines, forwardToHeadquarters, type trustForwardingNodes } from "../topology/forwarding.ts";
import { HeadquartersLink } from "../topology/headquarters_link.ts";
import { pauseReportRoutes, reportPauses } from "../topology/pause_reports.ts";
import { type ReplicaSync, resynchronisingError } from "../topology/replication.ts";
import { openApiRoutes } from "./openapi.ts";
import { limitBody, refuseCrossSite, securityHeaders } from "./security.ts";
import { staticHandlers } from "./static.ts";

/** The app plus its request log, which the owner stops (flushes) on shutdown before closing the database. */
export type ConsoleApp = Hono<AppEnv> & { requestLog: RequestLog };

export interface AppOptions {
  /** Headquarters: from trustForwardingNodes(), so that forwarded requests keep their client's address. */
  trustNodes?: Awaited<ReturnType<typeof trustForwardingNodes>>;
}

/** A regional node's link to headquarters, asked every sync interval; null on other roles. */
function headquartersLinkOf(deps: AppDeps): HeadquartersLink | null {
  const replication = deps.config.replication;
  if (deps.config.role !== "regional" || replication === null) return null;
  const link = new HeadquartersLink(replication.headquartersUrl!, () => deps.clock.now());
  reportPauses(link, replication.headquartersUrl!, replication);
  link.start(replication.syncIntervalMs);
  return link;
}

/** While the node rebuilds its replica nothing it would read is there: every call but the health check waits. */
function refuseWhileResynchronising(replica: ReplicaSync): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!replica.resynchronising) return await next();
    const error = resynchronisingError();
    return c.json(error.toBody(), error.status);
  };
}

export function createApp(deps: AppDeps, options: AppOptions = {}): ConsoleApp {
  const app = new Hono<AppEnv>();
  const apiAccess = createApiAccess(deps);
  app.onError(handleError);
  app.use("*", securityHeaders());
  const guards = [limitBody(), refuseCrossSite()];
  const link = headquartersLinkOf(deps);
  app.route("/api", systemHealthRoutes(deps, link));
  if (deps.db.replica !== null) app.use("/api/*", refuseWhileResynchronising(deps.db.replica));
  if (link !== null) {
    app.use("/api/*", ...guards, forwardToHeadquarters(deps, link, (c) => clientIp(c, deps.config)));
  }
  if (options.trustNodes) app.use("/api/*", options.trustNodes);
  // A regional node's report of paused changes: the node is known by its token, not by a session.
  if (deps.config.role === "headquarters") app.route("/api", pauseReportRoutes(deps));
  if (deps.config.role === "headquarters") app.use("/api/*", changeDeadlines(deps));
  app.use("/api/*", apiAccess.logRequests);
  app.use("/api/*", apiAccess.envelope);
  if (deps.config.role !== "regional") app.use("/api/*", ...guards);
  app.use("/api/*", apiAccess.authenticateKeys);
  app.use("/api/*", apiAccess.limitKeyRequests);

  app.route("/api", authRoutes(deps));
  app.use("/api/*", requireSession(deps));
  app.use("/api/*", enforceRoles());
  app.route("/api", currentUserRoutes(deps));
  app.route("/api", apiKeysRoutes(deps));
  app.route("/api", apiLogsRoutes(deps));
  app.route("/api", openApiRoutes());
  app.route("/api", complianceScheduleRoutes(deps));
  app.route("/api", reportsRoutes(deps));
  app.route("/api", cardsRoutes(deps));
  app.route("/api", fintechRoutes(deps));
  app.route("/api", expeditionRequestsRoutes(deps));
  app.route("/api", ledgerRoutes(deps));
  app.route("/api", sweepsRoutes(deps));
  const institutionSearch = institutionSearchState(deps.db);
  app.route("/api", institutionsRoutes(deps, institutionSearch));
  // Search everywhere: each feature's own search, composed here so that no feature imports another.
  app.route("/api", searchRoutes([
    ...institutionSearchSources(deps, institutionSearch),
    accountSearchSource(deps),
    userSearchSource(deps),
  ]));
  app.route("/api", dashboardRoutes(deps));
  app.route("/api", routingCodesRoutes(deps));
  app.route("/api", swiftCodesRoutes(deps));
  app.route("/api", ibanRoutes(deps));
  app.route("/api", sessionRoutes(deps));
  app.route("/api", signInSettingsRoutes(deps));
  app.route("/api", settingsRoutes(deps));
  app.route("/api", nationalRoutingRoutes(deps));
  app.route("/api", centralBankConnectionsRoutes(deps));
  app.route("/api", usersRoutes(deps));
  app.route("/api", identitiesRoutes(deps));
  app.route("/api", approvalsRoutes(deps, approvalExecutors(deps)));
  app.route("/api", auditTrailRoutes(deps));
  app.route("/api", webhooksRoutes(deps));
  app.route("/api", notificationsRoutes(deps));
  app.route("/api", directoryRoutes(deps));
  app.route("/api", systemRoutes(deps, link));

  app.all("/api/*", (c) => c.json({ message: "Not Found", code: "not_found" }, 404));

  const { asset, spa } = staticHandlers(deps.config.distDir);
  app.get("/assets/*", asset);
  app.get("*", spa);
  return Object.assign(app, { requestLog: apiAccess.requestLog });
}
