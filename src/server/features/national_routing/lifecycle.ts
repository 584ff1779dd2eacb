/**
 * A participant's status over time (docs/national_routing.md): enabled, paused or disabled from a
 * date, each a four-eyes request that becomes a dated version when approved; and the entry's history.
 */
import { eq } from "drizzle-orm";
import { nationalRoutingRegistry } from "../../../../db/schema.ts";
import { planParticipantStatusChange } from "../../../domain/code_lifecycle.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import type { Database, Queryable } from "../../db/database.ts";
import { fromDomainError, notFound } from "../../http/errors.ts";
import { recordPlanned, type VersionPeople } from "../../registry_history/code_changes.ts";
import { effectiveFromOrNow } from "../../registry_history/instants.ts";
import { type HistoryEntry, historyOf, versionAsOf } from "../../registry_history/versions.ts";
import type { NationalRoutingEntry, ParticipantStatusChange } from "./schemas.ts";
import { AUDIT_ENTITY_TYPE } from "./service.ts";

/** The entry as in force at `at`: its version then, else (before versions existed) the current row. */
export async function nationalRoutingEntryAt(
  db: Queryable,
  id: string,
  at: string,
): Promise<NationalRoutingEntry | undefined> {
  const version = await versionAsOf(db, AUDIT_ENTITY_TYPE, id, at);
  if (version !== undefined) return version.data as NationalRoutingEntry;
  const row = await db.select().from(nationalRoutingRegistry).where(eq(nationalRoutingRegistry.id, id)).get();
  return row !== undefined && row.registrationDate <= at ? row as NationalRoutingEntry : undefined;
}

/** Records the change's version and audit row; answers the entry as in force now. */
export async function changeParticipantStatus(
  db: Database,
  actor: Actor,
  id: string,
  change: ParticipantStatusChange,
  people: VersionPeople,
  nowMs: number,
): Promise<NationalRoutingEntry> {
  const effectiveFrom = effectiveFromOrNow(change.effectiveFrom, nowMs);
  return await db.transaction(async (tx) => {
    const then = await nationalRoutingEntryAt(tx, id, effectiveFrom);
    if (then === undefined) throw notFound("National routing entry");
    const plan = planParticipantStatusChange(
      { key: then.centralBankCode, participantStatus: then.participantStatus },
      change.participantStatus,
      effectiveFrom,
    );
    if (!plan.ok) throw fromDomainError(plan.error);
    await recordPlanned(tx, AUDIT_ENTITY_TYPE, id, [plan.value], people, nowMs);
    await recordAudit(tx, actor, {
      entityType: AUDIT_ENTITY_TYPE,
      entityId: id,
      action: "status_change",
      changes: {
        before: { status: then.participantStatus },
        after: { status: change.participantStatus },
        effectiveFrom,
        reason: change.reason,
      },
    });
    return (await nationalRoutingEntryAt(tx, id, new Date(nowMs).toISOString()))!;
  });
}

/** Every version of an entry with who requested and approved it, newest first; undefined when no such entry. */
export async function nationalRoutingHistory(db: Queryable, id: string): Promise<HistoryEntry[] | undefined> {
  const row = await db.select({ id: nationalRoutingRegistry.id }).from(nationalRoutingRegistry)
    .where(eq(nationalRoutingRegistry.id, id)).get();
  return row && await historyOf(db, AUDIT_ENTITY_TYPE, id);
}
