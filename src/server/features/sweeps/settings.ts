/** The sweeps feature's settings, parsed once at start by config.ts. */

/** A cron expression (five fields, UTC) for the scheduled automatic sweep; unset: no schedule. */
export const SWEEP_SCHEDULE_ENV = "SWEEP_SCHEDULE";
