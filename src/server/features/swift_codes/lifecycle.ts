/**
 * A BIC's status over time (docs/codes.md): suspension from a date (optionally to a date),
 * reactivation, deactivation and termination with a successor BIC, each a four-eyes request that
 * becomes dated versions when approved; and the BIC's history.
 */
import type { Actor } from "../../audit/trail.ts";
import type { Database, Queryable } from "../../db/database.ts";
import { AppError, conflict, notFound } from "../../http/errors.ts";
import { recordCodeStatusChange, type VersionPeople } from "../../registry_history/code_changes.ts";
import { effectiveFromOrNow } from "../../registry_history/instants.ts";
import { type HistoryEntry, historyOf } from "../../registry_history/versions.ts";
import type { SwiftCodeLookupAnswer, SwiftCodeStatusChange } from "./schemas.ts";
import { findSwiftCode, lookupSwiftCodeAt } from "./service.ts";

/**
 * A successor must be another BIC (not the same registration under its primary-office twin) that
 * exists and is not itself terminated when the change takes effect.
 */
async function requireSuccessor(
  db: Queryable,
  successor: string | null,
  at: string,
  ownId: string,
): Promise<void> {
  if (successor === null) return;
  const found = await lookupSwiftCodeAt(db, successor, at);
  if (found === undefined || found.id === ownId) {
    const message = found === undefined
      ? `No BIC ${successor} is registered`
      : "A code cannot succeed itself";
    throw new AppError("validation", `successorBic: ${message}`, {
      field: "successorBic",
      fields: { successorBic: message },
    });
  }
  if (found.status === "terminated") throw conflict("successorBic", `${successor} is itself terminated then`);
}

/** Records the change's versions and audit row; answers the BIC as in force now. */
export async function changeSwiftCodeStatus(
  db: Database,
  actor: Actor,
  bic: string,
  change: SwiftCodeStatusChange,
  people: VersionPeople,
  nowMs: number,
): Promise<SwiftCodeLookupAnswer> {
  const effectiveFrom = effectiveFromOrNow(change.effectiveFrom, nowMs);
  return await db.transaction(async (tx) => {
    const then = await lookupSwiftCodeAt(tx, bic, effectiveFrom);
    if (then === undefined) throw notFound("BIC");
    await requireSuccessor(tx, change.successorBic, effectiveFrom, then.id);
    await recordCodeStatusChange(
      tx,
      actor,
      {
        entityType: "swift_code",
        id: then.id,
        state: { key: then.bicCode, status: then.status, terminatedAt: then.terminatedAt },
        successorField: "successorBic",
      },
      { ...change, effectiveFrom, successor: change.successorBic },
      people,
      nowMs,
    );
    return (await lookupSwiftCodeAt(tx, bic, new Date(nowMs).toISOString()))!;
  });
}

/** Every version of a BIC with who requested and approved it, newest first; undefined when no such BIC. */
export async function swiftCodeHistory(db: Queryable, bic: string): Promise<HistoryEntry[] | undefined> {
  const row = await findSwiftCode(db, bic);
  return row && await historyOf(db, "swift_code", row.id);
}
