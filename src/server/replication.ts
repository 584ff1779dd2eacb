/**
 * The embedded replica of the primary (sqld), for the headquarters and regional roles
 * (docs/deployment.md): one libSQL client with `syncUrl` that only pulls the primary's frames into
 * the local file, on a timer and on demand. Every other connection of the process opens that file
 * as a plain database and reads it; nothing writes it but the sync.
 *
 * The primary may be unreachable at start and at any time after: the replica then keeps serving
 * its last copy, and `status()` says since when and whether the primary answers.
 */
import { type Client, createClient } from "@libsql/client";
import { AppError } from "./errors.ts";

/** A sync that has not answered by then counts as failed (libSQL itself gives up after about 3 s). */
export const SYNC_TIMEOUT_MS = 10_000;

export interface ReplicaStatus {
  /** When the replica last caught up with the primary; null until it first did. */
  lastSyncAt: string | null;
  /** How far behind the primary the local copy may be: the time since the last successful sync. */
  secondsBehind: number | null;
  primaryReachable: boolean;
  /** The primary's replication index (frame number) the replica has applied; null until known. */
  frameNo: number | null;
  /** The last sync failure's message, while the primary is unreachable. */
  lastError: string | null;
}

interface SyncOptions {
  url: string;
  syncUrl: string;
  authToken: string;
  intervalMs: number;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class ReplicaSync {
  readonly #options: SyncOptions;
  #client: Client | null = null;
  #lastSyncMs: number | null = null;
  #frameNo: number | null = null;
  #reachable = false;
  #lastError: string | null = null;
  #running: Promise<void> | null = null;
  /** A sync that will start once the running one ends, shared by every caller until then. */
  #next: Promise<void> | null = null;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(options: SyncOptions) {
    this.#options = options;
  }

  /**
   * Runs a sync that starts after this call, so that it carries every write the primary committed
   * before the call; concurrent callers share one. Rejects when the primary cannot be reached.
   */
  syncNow(): Promise<void> {
    if (this.#running === null) return this.#start();
    this.#next ??= this.#running.catch(() => {}).then(() => {
      this.#next = null;
      return this.#start();
    });
    return this.#next;
  }

  #start(): Promise<void> {
    const run = this.#run().finally(() => {
      if (this.#running === run) this.#running = null;
    });
    this.#running = run;
    return run;
  }

  async #run(): Promise<void> {
    if (this.#closed) throw new Error("the replica is closed");
    try {
      // Created on first use: createClient() with a syncUrl throws while the primary is unreachable.
      this.#client ??= createClient({
        url: this.#options.url,
        syncUrl: this.#options.syncUrl,
        authToken: this.#options.authToken,
      });
      const replicated = await withTimeout(this.#client.sync(), SYNC_TIMEOUT_MS, "the primary");
      this.#lastSyncMs = Date.now();
      if (replicated?.frame_no !== undefined) this.#frameNo = replicated.frame_no;
      this.#reachable = true;
      this.#lastError = null;
    } catch (error) {
      this.#reachable = false;
      this.#lastError = error instanceof Error ? error.message : String(error);
      throw error;
    }
  }

  /** Syncs every `intervalMs` from now on; failures are kept in the status, never thrown. */
  startPeriodic(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      if (this.#running === null) this.syncNow().catch(() => {});
    }, this.#options.intervalMs);
    Deno.unrefTimer(this.#timer);
  }

  get primaryReachable(): boolean {
    return this.#reachable;
  }

  status(nowMs = Date.now()): ReplicaStatus {
    return {
      lastSyncAt: this.#lastSyncMs === null ? null : new Date(this.#lastSyncMs).toISOString(),
      secondsBehind: this.#lastSyncMs === null ? null : Math.max(0, Math.round((nowMs - this.#lastSyncMs) / 1000)),
      primaryReachable: this.#reachable,
      frameNo: this.#frameNo,
      lastError: this.#reachable ? null : this.#lastError,
    };
  }

  /** The 503 every mutation answers while the primary cannot be reached. */
  pausedError(): AppError {
    return changesPausedError(this.status().lastSyncAt);
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#client?.close();
    this.#client = null;
  }
}

/** The message staff read while changes cannot reach headquarters (API, banner and tests share it). */
export function changesPausedMessage(lastSyncAt: string | null): string {
  const asOf = lastSyncAt === null ? "an unknown time" : `${lastSyncAt.slice(0, 19).replace("T", " ")} UTC`;
  return `Changes are paused: headquarters cannot be reached. Figures shown are as of ${asOf}.`;
}

export function changesPausedError(lastSyncAt: string | null): AppError {
  return new AppError("unavailable", changesPausedMessage(lastSyncAt), {
    extra: { reason: "primary_unreachable", asOf: lastSyncAt },
  });
}

/**
 * Whether an error means the primary (or headquarters) could not be reached, as opposed to a
 * statement it refused: the request may be retried once it is back.
 */
export function isUnreachableError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { name, message, code } = current as { name?: string; message?: string; code?: string };
    if (name === "TypeError" && /fetch|network|connect/i.test(message ?? "")) return true;
    if (/^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|HRANA_WEBSOCKET_ERROR|HRANA_CLOSED_ERROR|SERVER_ERROR)$/.test(code ?? "")) {
      return true;
    }
    if (/error sending request|connection refused|connection reset|did not answer within|tcp connect error|broken pipe|stream closed|client error \(Connect\)/i.test(message ?? "")) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
