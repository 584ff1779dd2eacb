/**
 * Scheduled automatic sweeps. SWEEP_SCHEDULE holds a cron expression (5 fields, or 6 with
 * seconds; evaluated in UTC by croner); unset or blank means no schedule.
 *
 * Several app processes may share one database, so each occurrence is claimed through a lease
 * row: the process whose `INSERT … ON CONFLICT DO NOTHING` of the occurrence key (the scheduled
 * instant, the same in every process) lands runs the sweeps in that same transaction; every other
 * process finds the key taken and skips. A crash mid-run rolls back the claim with the sweeps, and
 * the next occurrence sweeps whatever excess is left.
 */
import { Cron } from "croner";
import { sql } from "drizzle-orm";
import { sweepScheduleLeases, SYSTEM_USER_ID } from "../../../../db/schema.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import type { AppDeps } from "../../http/context.ts";
import type { Database } from "../../db/database.ts";
import { autoSweepInTransaction } from "./automatic.ts";
import type { Executor } from "./booking.ts";
import { SWEEP_SCHEDULE_ENV } from "./settings.ts";

export const SCHEDULE_TIMEZONE = "UTC";
/** setTimeout cannot wait longer than 2^31-1 ms; longer waits are done in hops of this size. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

const SCHEDULER_ACTOR: Actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: "sweep-scheduler" };
const SCHEDULER_EXECUTOR: Executor = {
  userId: SYSTEM_USER_ID,
  firstName: "System",
  lastName: null,
  email: "system@console.invalid",
};

export interface OccurrenceResult {
  /** False when another process had already claimed this occurrence. */
  claimed: boolean;
  sweepsExecuted: number;
}

/** Parses a schedule with croner; throws a readable error for an invalid expression. */
export function parseSchedule(expression: string): Cron {
  try {
    return new Cron(expression, { timezone: SCHEDULE_TIMEZONE, paused: true });
  } catch (error) {
    throw new Error(`${SWEEP_SCHEDULE_ENV} is not a valid cron expression: ${(error as Error).message}`);
  }
}

/** Claims the occurrence and, if this process won it, runs the automatic sweep in the same transaction. */
export async function runScheduledOccurrence(
  db: Database,
  schedule: string,
  occurrence: Date,
  instanceId: string,
): Promise<OccurrenceResult> {
  const occurrenceKey = occurrence.toISOString();
  return await db.transaction(async (tx) => {
    const claimedAt = new Date().toISOString();
    const claimed = await tx.all<{ occurrenceKey: string }>(sql`
      INSERT INTO sweep_schedule_leases (occurrence_key, schedule, instance_id, claimed_at)
      VALUES (${occurrenceKey}, ${schedule}, ${instanceId}, ${claimedAt})
      ON CONFLICT (occurrence_key) DO NOTHING
      RETURNING occurrence_key AS occurrenceKey`);
    if (claimed.length === 0) return { claimed: false, sweepsExecuted: 0 };
    const sweeps = await autoSweepInTransaction(tx, SCHEDULER_ACTOR, SCHEDULER_EXECUTOR, "scheduled");
    await tx.update(sweepScheduleLeases).set({ sweepsExecuted: sweeps.length })
      .where(sql`${sweepScheduleLeases.occurrenceKey} = ${occurrenceKey}`);
    await recordAudit(tx, SCHEDULER_ACTOR, {
      entityType: "sweep_schedule_run",
      entityId: occurrenceKey,
      action: "run",
      changes: {
        schedule,
        instanceId,
        sweepsExecuted: sweeps.length,
        sweepIds: sweeps.map((sweep) => sweep.id),
      },
    });
    return { claimed: true, sweepsExecuted: sweeps.length };
  });
}

export interface SweepScheduler {
  readonly schedule: string;
  readonly instanceId: string;
  /** Cancels the next occurrence and waits for a running one to commit or roll back. */
  stop(): Promise<void>;
}

/**
 * Starts the in-process schedule from SWEEP_SCHEDULE, or returns null when it is not set. An
 * invalid expression throws at start, so a misconfigured process fails loudly.
 */
export function startSweepScheduler(
  deps: AppDeps,
  log: (line: string) => void = console.log,
): SweepScheduler | null {
  const schedule = deps.config.features.sweepSchedule;
  if (schedule === "") return null;
  const cron = parseSchedule(schedule);
  const instanceId = crypto.randomUUID();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let lastOccurrence = new Date(0);

  const runOccurrence = async (occurrence: Date) => {
    try {
      const result = await runScheduledOccurrence(deps.db, schedule, occurrence, instanceId);
      if (result.claimed) {
        log(`scheduled sweep ${occurrence.toISOString()}: ${result.sweepsExecuted} sweeps executed`);
      }
    } catch (error) {
      console.error(`scheduled sweep ${occurrence.toISOString()} failed`, error);
    }
  };

  const armFor = (occurrence: Date) => {
    const waitMs = Math.min(Math.max(occurrence.getTime() - Date.now(), 0), MAX_TIMER_DELAY_MS);
    timer = setTimeout(() => {
      if (stopped) return;
      if (Date.now() < occurrence.getTime()) return armFor(occurrence);
      lastOccurrence = occurrence;
      running = running.then(() => runOccurrence(occurrence));
      armNext();
    }, waitMs);
  };

  const armNext = () => {
    const now = new Date();
    const next = cron.nextRun(now > lastOccurrence ? now : lastOccurrence);
    if (next !== null && !stopped) armFor(next);
  };

  armNext();
  log(
    `sweep schedule "${schedule}" (${SCHEDULE_TIMEZONE}) active; next run ${cron.nextRun()?.toISOString()}`,
  );
  return {
    schedule,
    instanceId,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
