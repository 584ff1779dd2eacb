/**
 * The node's read connections to its replica file, and their rebuild after the primary diverged
 * (replicated.ts). The rest of the server holds `client` and `statements` for the process's life,
 * so both stay the same objects and lead to the current connections; while the replica is being
 * rebuilt every read through them answers 503 "re-synchronising".
 */
import { type Client, createClient } from "@libsql/client";
import { dirname } from "node:path";
import { resynchronisingError, type ReplicaSync } from "../topology/replication.ts";
import { openNative, REPLICA_READ_PRAGMAS } from "./native.ts";
import { advanceReplicaGeneration } from "./replica_generation.ts";
import { type NativeConnection, preparedStatements, type Statements } from "./statements.ts";

/** How often the rebuild asks the primary for a new copy while it cannot be reached. */
const REBUILD_RETRY_MS = 1_000;
/**
 * A lost-change report that could not be recorded (the restarted primary busy or unreachable) is
 * tried again after this, doubling up to REPORT_RETRY_MAX_MS: the report must not be lost in turn.
 */
const REPORT_RETRY_MS = 1_000;
const REPORT_RETRY_MAX_MS = 30_000;
/** The files of a libSQL embedded replica beside the database file itself. */
const REPLICA_FILE_SUFFIXES = ["", "-wal", "-shm", "-client_wal_index", "-info", "-journal"];

/** What a rebuilt node hands the lost-change report: why, and where the old copy was set aside. */
export interface RebuiltReplica {
  reason: string;
  detectedAt: string;
  /** The set-aside database file. */
  setAsidePath: string;
}
/** Hears of a rebuild; may be called again for the same one after a failure, so it must be idempotent. */
export type RebuiltListener = (rebuilt: RebuiltReplica) => Promise<void>;

interface Connections {
  client: Client;
  native: NativeConnection;
  statements: Statements;
}

async function openConnections(url: string): Promise<Connections> {
  const client = createClient({ url, concurrency: 1, intMode: "number" });
  for (const pragma of REPLICA_READ_PRAGMAS) await client.execute(pragma);
  const native = openNative(url, REPLICA_READ_PRAGMAS);
  return { client, native, statements: preparedStatements(native) };
}

/** Moves the replica's files into `diverged/<time>/` beside it; returns the database file's new path. */
async function setAside(path: string, detectedAt: string): Promise<string> {
  const folder = `${dirname(path)}/diverged/${detectedAt.replaceAll(":", "-")}`;
  await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
  const name = path.slice(dirname(path).length + 1);
  for (const suffix of REPLICA_FILE_SUFFIXES) {
    await Deno.rename(`${path}${suffix}`, `${folder}/${name}${suffix}`).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }
  return `${folder}/${name}`;
}

export class LocalReplica {
  readonly #url: string;
  readonly #replica: ReplicaSync;
  #current: Connections | null = null;
  #listeners: RebuiltListener[] = [];
  #rebuilding: Promise<void> | null = null;
  /** Rebuilds before a listener was there: the node's start reports them once it can write to the trail. */
  #unheard: RebuiltReplica[] = [];
  /** The replica's reads, whichever connection serves them now. */
  readonly client: Client;
  readonly statements: Statements;

  constructor(url: string, replica: ReplicaSync) {
    this.#url = url;
    this.#replica = replica;
    const current = () => {
      if (this.#current === null || replica.resynchronising) throw resynchronisingError();
      return this.#current;
    };
    this.client = new Proxy({} as Client, {
      get: (_, property) => {
        const connection = current().client;
        const value = connection[property as keyof Client];
        return typeof value === "function" ? value.bind(connection) : value;
      },
    });
    const statements = () => current().statements;
    this.statements = {
      get: (text, args) => statements().get(text, args),
      all: (text, args) => statements().all(text, args),
      run: (text, args) => statements().run(text, args),
    };
  }

  get serving(): boolean {
    return this.#current !== null && !this.#replica.resynchronising;
  }

  async open(): Promise<void> {
    this.#current ??= await openConnections(this.#url);
  }

  /** Hears of every rebuild from now on, and of those before it that no one has heard of yet (at start). */
  onRebuilt(listener: RebuiltListener): void {
    this.#listeners.push(listener);
    const unheard = this.#unheard.splice(0);
    void (async () => {
      for (const rebuilt of unheard) await this.#tell(listener, rebuilt);
    })();
  }

  /** Tries until the listener succeeds (listeners are idempotent per rebuild), waiting longer each time. */
  async #tell(listener: RebuiltListener, rebuilt: RebuiltReplica): Promise<void> {
    for (let waitMs = REPORT_RETRY_MS;; waitMs = Math.min(waitMs * 2, REPORT_RETRY_MAX_MS)) {
      try {
        await listener(rebuilt);
        return;
      } catch (error) {
        console.error(`Reporting the changes the restored primary lost failed; tried again in ${waitMs} ms:`, error);
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
  }

  /**
   * Stops serving, sets the diverged files aside, rebuilds the replica from the primary (retrying
   * while it cannot be reached) and serves again; then the listeners report what was lost, in the
   * background.
   */
  rebuild(reason: string): Promise<void> {
    this.#rebuilding ??= this.#rebuild(reason).finally(() => (this.#rebuilding = null));
    return this.#rebuilding;
  }

  /** Resolves once no rebuild is under way (at start, before the node serves). */
  async whenServing(): Promise<void> {
    while (this.#rebuilding !== null) await this.#rebuilding.catch(() => {});
  }

  async #rebuild(reason: string): Promise<void> {
    const path = this.#url.slice("file:".length);
    const detectedAt = new Date().toISOString();
    console.error(`The primary no longer holds this node's replica (${reason}): rebuilding it.`);
    this.#closeConnections();
    await this.#replica.releaseFile();
    const setAsidePath = await setAside(path, detectedAt);
    for (;;) {
      try {
        await this.#replica.rebuild();
        break;
      } catch (error) {
        console.warn(`Rebuilding the replica: ${error instanceof Error ? error.message : error}; retrying.`);
        await new Promise((resolve) => setTimeout(resolve, REBUILD_RETRY_MS));
      }
    }
    this.#current = await openConnections(this.#url);
    advanceReplicaGeneration();
    this.#replica.resumed();
    console.log(`The replica was rebuilt from the primary; the diverged copy is kept at ${setAsidePath}.`);
    const rebuilt = { reason, detectedAt, setAsidePath };
    if (this.#listeners.length === 0) this.#unheard.push(rebuilt);
    // Told in the background: the node serves at once, and a report still being retried never holds
    // up the start (whenServing) or the next rebuild.
    for (const listener of this.#listeners) void this.#tell(listener, rebuilt);
  }

  #closeConnections(): void {
    const current = this.#current;
    this.#current = null;
    current?.client.close();
    current?.native.close();
  }

  close(): void {
    this.#closeConnections();
  }
}
