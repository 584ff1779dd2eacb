/**
 * sqld alone, with JWT auth as in production and no console in front of it, for the backup and
 * restore tests and bench: its db-path, URL and one token (file), and stop and start on the same
 * db-path and port. Listens on 127.0.0.1 only.
 */
import { createClient } from "@libsql/client";
import NativeDatabase from "libsql";
import { ensureNodeKeys, PUBLIC_KEY_FILE } from "../../../scripts/node_keys.ts";
import { type PrimaryProcess, startPrimary } from "../../../scripts/primary.ts";
import { freePort } from "../../e2e/helpers.ts";

export interface LonePrimary {
  dir: string;
  dbPath: string;
  url: string;
  token: string;
  tokenFile: string;
  /** The running sqld's pid; null while stopped. */
  pid(): number | null;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A client of the primary over HTTP with the token. */
  client(): ReturnType<typeof createClient>;
  /** An embedded replica of the primary at `path`, as a console keeps one; not synced yet. */
  replica(path: string): NativeDatabase.Database;
  /** Kills sqld if it runs and removes every file. */
  remove(): Promise<void>;
}

export async function startLonePrimary(prefix: string): Promise<LonePrimary> {
  const dir = await Deno.makeTempDir({ prefix });
  const tokenFile = (await ensureNodeKeys(`${dir}/keys`, ["operator"])).operator;
  const token = (await Deno.readTextFile(tokenFile)).trim();
  const options = {
    host: "127.0.0.1",
    port: await freePort(),
    dbPath: `${dir}/primary.sqld`,
    publicKeyFile: `${dir}/keys/${PUBLIC_KEY_FILE}`,
    logFile: `${dir}/primary.log`,
  };
  let running: PrimaryProcess | null = await startPrimary(options);
  const primary: LonePrimary = {
    dir,
    dbPath: options.dbPath,
    url: running.url,
    token,
    tokenFile,
    pid: () => running?.process.pid ?? null,
    async start() {
      running = await startPrimary(options);
    },
    async stop() {
      await running?.stop();
      running = null;
    },
    client: () => createClient({ url: primary.url, authToken: token }),
    replica(path: string) {
      // libsql's types leave out authToken, which its index.js reads.
      const options: NativeDatabase.Options & { authToken: string } = {
        syncUrl: primary.url,
        authToken: token,
      };
      return new NativeDatabase(path, options);
    },
    async remove() {
      // A graceful stop waits up to sqld's shutdown timeout (30 s) for replicas' open streams.
      try {
        running?.process.kill("SIGKILL");
      } catch {
        // Already gone.
      }
      await primary.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
  return primary;
}
