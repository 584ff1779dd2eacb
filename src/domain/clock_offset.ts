/**
 * How far a node's clock is from the primary's, from samples of the primary's time (NTP's rule in
 * small): a sample is read at the midpoint of its round trip, so its error is at most half that
 * round trip, and of the recent samples the one with the shortest round trip is trusted.
 *
 * Elapsed time is measured on the node's monotonic clock (performance.now()), which steps neither
 * with the wall clock nor with a time zone: from a trusted sample, the primary's time now is the
 * primary's time then plus the monotonic time elapsed since.
 */

/**
 * A node whose clock is further than this from the primary's is reported (status and screens). Far
 * above what a measurement can be off (half a round trip; an answer later than 2 s is dropped), so a
 * warning is never noise; and NTP keeps servers within milliseconds, so 5 s means it has failed, well
 * before what still reads the node's own clock (logs, audit times, a 30 s TOTP step) is visibly wrong.
 */
export const CLOCK_SKEW_WARN_MS = 5_000;

/** One question to the primary: when it left and came back, and what the primary answered. */
export interface ClockSample {
  /** The node's monotonic clock (ms) when the question left, and when the answer arrived. */
  sentMonoMs: number;
  receivedMonoMs: number;
  /** The node's wall clock (ms since the epoch) when the question left. */
  sentWallMs: number;
  /** The primary's wall clock in its answer (ms since the epoch). */
  primaryMs: number;
}

/** A sample read at the midpoint of its round trip. */
export interface ClockFix {
  /** The node's monotonic clock at the midpoint. */
  monoMs: number;
  /** The primary's time at that moment. */
  primaryMs: number;
  roundTripMs: number;
  /** The node's wall clock minus the primary's at that moment. */
  offsetMs: number;
}

export function fixOf(sample: ClockSample): ClockFix {
  const roundTripMs = Math.max(0, sample.receivedMonoMs - sample.sentMonoMs);
  const half = roundTripMs / 2;
  return {
    monoMs: sample.sentMonoMs + half,
    primaryMs: sample.primaryMs,
    roundTripMs,
    offsetMs: sample.sentWallMs + half - sample.primaryMs,
  };
}

/** The recent fixes after `fix`: the newest `kept` of them, oldest first. */
export function keepRecent(fixes: readonly ClockFix[], fix: ClockFix, kept: number): ClockFix[] {
  return [...fixes, fix].slice(-Math.max(1, kept));
}

/** The fix with the shortest round trip (the newest of equals); null without any. */
export function bestFix(fixes: readonly ClockFix[]): ClockFix | null {
  let best: ClockFix | null = null;
  for (const fix of fixes) if (best === null || fix.roundTripMs <= best.roundTripMs) best = fix;
  return best;
}

/** The primary's time when the node's monotonic clock reads `monoMs`, by the fix. */
export function primaryTimeAt(fix: ClockFix, monoMs: number): number {
  return fix.primaryMs + (monoMs - fix.monoMs);
}

/** "2 min 5 s", "12 s": how far apart, whichever way. */
export function distanceText(ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 60) return `${seconds} s`;
  const rest = seconds % 60;
  return `${Math.floor(seconds / 60)} min${rest === 0 ? "" : ` ${rest} s`}`;
}

/** The sentence staff read when the node's clock is further from the primary's than `boundMs`, or null. */
export function clockSkewWarning(offsetMs: number | null, boundMs = CLOCK_SKEW_WARN_MS): string | null {
  if (offsetMs === null || Math.abs(offsetMs) <= boundMs) return null;
  const direction = offsetMs > 0 ? "ahead of" : "behind";
  return `This node's clock is ${distanceText(offsetMs)} ${direction} the primary's (more than ${
    distanceText(boundMs)
  } apart). Sessions and limits follow the primary's clock; correct this server's time synchronisation (NTP).`;
}

/** "Clock 2 min ahead", "Clock 12 s behind": the short form of an offset, for a badge. */
export function clockOffsetLabel(offsetMs: number): string {
  return `Clock ${distanceText(offsetMs)} ${offsetMs >= 0 ? "ahead" : "behind"}`;
}
