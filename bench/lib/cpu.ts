/**
 * A process's own CPU time, so a benchmark can charge the server for its requests alone: wrk and
 * the server each get a core of their own, and the server's user + system time (all its threads,
 * from /proc/<pid>/stat) is read around each run.
 */
import { TASKSET_PATH } from "./wrk.ts";

/** The core wrk runs on, and the core every thread of the server under test runs on. */
export const LOAD_CPU = 0;
export const SERVER_CPU = 1;

async function run(command: string, args: string[]): Promise<string> {
  const { stdout, stderr, success } = await new Deno.Command(command, {
    args,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  if (!success) throw new Error(`${command} ${args.join(" ")}: ${new TextDecoder().decode(stderr)}`);
  return new TextDecoder().decode(stdout);
}

/** Clock ticks per second of /proc/<pid>/stat's times (usually 100, so 10 ms resolution). */
export async function clockTicksPerSecond(): Promise<number> {
  const ticks = Number((await run("getconf", ["CLK_TCK"])).trim());
  if (!Number.isInteger(ticks) || ticks <= 0) throw new Error(`getconf CLK_TCK gave "${ticks}"`);
  return ticks;
}

/** Pins every thread the process has now to `cpu`; threads it starts later inherit the mask. */
export async function pinProcess(pid: number, cpu: number): Promise<void> {
  await run(TASKSET_PATH, ["-a", "-p", "-c", String(cpu), String(pid)]);
}

/** Lets every thread of the process run on any core again. */
export async function unpinProcess(pid: number): Promise<void> {
  await run(TASKSET_PATH, ["-a", "-p", "-c", `0-${navigator.hardwareConcurrency - 1}`, String(pid)]);
}

/** utime + stime of the whole process (every thread), in clock ticks. */
export async function cpuTicks(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 (utime) and 15 (stime) of proc(5); fields[0] is field 3.
  return Number(fields[11]) + Number(fields[12]);
}

/** How often, and for how long at most, settledCpuTicks() looks for the server to go quiet. */
const SETTLE_POLL_MS = 250;
const SETTLE_MAX_MS = 60_000;
/** At most this many clock ticks per poll (4% of a core at 100 ticks/s) counts as quiet. */
const QUIET_TICKS_PER_POLL = 1;

/**
 * The server's CPU ticks once it has finished the work its requests left behind. The request log
 * writes a run's last entries after wrk has its answers (a regional node sends them to the primary
 * and pulls them back with its next sync), and that work belongs to the run: read at the end of wrk,
 * a fast run's cost would spill into the next run's figure.
 */
export async function settledCpuTicks(pid: number): Promise<number> {
  let last = await cpuTicks(pid);
  for (let waited = 0; waited < SETTLE_MAX_MS; waited += SETTLE_POLL_MS) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    const now = await cpuTicks(pid);
    if (now - last <= QUIET_TICKS_PER_POLL) return now;
    last = now;
  }
  return last;
}
