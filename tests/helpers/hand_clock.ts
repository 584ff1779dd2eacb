/** A clock a test moves by hand, for an app created with createTestApp(env, { clock }). */
import type { Clock } from "../../src/server/topology/clock.ts";

export function handClock(startMs = Date.now()) {
  let nowMs = startMs;
  const clock: Clock = {
    now: () => nowMs,
    preciseNow: () => nowMs,
    offsetMs: () => null,
    status: () => ({ offsetMs: null, warning: null }),
    stop: () => {},
  };
  return { clock, advance: (ms: number) => void (nowMs += ms) };
}
