/** Reports API (spec 2.15): generate a report as a download, list the generated ones, download one again. */
import { type Context, Hono } from "hono";
import { forbiddenMessage, mayCall, RESTRICTED_REPORT_TYPES } from "../../../domain/access.ts";
import { REPORT_CONTENT_TYPES } from "../../../domain/report.ts";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { AppError } from "../../http/errors.ts";
import { validate } from "../../http/validation.ts";
import {
  createReportSchema,
  reportIdParamSchema,
  reportListQuerySchema,
  type ReportRecord,
} from "./schemas.ts";
import { generateReport, listReports, openReportFile } from "./service.ts";
import { servedAtHeadquarters } from "../../topology/placement.ts";

/** Generation is CPU-bound (PDF layout, compression): a few at a time keep the console responsive. */
export const MAX_CONCURRENT_REPORT_GENERATIONS = 2;

/** The audit trail and request log reports need the roles that may read their source. */
function assertMayHaveReport(c: Context<AppEnv>, type: string): void {
  const rule = RESTRICTED_REPORT_TYPES[type];
  if (rule && !mayCall(rule, c.get("user").roles)) {
    throw new AppError("forbidden", forbiddenMessage(rule), { extra: { requiredRoles: rule.roles } });
  }
}

function sendFile(c: Context<AppEnv>, record: ReportRecord, file: Deno.FsFile) {
  c.header("Content-Type", REPORT_CONTENT_TYPES[record.format]);
  // The file name is [a-z0-9_.-] only (reportFileName), so it needs no quoting beyond the quotes.
  c.header("Content-Disposition", `attachment; filename="${record.fileName}"`);
  c.header("Content-Length", String(record.sizeBytes));
  c.header("Cache-Control", "no-store");
  c.header("X-Report-Id", record.id);
  c.header("X-Report-Row-Count", String(record.rowCount));
  c.header("X-Report-SHA256", record.sha256 ?? "");
  return c.body(file.readable, 200);
}

export function reportsRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  let running = 0;

  app.post("/reports", validate("json", createReportSchema), async (c) => {
    assertMayHaveReport(c, c.req.valid("json").type);
    if (running >= MAX_CONCURRENT_REPORT_GENERATIONS) {
      c.header("Retry-After", "5");
      throw new AppError("rate_limited", "Other reports are being generated; try again in a few seconds");
    }
    running += 1;
    let generated;
    try {
      const user = c.get("user");
      generated = await generateReport(
        deps,
        { actor: actorOf(c, deps.config), label: user.email },
        c.req.valid("json"),
      );
    } finally {
      running -= 1;
    }
    const { record, file } = await openReportFile(deps, generated.record.id);
    return sendFile(c, record, file);
  });

  app.get("/reports", validate("query", reportListQuerySchema), async (c) => {
    return c.json(await listReports(deps.db.read, c.req.valid("query")));
  });

  app.get(
    "/reports/:id/download",
    servedAtHeadquarters,
    validate("param", reportIdParamSchema),
    async (c) => {
      const { record, file } = await openReportFile(deps, c.req.valid("param").id);
      try {
        assertMayHaveReport(c, record.type);
      } catch (error) {
        file.close();
        throw error;
      }
      return sendFile(c, record, file);
    },
  );

  return app;
}
