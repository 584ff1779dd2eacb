/**
 * Every `deno task` the README documents, run exactly as the README writes it, on a fresh data
 * folder: a task that lacks a permission (sys, FFI, read, write) fails here, not in a user's hands.
 * Tasks that run a server are started, asked for GET /api/auth/user (401 once it serves), and
 * stopped with SIGTERM to their whole process group (`deno` from npm is a Node wrapper).
 */
import assert from "node:assert/strict";

const ROOT = new URL("../..", import.meta.url).pathname;
const README = await Deno.readTextFile(`${ROOT}README.md`);
const SERVER_ANSWER_TIMEOUT_MS = 30_000;
const COMMAND_TIMEOUT_MS = 30_000;
const SERVER_STOP_TIMEOUT_MS = 5_000;

interface Run {
  /** The command line, character for character as in the README. */
  line: string;
  server?: true;
  expectOutput?: RegExp;
}

/** In the order a newcomer would use them on a fresh folder. */
const RUN: Record<string, Run> = {
  build: { line: "deno task build", expectOutput: /initial JS/ },
  "user:add": {
    line:
      "USER_PASSWORD='a long passphrase' npx deno task user:add --email jane.doe@cb.example --first-name Jane --last-name Doe",
    expectOutput: /Created user jane\.doe@cb\.example/,
  },
  // The user just added has no second factor yet: the reset says so and ends their sessions.
  "user:reset-mfa": {
    line: "deno task user:reset-mfa --email jane.doe@cb.example",
    expectOutput: /jane\.doe@cb\.example had no second factor; their sessions are ended\./,
  },
  "audit:verify": {
    line: "deno task audit:verify",
    expectOutput: /Audit trail verified: \d+ rows, chain intact\./,
  },
  start: { line: "deno task start", server: true },
  dev: { line: "deno task dev", server: true },
  keys: { line: "deno task keys", expectOutput: /Token of headquarters: / },
  // Headquarters answers on PORT once the primary and the regional nodes around it are up.
  stack: { line: "npx deno task stack", server: true },
};

/** Documented, and deliberately not run from inside the test suite. */
const NOT_RUN: Record<string, string> = {
  test: "it is the test suite this test belongs to",
  "test:faults": "the fault suite: minutes of crashes and load, run on its own by CI",
  bench: "the benchmarks: minutes of load by design, run on their own",
  backup: "needs a running sqld: tests/replication/backup_test.ts runs it with its deno.json flags",
  restore:
    "needs a backup and a stopped sqld: tests/replication/backup_test.ts runs it with its deno.json flags",
};

function documentedTasks(): Set<string> {
  const names = new Set<string>();
  for (const match of README.matchAll(/deno task ([a-z][a-z:-]*)/g)) names.add(match[1]);
  for (const match of README.matchAll(/npm (start|test)\b/g)) names.add(match[1]);
  return names;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

function spawn(line: string, env: Record<string, string>) {
  // setsid: the shell leads a new process group, so one signal reaches deno's wrapper and its children.
  const child = new Deno.Command("setsid", {
    args: ["sh", "-c", line],
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const decoder = new TextDecoder();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) output += decoder.decode(chunk);
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  const signalGroup = (signal: Deno.Signal) => {
    try {
      Deno.kill(-child.pid, signal);
    } catch {
      // The group has already exited.
    }
  };
  return {
    output: () => output,
    signalGroup,
    /**
     * The shell's status once every process of the group has closed its output; past `timeoutMs`
     * the group is killed. (`deno run --watch` outlives the program it runs: after SIGTERM it keeps
     * watching files.)
     */
    async finished(timeoutMs: number) {
      const timer = setTimeout(() => signalGroup("SIGKILL"), timeoutMs);
      const [status] = await Promise.all([child.status, drained]);
      clearTimeout(timer);
      return status;
    },
  };
}

async function answersUnauthorized(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/api/auth/user`);
    await res.body?.cancel();
    return res.status === 401;
  } catch {
    return false;
  }
}

Deno.test("every deno task the README documents runs as written on a fresh data folder", async () => {
  const documented = documentedTasks();
  for (const name of documented) {
    assert(name in RUN || name in NOT_RUN, `README documents "deno task ${name}": add it to this test`);
  }
  for (const [name, run] of Object.entries(RUN)) {
    assert(documented.has(name), `the README no longer documents ${name}`);
    assert(README.includes(run.line), `the README does not write: ${run.line}`);
  }

  const parent = await Deno.makeTempDir({ prefix: "cbr-readme-tasks-" });
  const port = freePort();
  const env: Record<string, string> = {
    ...Deno.env.toObject(),
    // "`deno` here is `node_modules/.bin/deno`" (README).
    PATH: `${ROOT}node_modules/.bin:${Deno.env.get("PATH") ?? ""}`,
    DATA_DIR: `${parent}/data`,
    PORT: String(port),
    HOST: "127.0.0.1",
    ADMIN_PASSWORD: "readme-tasks-first-passphrase",
    SEED_DEMO: "0",
  };
  delete env.DATABASE_URL;
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    for (const [name, run] of Object.entries(RUN)) {
      const process = spawn(run.line, env);
      if (!run.server) {
        const status = await process.finished(COMMAND_TIMEOUT_MS);
        assert(status.success, `${run.line} failed (${status.code}):\n${process.output()}`);
        if (run.expectOutput) assert.match(process.output(), run.expectOutput, name);
        continue;
      }
      const deadline = Date.now() + SERVER_ANSWER_TIMEOUT_MS;
      let answered = false;
      while (!answered && Date.now() < deadline) {
        answered = await answersUnauthorized(baseUrl);
        if (!answered) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      process.signalGroup("SIGTERM");
      await process.finished(SERVER_STOP_TIMEOUT_MS);
      assert(answered, `${run.line} did not answer on ${baseUrl}:\n${process.output()}`);
      assert.doesNotMatch(process.output(), /NotCapable|PermissionDenied|Requires \w+ access/, name);
    }
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
