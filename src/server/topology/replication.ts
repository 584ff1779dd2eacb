/**
 * topology/ owns the replicated topology: this module (the replica's sync), its worker, the
 * regional node's forwarding to headquarters (forwarding.ts) and where each route runs (placement.ts).
 *
 * The embedded replica of the primary (sqld), for the headquarters and regional roles
 * (docs/deployment.md): one libSQL connection with `syncUrl`, on a thread of its own
 * (replication_worker.ts), only pulls the primary's frames into the local file, on a timer and on
 * demand. Every other connection of the process opens that file as a plain database and reads it;
 * nothing writes it but the sync.
 *
 * The primary may be unreachable at start and at any time after: the replica then keeps serving
 * its last copy, and `status()` says since when and whether the primary answers.
 */
import { AppError } from "../http/errors.ts";
import type { HistoryVerdict } from "./history.ts";

/** A sync that has not answered by then counts as failed (libSQL itself gives up after about 3 s). */
export const SYNC_TIMEOUT_MS = 10_000;
/**
 * Failed syncs mark the primary unreachable only once they have lasted this long: sqld's log
 * compaction holds syncs back for 4-7 s (measured at 200 MB of log), which is not an outage.
 * Changes do not wait for this: each one answers within its own deadline (deadline.ts).
 */
export const PRIMARY_UNREACHABLE_AFTER_MS = 10_000;
/** How long close() waits for the sync thread to close its connection. */
const CLOSE_TIMEOUT_MS = 5_000;

export type ReplicaRequest =
  | { type: "open"; path: string; syncUrl: string; authToken: string }
  | { type: "sync"; id: number }
  | { type: "close" };

export type ReplicaReply =
  | { type: "synced"; id: number; frameNo: number | null }
  | { type: "failed"; id: number; message: string }
  | { type: "closed" };

export interface ReplicaStatus {
  /** While the node rebuilds its replica after the primary was restored: reads and changes answer 503. */
  resynchronising: boolean;
  /** The last divergence this node found since it started, and when; null if none. */
  lastDivergence: { reason: string; detectedAt: string } | null;
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
  /** Asked before every sync: whether the primary still holds this replica's history. */
  verify: () => Promise<HistoryVerdict>;
  /** Called once per divergence found; the node sets the file aside and rebuilds (replicated.ts). */
  onDiverged: (reason: string) => void;
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
  readonly #worker: Worker;
  readonly #waiting = new Map<
    number,
    { resolve: (frameNo: number | null) => void; reject: (error: Error) => void }
  >();
  #nextId = 1;
  #onClosed: (() => void) | null = null;
  #lastSyncMs: number | null = null;
  #frameNo: number | null = null;
  #reachable = false;
  /** When the current run of failed syncs began; null while syncs succeed. */
  #failingSinceMs: number | null = null;
  #lastError: string | null = null;
  #resynchronising = false;
  #lastDivergence: { reason: string; detectedAt: string } | null = null;
  #running: Promise<void> | null = null;
  /** A sync that will start once the running one ends, shared by every caller until then. */
  #next: Promise<void> | null = null;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(options: SyncOptions) {
    this.#options = options;
    this.#worker = new Worker(new URL("./replication_worker.ts", import.meta.url).href, { type: "module" });
    this.#worker.onmessage = (event: MessageEvent<ReplicaReply>) => this.#onReply(event.data);
    this.#worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#fail(new Error(`the replica's sync thread failed: ${event.message}`));
    };
    const request: ReplicaRequest = {
      type: "open",
      path: options.url.slice("file:".length),
      syncUrl: options.syncUrl,
      authToken: options.authToken,
    };
    this.#worker.postMessage(request);
  }

  #onReply(message: ReplicaReply): void {
    if (message.type === "closed") {
      this.#onClosed?.();
      return;
    }
    const waiting = this.#waiting.get(message.id);
    if (waiting === undefined) return;
    this.#waiting.delete(message.id);
    if (message.type === "synced") waiting.resolve(message.frameNo);
    else waiting.reject(new Error(message.message));
  }

  #fail(error: Error): void {
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }

  /** One sync on the thread; a late answer to a sync that timed out is dropped. */
  #syncOnThread(): Promise<number | null> {
    const id = this.#nextId++;
    const answered = new Promise<number | null>((resolve, reject) =>
      this.#waiting.set(id, { resolve, reject })
    );
    const request: ReplicaRequest = { type: "sync", id };
    this.#worker.postMessage(request);
    return withTimeout(answered, SYNC_TIMEOUT_MS, "the primary").finally(() => this.#waiting.delete(id));
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
    if (this.#resynchronising) throw resynchronisingError();
    try {
      const verdict = await this.#options.verify();
      if (verdict.diverged) throw this.#diverged(verdict.reason);
      this.#synced(await this.#syncOnThread());
    } catch (error) {
      if (this.#resynchronising) throw error;
      this.#failingSinceMs ??= Date.now();
      this.#lastError = error instanceof Error ? error.message : String(error);
      if (Date.now() - this.#failingSinceMs >= PRIMARY_UNREACHABLE_AFTER_MS) this.#reachable = false;
      throw error;
    }
  }

  #diverged(reason: string): AppError {
    this.#resynchronising = true;
    this.#lastDivergence = { reason, detectedAt: new Date().toISOString() };
    this.#options.onDiverged(reason);
    return resynchronisingError();
  }

  /**
   * Closes the sync thread's connection to the replica file, so that the file can be set aside; the
   * next sync opens a new one (on a new file, from the primary's snapshot).
   */
  async releaseFile(): Promise<void> {
    const closed = new Promise<void>((resolve) => (this.#onClosed = resolve));
    this.#worker.postMessage({ type: "close" } satisfies ReplicaRequest);
    await withTimeout(closed, CLOSE_TIMEOUT_MS, "the sync thread");
    this.#frameNo = null;
  }

  #synced(frameNo: number | null): void {
    this.#lastSyncMs = Date.now();
    if (frameNo !== null) this.#frameNo = frameNo;
    this.#reachable = true;
    this.#failingSinceMs = null;
    this.#lastError = null;
  }

  /**
   * One sync of a rebuilt replica, before the node serves it again: no history to compare yet. (A
   * primary restored with a new replication log needs no more: libSQL re-copies a replica whose log
   * id the primary no longer has by itself, and reports no error.)
   */
  async rebuild(): Promise<void> {
    this.#synced(await this.#syncOnThread());
  }

  /**
   * A write could not reach the primary: changes are paused from now, whatever the syncs say,
   * until a sync succeeds again.
   */
  writeFailed(): void {
    this.#failingSinceMs ??= Date.now();
    this.#reachable = false;
  }

  /** The rebuilt replica serves again. */
  resumed(): void {
    this.#resynchronising = false;
  }

  get resynchronising(): boolean {
    return this.#resynchronising;
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
      resynchronising: this.#resynchronising,
      lastDivergence: this.#lastDivergence,
      lastSyncAt: this.#lastSyncMs === null ? null : new Date(this.#lastSyncMs).toISOString(),
      secondsBehind: this.#lastSyncMs === null
        ? null
        : Math.max(0, Math.round((nowMs - this.#lastSyncMs) / 1000)),
      primaryReachable: this.#reachable,
      frameNo: this.#frameNo,
      lastError: this.#reachable ? null : this.#lastError,
    };
  }

  /** The 503 every mutation answers while the primary cannot be reached. */
  pausedError(): AppError {
    return changesPausedError(this.status().lastSyncAt);
  }

  /** Closes the sync thread's connection and ends the thread. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    const closed = new Promise<void>((resolve) => (this.#onClosed = resolve));
    this.#worker.postMessage({ type: "close" } satisfies ReplicaRequest);
    await withTimeout(closed, CLOSE_TIMEOUT_MS, "the sync thread").catch(() => {});
    this.#fail(new Error("the replica is closed"));
    this.#worker.terminate();
  }
}

export const RESYNCHRONISING_MESSAGE =
  "This node is re-synchronising after a primary restore: it serves again once its copy is rebuilt.";

/** Every read and change of a node rebuilding its replica answers this. */
export function resynchronisingError(): AppError {
  return new AppError("unavailable", RESYNCHRONISING_MESSAGE, { extra: { reason: "resynchronising" } });
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
    // A request to the primary aborted at its deadline (db/bounded_writes.ts).
    if (name === "TimeoutError" || name === "AbortError") return true;
    if (
      /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|HRANA_WEBSOCKET_ERROR|HRANA_CLOSED_ERROR|SERVER_ERROR)$/
        .test(code ?? "")
    ) {
      return true;
    }
    if (
      /error sending request|connection refused|connection reset|did not answer within|tcp connect error|broken pipe|stream closed|client error \(Connect\)/i
        .test(message ?? "")
    ) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** An error the database gave for a statement (a constraint, a syntax error): the primary answered. */
export function isStatementError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message } = current as { code?: string; message?: string };
    if (/^SQLITE_|^SQL_/.test(code ?? "") || /constraint failed|SQLITE_/.test(message ?? "")) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
