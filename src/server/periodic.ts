/**
 * A background task run every interval, one run at a time: a run still going when the next is due
 * is not doubled, a run that throws is logged and the next one tries again, and `stop` waits for the
 * run in flight so that shutdown closes the database only after it.
 */
export interface PeriodicTask {
  stop(): Promise<void>;
}

export function startPeriodic(name: string, intervalMs: number, run: () => Promise<void>): PeriodicTask {
  let inFlight: Promise<void> = Promise.resolve();
  let running = false;
  let stopped = false;
  const once = async () => {
    try {
      await run();
    } catch (error) {
      console.error(`${name} failed: ${error instanceof Error ? error.message : error}`);
    }
  };
  const tick = () => {
    if (running || stopped) return;
    running = true;
    inFlight = once().finally(() => running = false);
  };
  const timer = setInterval(tick, intervalMs);
  Deno.unrefTimer(timer);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
    },
  };
}
