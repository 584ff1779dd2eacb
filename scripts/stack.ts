/**
 * `deno task stack`: the whole replicated topology on one machine, for developers
 * (docs/deployment.md): the primary (sqld, JWT auth on) and three consoles, headquarters on PORT and
 * the regional nodes "north" and "south" on PORT+1 and PORT+2. Honours HOST, PORT, DATA_DIR,
 * ADMIN_EMAIL, ADMIN_PASSWORD and SEED_DEMO (demo data unless SEED_DEMO=0). Everything it keeps is
 * under DATA_DIR: keys/, primary.sqld/ (the primary's data), nodes/<node>/ (each console's replica
 * and files), *.log. Ctrl-C or SIGTERM stops every process it started.
 */
import { DEFAULT_DATA_DIR, DEFAULT_HOST, DEFAULT_PORT } from "../src/server/config.ts";
import { AUDIT_CHAIN_KEY_FILE_NAME, encodeBase64, loadKey, loadSecretsKey } from "../src/server/secrets.ts";
import { ensureNodeKeys, PUBLIC_KEY_FILE } from "./node_keys.ts";
import { type PrimaryProcess, startPrimary } from "./primary.ts";
import { SERVER_V8_FLAGS, serverPermissions } from "./start.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
export const REGIONS = ["north", "south"] as const;
/** The primary listens next to the consoles: PORT+3 unless SQLD_PORT says otherwise. */
const PRIMARY_PORT_OFFSET = 3;
/** How long the stack waits for every console to answer before giving up. */
const NODES_START_TIMEOUT_MS = 180_000;
/** How long each console gets to finish its requests on stop before it is killed. */
const NODE_STOP_TIMEOUT_MS = 15_000;

interface Node {
  name: string;
  role: "headquarters" | "regional";
  region: string;
  url: string;
  process: Deno.ChildProcess;
}

function absolute(path: string): string {
  return path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
}

async function waitForAnswer(url: string, deadlineMs: number, alive: () => boolean): Promise<void> {
  for (;;) {
    const answered = await fetch(`${url}/api/auth/user`).then(async (res) => {
      await res.body?.cancel();
      return res.status === 401 || res.ok;
    }, () => false);
    if (answered) return;
    if (!alive()) throw new Error(`the console at ${url} exited during start-up`);
    if (Date.now() > deadlineMs) throw new Error(`the console at ${url} did not answer in time`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function main() {
  const env = Deno.env.toObject();
  const host = env.HOST || DEFAULT_HOST;
  const port = Number(env.PORT || DEFAULT_PORT);
  if (!Number.isInteger(port) || port <= 0 || port + PRIMARY_PORT_OFFSET > 65_535) {
    throw new Error(`PORT must leave room for PORT+${PRIMARY_PORT_OFFSET}, got "${env.PORT}"`);
  }
  const primaryPort = Number(env.SQLD_PORT || port + PRIMARY_PORT_OFFSET);
  const dataDir = absolute(env.DATA_DIR || DEFAULT_DATA_DIR);
  if (env.DATABASE_URL) console.warn("DATABASE_URL is ignored by the stack: each node keeps its replica under DATA_DIR/nodes/.");
  await Deno.mkdir(dataDir, { recursive: true, mode: 0o700 });

  const keysDir = `${dataDir}/keys`;
  const tokenFiles = await ensureNodeKeys(keysDir, ["headquarters", ...REGIONS]);
  // One key for secrets at rest: a card or credential stored at headquarters reads the same at every node.
  const secretsKey = encodeBase64(await loadSecretsKey(dataDir, env.SECRETS_KEY || null));
  // One audit chain key: every node appends to the primary's one chain.
  const auditChainKey = encodeBase64(
    await loadKey(dataDir, {
      fileName: AUDIT_CHAIN_KEY_FILE_NAME,
      setting: "AUDIT_CHAIN_KEY",
      configured: env.AUDIT_CHAIN_KEY || null,
    }),
  );

  const build = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", `${ROOT}/build.ts`, "--if-stale"],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!build.success) throw new Error("building the SPA failed");

  const primary: PrimaryProcess = await startPrimary({
    host,
    port: primaryPort,
    dbPath: `${dataDir}/primary.sqld`,
    publicKeyFile: `${keysDir}/${PUBLIC_KEY_FILE}`,
    logFile: `${dataDir}/primary.log`,
  });
  const nodes: Node[] = [];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    // Regional nodes first, then headquarters, then the primary they all write to.
    for (const node of [...nodes].reverse()) {
      try {
        node.process.kill("SIGTERM");
      } catch {
        // Already gone.
      }
      const timer = setTimeout(() => {
        try {
          node.process.kill("SIGKILL");
        } catch {
          // Already gone.
        }
      }, NODE_STOP_TIMEOUT_MS);
      await node.process.status;
      clearTimeout(timer);
    }
    await primary.stop();
    Deno.exit(code);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, () => void stop(0));

  const startNode = async (name: string, offset: number): Promise<Node> => {
    const role = name === "headquarters" ? "headquarters" : "regional";
    const nodeDir = `${dataDir}/nodes/${name}`;
    await Deno.mkdir(nodeDir, { recursive: true, mode: 0o700 });
    const nodeEnv: Record<string, string> = {
      ...env,
      HOST: host,
      PORT: String(port + offset),
      DATA_DIR: nodeDir,
      NODE_ROLE: role,
      DATABASE_SYNC_URL: primary.url,
      DATABASE_AUTH_TOKEN: (await Deno.readTextFile(tokenFiles[name])).trim(),
      SECRETS_KEY: secretsKey,
      AUDIT_CHAIN_KEY: auditChainKey,
    };
    delete nodeEnv.DATABASE_URL;
    delete nodeEnv.SQLD_PORT;
    if (role === "headquarters") {
      nodeEnv.NODES_PUBLIC_KEY_FILE = `${keysDir}/${PUBLIC_KEY_FILE}`;
      nodeEnv.SEED_DEMO = env.SEED_DEMO === "0" ? "0" : "1";
      delete nodeEnv.REGION;
    } else {
      nodeEnv.REGION = name;
      nodeEnv.HQ_CONSOLE_URL = `http://${host}:${port}`;
      // The administrator is made once, by headquarters.
      delete nodeEnv.ADMIN_PASSWORD;
      delete nodeEnv.SEED_DEMO;
    }
    const process = new Deno.Command(Deno.execPath(), {
      args: ["run", ...serverPermissions(nodeEnv), SERVER_V8_FLAGS, `${ROOT}/src/server/main.ts`],
      env: nodeEnv,
      clearEnv: true,
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    let exited = false;
    process.status.then(() => (exited = true));
    const node = { name, role, region: name, url: `http://${host}:${port + offset}`, process } as const;
    nodes.push(node);
    await waitForAnswer(node.url, Date.now() + NODES_START_TIMEOUT_MS, () => !exited);
    return node;
  };

  try {
    // Headquarters applies the schema; the regional nodes wait for it to reach their replicas.
    await startNode("headquarters", 0);
    await Promise.all(REGIONS.map((region, i) => startNode(region, i + 1)));
  } catch (error) {
    console.error(`The stack could not start: ${error instanceof Error ? error.message : error}`);
    await stop(1);
  }
  console.log(`primary       sqld         ${primary.url}`);
  for (const node of nodes) {
    console.log(`${node.role.padEnd(13)} ${node.region.padEnd(12)} ${node.url}`);
  }
  console.log("Ctrl-C stops every process of the stack.");
  for (const node of nodes) {
    node.process.status.then((status) => {
      if (!stopping) {
        console.error(`${node.name} exited (code ${status.code}); stopping the stack`);
        void stop(1);
      }
    });
  }
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    console.error(`The stack could not start: ${error instanceof Error ? error.message : error}`);
    Deno.exit(1);
  }
}
