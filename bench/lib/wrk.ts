/**
 * Drives Debian's wrk (a C load generator: it does not compete with the server for the JS
 * engine's time the way autocannon does) and parses its report.
 */
export const WRK_PATH = Deno.env.get("WRK_PATH") ?? "/usr/bin/wrk";
export const TASKSET_PATH = "/usr/bin/taskset";
export const WRK_THREADS = 2;
export const WRK_CONNECTIONS = 50;
/**
 * wrk's default 2 s timeout drops the slowest answers from the latency figures and counts them as
 * socket errors; a generous one keeps them in the percentiles.
 */
export const WRK_TIMEOUT_SECONDS = 10;

export interface WrkResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses outside 2xx/3xx: a run with any of them measured the wrong thing. */
  non2xx: number;
  socketErrors: number;
}

export interface WrkRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Paths (with query) cycled through, one per request, instead of the URL's own path. */
  paths?: string[];
  /**
   * A header whose value is cycled through (e.g. many API keys): one per request, or with
   * `runLength`, each wrk thread sends one value that many times in a row before its next, the
   * threads taking turns over the values so no two share one (a client using its key).
   */
  rotateHeader?: { name: string; values: string[]; runLength?: number };
}

function luaString(value: string): string {
  return JSON.stringify(value);
}

/** wrk's Lua reads JSON-style double-quoted strings; JSON.stringify's escapes are all valid Lua. */
export function luaScript(request: WrkRequest): string {
  const lines: string[] = [];
  lines.push(`wrk.method = ${luaString(request.method ?? "GET")}`);
  if (request.body !== undefined) lines.push(`wrk.body = ${luaString(request.body)}`);
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  }
  if (request.rotateHeader && request.rotateHeader.values.length > 0) {
    const { name, values, runLength } = request.rotateHeader;
    lines.push(`local values = { ${values.map(luaString).join(", ")} }`);
    lines.push("local counter = math.random(#values)");
    if (runLength !== undefined) {
      // setup() runs in wrk's main state once per thread; init() then runs in that thread's own.
      lines.push("local threads = 0");
      lines.push("function setup(thread) threads = threads + 1; thread:set(\"thread_number\", threads) end");
      lines.push("local sent = 0");
      lines.push(`function init(args) counter = thread_number; sent = 0 end`);
      lines.push("local function advance()");
      lines.push(`  if sent >= ${runLength} then sent = 0; counter = counter + ${WRK_THREADS} end`);
      lines.push("  if counter > #values then counter = thread_number end");
      lines.push("  sent = sent + 1");
      lines.push("end");
    }
    lines.push("request = function()");
    lines.push(runLength === undefined ? "  counter = counter % #values + 1" : "  advance()");
    lines.push("  local headers = {}");
    lines.push("  for k, v in pairs(wrk.headers) do headers[k] = v end");
    lines.push(`  headers[${luaString(name)}] = values[counter]`);
    lines.push("  return wrk.format(nil, nil, headers)");
    lines.push("end");
  } else if (request.paths && request.paths.length > 0) {
    lines.push(`local paths = { ${request.paths.map(luaString).join(", ")} }`);
    lines.push("local counter = math.random(#paths)");
    lines.push("request = function()");
    lines.push("  counter = counter % #paths + 1");
    lines.push("  return wrk.format(nil, paths[counter])");
    lines.push("end");
  }
  return lines.join("\n") + "\n";
}

const UNIT_TO_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function parseDurationMs(text: string): number {
  const match = text.match(/^([\d.]+)(us|ms|s|m)$/);
  if (!match) throw new Error(`unparseable wrk duration "${text}"`);
  return Number(match[1]) * UNIT_TO_MS[match[2]];
}

export function parseWrkOutput(output: string): WrkResult {
  const rps = output.match(/Requests\/sec:\s+([\d.]+)/);
  const p50 = output.match(/^\s+50%\s+(\S+)/m);
  const p99 = output.match(/^\s+99%\s+(\S+)/m);
  const total = output.match(/(\d+) requests in/);
  if (!rps || !p50 || !p99 || !total) throw new Error(`unparseable wrk output:\n${output}`);
  const non2xx = output.match(/Non-2xx or 3xx responses:\s+(\d+)/);
  const socket = output.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  return {
    requestsPerSec: Number(rps[1]),
    p50Ms: parseDurationMs(p50[1]),
    p99Ms: parseDurationMs(p99[1]),
    requests: Number(total[1]),
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    socketErrors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

export interface WrkOptions {
  /** Run wrk on this CPU alone (taskset -c), so it never takes the server's core. */
  cpu?: number;
}

export async function runWrk(
  request: WrkRequest,
  durationSec: number,
  options: WrkOptions = {},
): Promise<WrkResult> {
  const scriptPath = await Deno.makeTempFile({ prefix: "bench-wrk-", suffix: ".lua" });
  const pin = options.cpu === undefined ? [] : ["-c", String(options.cpu), WRK_PATH];
  try {
    await Deno.writeTextFile(scriptPath, luaScript(request));
    const { stdout, stderr, success } = await new Deno.Command(pin.length > 0 ? TASKSET_PATH : WRK_PATH, {
      args: [
        ...pin,
        `-t${WRK_THREADS}`,
        `-c${WRK_CONNECTIONS}`,
        `-d${durationSec}s`,
        "--latency",
        "--timeout",
        `${WRK_TIMEOUT_SECONDS}s`,
        "-s",
        scriptPath,
        request.url,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(stdout);
    if (!success) throw new Error(`wrk failed: ${new TextDecoder().decode(stderr)}\n${text}`);
    return parseWrkOutput(text);
  } finally {
    await Deno.remove(scriptPath).catch(() => {});
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Each figure is the median of that figure over the runs (not the figures of the median run). */
export function medianResult(results: WrkResult[]): WrkResult {
  const pick = (f: (r: WrkResult) => number) => median(results.map(f));
  return {
    requestsPerSec: pick((r) => r.requestsPerSec),
    p50Ms: pick((r) => r.p50Ms),
    p99Ms: pick((r) => r.p99Ms),
    requests: pick((r) => r.requests),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    socketErrors: results.reduce((sum, r) => sum + r.socketErrors, 0),
  };
}
