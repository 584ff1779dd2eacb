/**
 * `deno task stack` exactly as the README gives it: the primary and three consoles come up, each
 * answers as its role, and SIGTERM stops every process the stack started.
 */
import assert from "node:assert/strict";
import { call, signIn } from "./support/cluster.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const STACK_START_TIMEOUT_MS = 180_000;

function freeBlock(): number {
  // Four consecutive free ports: PORT to PORT+3.
  for (;;) {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    listener.close();
    if (port + 3 > 65_535) continue;
    const taken = [1, 2, 3].some((offset) => {
      try {
        Deno.listen({ hostname: "127.0.0.1", port: port + offset }).close();
        return false;
      } catch {
        return true;
      }
    });
    if (!taken) return port;
  }
}

Deno.test({
  name: "deno task stack brings up the primary, headquarters, north and south, and SIGTERM stops them all",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "cbr-stack-" });
    const port = freeBlock();
    const env = {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "/tmp",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_EMAIL: "stack.admin@cb.test",
      ADMIN_PASSWORD: "stack-primary-passphrase",
      SEED_DEMO: "0",
      // The administrator signs in with a password alone here, as the README's tools do.
      REQUIRE_MFA: "0",
    };
    const stack = new Deno.Command("node_modules/.bin/deno", {
      args: ["task", "stack"],
      cwd: ROOT,
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
      // Its own process group, so that the test can end the whole tree if something fails.
      detached: true,
    }).spawn();
    let output = "";
    const decoder = new TextDecoder();
    const drained = Promise.all([stack.stdout, stack.stderr].map(async (stream) => {
      for await (const chunk of stream) output += decoder.decode(chunk);
    }));
    try {
      const deadline = Date.now() + STACK_START_TIMEOUT_MS;
      while (!output.includes("Ctrl-C stops every process of the stack.")) {
        if (Date.now() > deadline) throw new Error(`the stack did not come up:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      assert.match(output, new RegExp(`primary\\s+sqld\\s+http://127\\.0\\.0\\.1:${port + 3}`));
      assert.match(output, new RegExp(`headquarters\\s+headquarters\\s+http://127\\.0\\.0\\.1:${port}\\b`));
      assert.match(output, new RegExp(`regional\\s+north\\s+http://127\\.0\\.0\\.1:${port + 1}\\b`));
      assert.match(output, new RegExp(`regional\\s+south\\s+http://127\\.0\\.0\\.1:${port + 2}\\b`));
      for (const [offset, role, region] of [[0, "headquarters", "headquarters"], [1, "regional", "north"], [2, "regional", "south"]] as const) {
        const baseUrl = `http://127.0.0.1:${port + offset}`;
        const cookie = await signIn(baseUrl, env.ADMIN_EMAIL, env.ADMIN_PASSWORD);
        const state = await call(baseUrl, "GET", "/api/system/replication", cookie);
        assert.equal(state.body.role, role);
        assert.equal(state.body.region, region);
      }
      // The primary runs with JWT auth: no token, no answer.
      const anonymous = await fetch(`http://127.0.0.1:${port + 3}/`, { method: "POST", body: '{"statements":["SELECT 1"]}' });
      await anonymous.body?.cancel();
      assert.equal(anonymous.status, 401);
      // Tokens live in files and are never printed.
      const token = (await Deno.readTextFile(`${dataDir}/keys/north.token`)).trim();
      assert.ok(!output.includes(token));

      stack.kill("SIGTERM");
      const status = await stack.status;
      assert.equal(status.code, 0, output);
      for (const offset of [0, 1, 2, 3]) {
        const answered = await fetch(`http://127.0.0.1:${port + offset}/`).then(async (res) => {
          await res.body?.cancel();
          return true;
        }, () => false);
        assert.equal(answered, false, `something still listens on ${port + offset}`);
      }
    } finally {
      try {
        Deno.kill(-stack.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      await drained;
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
