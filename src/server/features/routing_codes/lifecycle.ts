/**
 * A routing code's status over time (docs/codes.md): suspension from a date (optionally to a date),
 * reactivation, deactivation and termination with a successor, each a four-eyes request that
 * becomes dated versions when approved; and the code's history.
 */
import { routingCodes } from "../../../../db/schema.ts";
import { eq } from "drizzle-orm";
import type { Actor } from "../../audit/trail.ts";
import { type Database, type Queryable, statementsOf } from "../../db/database.ts";
import type { Statements } from "../../db/statements.ts";
import { AppError, conflict, notFound } from "../../http/errors.ts";
import { recordCodeStatusChange, type VersionPeople } from "../../registry_history/code_changes.ts";
import { effectiveFromOrNow } from "../../registry_history/instants.ts";
import { type HistoryEntry, historyOf } from "../../registry_history/versions.ts";
import type { RoutingCodeLookupAnswer, RoutingCodeStatusChange } from "./schemas.ts";
import { lookupRoutingCodeAt } from "./service.ts";

/** A successor must be another code that exists and is not itself terminated when the change takes effect. */
async function requireSuccessor(statements: Statements, successor: string | null, at: string): Promise<void> {
  if (successor === null) return;
  const found = await lookupRoutingCodeAt(statements, successor, at);
  if (found === undefined) {
    const message = `No routing code ${successor} is registered`;
    throw new AppError("validation", `successorCode: ${message}`, {
      field: "successorCode",
      fields: { successorCode: message },
    });
  }
  if (found.answer.status === "terminated") {
    throw conflict("successorCode", `${successor} is itself terminated then`);
  }
}

/** Records the change's versions and audit row; answers the code as in force now. */
export async function changeRoutingCodeStatus(
  db: Database,
  actor: Actor,
  code: string,
  change: RoutingCodeStatusChange,
  people: VersionPeople,
  nowMs: number,
): Promise<RoutingCodeLookupAnswer> {
  const effectiveFrom = effectiveFromOrNow(change.effectiveFrom, nowMs);
  return await db.transaction(async (tx) => {
    const statements = statementsOf(tx);
    const then = await lookupRoutingCodeAt(statements, code, effectiveFrom);
    if (then === undefined) throw notFound("Routing code");
    await requireSuccessor(statements, change.successorCode, effectiveFrom);
    const { answer } = then;
    await recordCodeStatusChange(
      tx,
      actor,
      {
        entityType: "routing_code",
        id: answer.id,
        state: { key: code, status: answer.status, terminatedAt: answer.terminatedAt },
        successorField: "successorCode",
      },
      { ...change, effectiveFrom, successor: change.successorCode },
      people,
      nowMs,
    );
    const now = await lookupRoutingCodeAt(statements, code, new Date(nowMs).toISOString());
    return now!.answer;
  });
}

/** Every version of a code with who requested and approved it, newest first; undefined when no such code. */
export async function routingCodeHistory(db: Queryable, code: string): Promise<HistoryEntry[] | undefined> {
  const row = await db.select({ id: routingCodes.id }).from(routingCodes).where(eq(routingCodes.code, code))
    .get();
  return row && await historyOf(db, "routing_code", row.id);
}
