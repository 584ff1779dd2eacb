/**
 * Scheduled registry changes take effect at their instant without anyone acting: headquarters (or a
 * standalone node) writes each due version into its current table once, claimed by the
 * `applied_at IS NULL` guard in the same transaction as the write and its audit row. Regional nodes
 * receive the result through replication; their as-of reads resolve from the versions themselves,
 * so a due change is in force there at its instant even before the write arrives.
 */
import { and, eq, isNull } from "drizzle-orm";
import { registryVersions, SYSTEM_USER_ID } from "../../../db/schema.ts";
import { recordAudit } from "../audit/trail.ts";
import type { Database, Tx } from "../db/database.ts";
import type { AppDeps } from "../http/context.ts";
import { type PeriodicTask, startPeriodic } from "../periodic.ts";
import { dueVersions, type RegistryEntityType, type RegistryVersion, writeCurrent } from "./versions.ts";

/** How often headquarters looks for due versions: a change takes effect at most this late. */
export const SCHEDULED_CHANGE_INTERVAL_MS = 1_000;
/** Versions written per look; the rest wait for the next one. */
export const SCHEDULED_CHANGE_BATCH = 500;
export const SCHEDULED_CHANGE_ACTION = "scheduled_change_applied";

/** What a feature does besides the write when one of its versions takes effect (events, caches). */
export type AppliedHook = (tx: Tx, version: RegistryVersion, before: Record<string, unknown>) => Promise<void>;
const hooks = new Map<RegistryEntityType, AppliedHook[]>();

/** A feature's hook, run inside the applying transaction. Registering the same function twice is one hook. */
export function onVersionApplied(entityType: RegistryEntityType, hook: AppliedHook): void {
  const list = hooks.get(entityType) ?? [];
  if (!list.includes(hook)) list.push(hook);
  hooks.set(entityType, list);
}

/** Writes every version due by `nowMs`, each in its own transaction; answers how many this call wrote. */
export async function applyDueVersions(db: Database, nowMs: number): Promise<number> {
  const at = new Date(nowMs).toISOString();
  let applied = 0;
  for (const version of await dueVersions(db.read, at, SCHEDULED_CHANGE_BATCH)) {
    if (await db.transaction((tx) => applyOne(tx, version, at))) applied++;
  }
  return applied;
}

async function applyOne(tx: Tx, version: RegistryVersion, at: string): Promise<boolean> {
  const claimed = await tx.update(registryVersions).set({ appliedAt: at })
    .where(and(eq(registryVersions.seq, version.seq), isNull(registryVersions.appliedAt)))
    .returning({ seq: registryVersions.seq }).all();
  if (claimed.length === 0) return false;
  const previous = await tx.select({ data: registryVersions.data }).from(registryVersions)
    .where(and(
      eq(registryVersions.entityType, version.entityType),
      eq(registryVersions.entityId, version.entityId),
      eq(registryVersions.validTo, version.validFrom),
    )).get();
  await writeCurrent(tx, version.entityType, version.entityId, version.changes, version.validFrom);
  await recordAudit(tx, { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null }, {
    entityType: version.entityType,
    entityId: version.entityId,
    action: SCHEDULED_CHANGE_ACTION,
    changes: {
      summary: version.summary,
      validFrom: version.validFrom,
      after: version.changes,
      requestedBy: version.requestedBy,
      approvedBy: version.approvedBy,
    },
  });
  for (const hook of hooks.get(version.entityType) ?? []) {
    await hook(tx, version, (previous?.data ?? {}) as Record<string, unknown>);
  }
  return true;
}

/** Headquarters and standalone nodes only: regional nodes never write. */
export function startScheduledChanges(deps: AppDeps): PeriodicTask {
  return startPeriodic("Scheduled registry changes", SCHEDULED_CHANGE_INTERVAL_MS, async () => {
    await applyDueVersions(deps.db, deps.clock.now());
  });
}
