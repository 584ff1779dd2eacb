/**
 * One clock for sessions and windows (docs/deployment.md, "One clock"). Every node of the
 * replicated topology writes expiries and hourly or daily windows to the one primary, and every
 * node reads them back: if each used its own wall clock, a node running fast would write a session
 * expiry late that every other node then honours. So a replicated node reads the time on the
 * primary's scale: it asks the primary for its time now and then (src/domain/clock_offset.ts says
 * how a sample is read) and runs on from the best recent answer with its own monotonic clock.
 *
 * The primary is asked on a timer, with a bounded wait, never while a request waits. Until the first
 * answer (and on a standalone node, which has no primary) the clock is the node's own.
 */
import type { Client } from "@libsql/client";
import {
  bestFix,
  type ClockFix,
  clockSkewWarning,
  fixOf,
  keepRecent,
  primaryTimeAt,
} from "../../domain/clock_offset.ts";

/** How often a replicated node asks the primary for its time: quartz drift over this is well under 1 ms. */
export const CLOCK_SAMPLE_INTERVAL_MS = 15_000;
/** A question the primary has not answered by then is dropped: its midpoint could be a second off. */
export const CLOCK_SAMPLE_TIMEOUT_MS = 2_000;
/**
 * The offset comes from the shortest round trip among this many recent samples (two minutes at the
 * interval): long enough to ride out a busy moment, short enough that a stepped clock is soon seen.
 */
export const CLOCK_SAMPLES_KEPT = 8;

/** The primary's time in whole milliseconds since the epoch (sqld's SQLite 3.45 has 'subsec'). */
export const PRIMARY_TIME_SQL = "SELECT CAST(unixepoch('subsec') * 1000 AS INTEGER) AS nowMs";

export interface ClockStatus {
  /** This node's clock minus the primary's, whole ms; null standalone or before the first answer. */
  offsetMs: number | null;
  /** What administrators are told when that offset is past CLOCK_SKEW_WARN_MS; null otherwise. */
  warning: string | null;
}

export interface Clock {
  /** Whole milliseconds since the epoch on the primary's time scale (the node's own when standalone). */
  now(): number;
  /** The same with the fraction of a millisecond, for ordering events that fall within one. */
  preciseNow(): number;
  /** This node's clock minus the primary's, whole ms; null standalone or before the first answer. */
  offsetMs(): number | null;
  status(): ClockStatus;
  /** Stops asking the primary. */
  stop(): void;
}

const localPreciseNow = () => performance.timeOrigin + performance.now();

/** A standalone node's clock: its own, which is the only one its database is written with. */
export function localClock(): Clock {
  return {
    now: () => Date.now(),
    preciseNow: localPreciseNow,
    offsetMs: () => null,
    status: () => ({ offsetMs: null, warning: null }),
    stop: () => {},
  };
}

/** One reading of the primary's clock through the client that writes to it. */
export async function readPrimaryTime(client: Pick<Client, "execute">): Promise<number> {
  const result = await client.execute(PRIMARY_TIME_SQL);
  const value = Number(result.rows[0]?.nowMs);
  if (!Number.isFinite(value)) throw new Error(`the primary answered no time: ${result.rows[0]?.nowMs}`);
  return value;
}

/**
 * The clock of a node whose database has a primary (`readPrimaryTime` set), once it has asked the
 * primary the first time (an answer, or the timeout); a standalone node's own clock otherwise.
 */
export async function startClock(readPrimaryTime: (() => Promise<number>) | null): Promise<Clock> {
  if (readPrimaryTime === null) return localClock();
  const clock = new PrimaryClock(readPrimaryTime);
  await clock.start();
  return clock;
}

export interface PrimaryClockOptions {
  intervalMs?: number;
  timeoutMs?: number;
  kept?: number;
  /** The node's clocks, replaceable in tests: wall (ms since the epoch) and monotonic (ms). */
  wallMs?: () => number;
  monoMs?: () => number;
}

/** A replicated node's clock: the primary's time, carried forward on the node's monotonic clock. */
export class PrimaryClock implements Clock {
  readonly #readPrimaryMs: () => Promise<number>;
  readonly #intervalMs: number;
  readonly #timeoutMs: number;
  readonly #kept: number;
  readonly #wallMs: () => number;
  readonly #monoMs: () => number;
  #fixes: ClockFix[] = [];
  #best: ClockFix | null = null;
  /** The latest time this clock has given since the first answer. */
  #latestMs = Number.NEGATIVE_INFINITY;
  #measuring: Promise<boolean> | null = null;
  #timer: ReturnType<typeof setInterval> | undefined;
  #stopped = false;

  constructor(readPrimaryMs: () => Promise<number>, options: PrimaryClockOptions = {}) {
    this.#readPrimaryMs = readPrimaryMs;
    this.#intervalMs = options.intervalMs ?? CLOCK_SAMPLE_INTERVAL_MS;
    this.#timeoutMs = options.timeoutMs ?? CLOCK_SAMPLE_TIMEOUT_MS;
    this.#kept = options.kept ?? CLOCK_SAMPLES_KEPT;
    this.#wallMs = options.wallMs ?? Date.now;
    this.#monoMs = options.monoMs ?? (() => performance.now());
  }

  // Properties, not methods: callers pass `clock.now` on as a function of its own.
  readonly now = (): number => Math.floor(this.preciseNow());

  /**
   * Before the first answer: the node's own clock, in whole milliseconds. From then on it never runs
   * backwards: a later, better answer that puts the primary's time a few milliseconds back holds it
   * still for those, so that events read in turn keep their order (second-factor codes).
   */
  readonly preciseNow = (): number => {
    const best = this.#best;
    if (best === null) return this.#wallMs();
    this.#latestMs = Math.max(this.#latestMs, primaryTimeAt(best, this.#monoMs()));
    return this.#latestMs;
  };

  offsetMs(): number | null {
    if (this.#best === null) return null;
    return Math.round(this.#wallMs() - this.preciseNow());
  }

  status(): ClockStatus {
    const offsetMs = this.offsetMs();
    return { offsetMs, warning: clockSkewWarning(offsetMs) };
  }

  /**
   * Asks the primary once (callers during a question share it); true when it answered in time. A
   * failure only leaves the clock on its last answer.
   */
  measure(): Promise<boolean> {
    this.#measuring ??= this.#sample().finally(() => (this.#measuring = null));
    return this.#measuring;
  }

  async #sample(): Promise<boolean> {
    if (this.#stopped) return false;
    const sentWallMs = this.#wallMs();
    const sentMonoMs = this.#monoMs();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), this.#timeoutMs)));
    const primaryMs = await Promise.race([this.#readPrimaryMs().catch(() => null), late])
      .finally(() => clearTimeout(timer));
    if (primaryMs === null || this.#stopped) return false;
    const fix = fixOf({ sentMonoMs, receivedMonoMs: this.#monoMs(), sentWallMs, primaryMs });
    this.#fixes = keepRecent(this.#fixes, fix, this.#kept);
    this.#best = bestFix(this.#fixes);
    return true;
  }

  /** The first question, awaited (at most the timeout), then one every interval in the background. */
  async start(): Promise<void> {
    await this.measure();
    if (this.#stopped || this.#timer !== undefined) return;
    this.#timer = setInterval(() => void this.measure(), this.#intervalMs);
    Deno.unrefTimer(this.#timer);
  }

  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
  }
}
