/**
 * Runs a task of deno.json as its own process with the task's own permission flags, so a test
 * shows those flags are enough. node_modules may be a symbolic link (git worktrees) and Deno matches
 * --allow-ffi against an addon's real path, so a node_modules path in those flags is given as its
 * real path.
 */
const ROOT = new URL("../../../", import.meta.url).pathname.replace(/\/$/, "");

export interface TaskRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

function realFfiPaths(flag: string): string {
  if (!flag.startsWith("--allow-ffi=")) return flag;
  const paths = flag.slice("--allow-ffi=".length).split(",");
  return `--allow-ffi=${
    paths.map((path) => path.startsWith("node_modules/") ? Deno.realPathSync(`${ROOT}/${path}`) : path).join(
      ",",
    )
  }`;
}

/** `deno task <name> <args>` with `env` added; the primary's settings are cleared unless `env` gives them. */
export async function runTask(
  name: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<TaskRun> {
  const tasks = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`)).tasks as Record<string, string>;
  const [binary, run, ...rest] = tasks[name].split(/\s+/);
  if (binary !== "./node_modules/.bin/deno" || run !== "run") {
    throw new Error(`task ${name} is not a deno run`);
  }
  const started = performance.now();
  const output = await new Deno.Command(Deno.execPath(), {
    args: [run, ...rest.map(realFfiPaths), ...args],
    cwd: ROOT,
    env: { DATABASE_SYNC_URL: "", DATABASE_AUTH_TOKEN: "", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return {
    code: output.code,
    stdout: decode(output.stdout),
    stderr: decode(output.stderr),
    ms: performance.now() - started,
  };
}
