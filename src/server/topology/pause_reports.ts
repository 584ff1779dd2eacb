/**
 * "Changes were paused at node X from … to …". A regional node that cannot reach headquarters cannot
 * write anything to the primary either, so it cannot publish the event while it happens: it keeps the
 * span and, once headquarters answers again, sends it there along its normal path (the node token of
 * forwarded changes). Headquarters takes the report only from a node whose token verifies, and
 * records it with its audit row and a changes_paused event for administrators and operators. A report
 * that did not get through is sent again after the next answer; one that got through twice is
 * recorded once (node and start make it unique).
 */
import { Hono, type MiddlewareHandler } from "hono";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { SYSTEM_USER_ID } from "../../../db/schema.ts";
import { recordAudit } from "../audit/trail.ts";
import { publishEvent } from "../events/outbox.ts";
import type { AppDeps, AppEnv } from "../http/context.ts";
import { AppError } from "../http/errors.ts";
import { validate } from "../http/validation.ts";
import type { HeadquartersLink, PauseSpan } from "./headquarters_link.ts";
import { NODE_TOKEN_HEADER, REGION_HEADER } from "./forwarding.ts";

export const PAUSE_REPORT_PATH = "/api/system/changes-paused";
export const PAUSE_REPORT_TIMEOUT_MS = 5_000;
/** Pauses kept while headquarters has not taken them; past this the oldest is dropped. */
export const MAX_PENDING_PAUSE_REPORTS = 20;
/** A pause shorter than this is a blip (one refused request, an answer just late), not reported. */
export const MIN_REPORTED_PAUSE_MS = 5_000;

/** Regional side: keeps the pauses and sends them to headquarters after each of its answers. */
export function reportPauses(
  link: HeadquartersLink,
  headquartersUrl: string,
  node: { region: string; authToken: string },
) {
  const pending: PauseSpan[] = [];
  const flush = async () => {
    try {
      while (pending.length > 0) {
        const span = pending[0];
        const answer = await fetch(`${headquartersUrl}${PAUSE_REPORT_PATH}`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            [NODE_TOKEN_HEADER]: node.authToken,
            [REGION_HEADER]: node.region,
          },
          body: JSON.stringify({ from: new Date(span.fromMs).toISOString(), to: new Date(span.toMs).toISOString() }),
          signal: AbortSignal.timeout(PAUSE_REPORT_TIMEOUT_MS),
        });
        await answer.body?.cancel();
        if (!answer.ok) throw new Error(`headquarters answered ${answer.status}`);
        pending.shift();
      }
    } catch (error) {
      console.error(`Reporting paused changes to headquarters failed, sent again later: ${(error as Error).message}`);
    }
  };
  // One send at a time; a caller that asks while one runs waits for that one.
  let inFlight: Promise<void> | null = null;
  const send = () => inFlight ??= flush().finally(() => inFlight = null);
  link.onAnswer((resumed) => {
    if (resumed !== null && resumed.toMs - resumed.fromMs >= MIN_REPORTED_PAUSE_MS) {
      pending.push(resumed);
      if (pending.length > MAX_PENDING_PAUSE_REPORTS) pending.shift();
    }
    void send();
  });
  return { pending: () => [...pending], send };
}

const pauseReport = z.object({ from: z.iso.datetime(), to: z.iso.datetime() }).refine(
  (span) => Date.parse(span.to) > Date.parse(span.from),
  { message: "Must be after from", path: ["to"] },
);

const minutes = (ms: number) => Math.max(1, Math.round(ms / 60_000));

/** Headquarters side: a verified node's report becomes an audited changes_paused event, once. */
async function recordPause(deps: AppDeps, region: string, from: string, to: string): Promise<boolean> {
  const subjectId = `${region}@${from}`;
  return await deps.db.transaction(async (tx) => {
    const [known] = await tx.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM events WHERE subject_id = ${subjectId} AND kind = 'changes_paused'`,
    );
    if (known.n > 0) return false;
    await recordAudit(tx, { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: `node ${region}` }, {
      entityType: "node",
      entityId: region,
      action: "changes_paused",
      changes: { from, to },
    });
    await publishEvent(tx, {
      kind: "changes_paused",
      subjectType: "node",
      subjectId,
      summary: `Changes were paused at node ${region} from ${from} to ${to} (about ${
        minutes(Date.parse(to) - Date.parse(from))
      } min): it could not reach headquarters`,
      data: { region, from, to },
      audience: { roles: ["administrator", "operator"] },
    });
    return true;
  });
}

/** Mounted at headquarters before the session check: the caller is a node, known by its verified token. */
export function pauseReportRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const requireNode: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (c.get("forwardedClient") === undefined) {
      throw new AppError("unauthorized", "Only a regional node with a verified node token may report paused changes");
    }
    await next();
  };
  app.post("/system/changes-paused", requireNode, validate("json", pauseReport), async (c) => {
    const { from, to } = c.req.valid("json");
    const recorded = await recordPause(deps, c.get("forwardedClient")!.region, from, to);
    return c.json({ recorded }, recorded ? 201 : 200);
  });
  return app;
}
