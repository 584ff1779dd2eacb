/**
 * The main thread's handle on the request log's writer thread (request_log_worker.ts). One batch
 * is in flight at a time (RequestLog chains its flushes); each resolves when its transaction has
 * committed in the writer, or rejects with the writer's error. If the thread itself fails, every
 * pending and later write rejects, and RequestLog writes on its own connection from then on.
 */
import type { CapturedRequest } from "./request_log_rows.ts";

export type WriterRequest =
  | { type: "open"; url: string }
  /** `entries` is the batch as JSON text: copying one string to the thread costs a fraction of
   * structured-cloning hundreds of small objects (3.8 µs against 0.6 µs per entry, measured). */
  | { type: "write"; id: number; entries: string }
  | { type: "close" };

export type WriterReply =
  | { type: "written"; id: number }
  | { type: "failed"; id: number; message: string }
  | { type: "closed" };

/** How long stop() waits for the writer to close its connection before ending the thread anyway. */
export const WRITER_CLOSE_TIMEOUT_MS = 5_000;

interface Pending {
  resolve: () => void;
  reject: (error: Error) => void;
}

/** The batch could not be handed to the thread; the caller writes it itself. */
export class UncopyableBatchError extends Error {
  constructor(cause: unknown) {
    super(`api_logs: batch not copyable to the writer thread: ${cause}`, { cause });
  }
}

export class LogWriterThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #broken: Error | null = null;
  #closed: (() => void) | null = null;

  constructor(url: string) {
    this.#worker = new Worker(new URL("./request_log_worker.ts", import.meta.url).href, { type: "module" });
    this.#worker.onmessage = (event: MessageEvent<WriterReply>) => this.#onReply(event.data);
    this.#worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#fail(new Error(`api_logs writer thread failed: ${event.message}`));
    };
    this.#post({ type: "open", url });
  }

  get broken(): boolean {
    return this.#broken !== null;
  }

  write(entries: CapturedRequest[]): Promise<void> {
    if (this.#broken) return Promise.reject(this.#broken);
    const id = this.#nextId++;
    return new Promise<void>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      try {
        this.#post({ type: "write", id, entries: JSON.stringify(entries) });
      } catch (error) {
        // A value JSON cannot carry (a BigInt, a cycle) fails this batch only.
        this.#pending.delete(id);
        reject(new UncopyableBatchError(error));
      }
    });
  }

  /** Closes the writer's connection and ends the thread; pending writes have settled before. */
  async close(): Promise<void> {
    if (!this.#broken) {
      const closed = new Promise<void>((resolve) => (this.#closed = resolve));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, WRITER_CLOSE_TIMEOUT_MS)));
      this.#post({ type: "close" });
      await Promise.race([closed, timeout]);
      clearTimeout(timer);
    }
    this.#worker.terminate();
    this.#fail(new Error("api_logs writer thread closed"));
  }

  #post(message: WriterRequest): void {
    this.#worker.postMessage(message);
  }

  #onReply(message: WriterReply): void {
    if (message.type === "closed") {
      this.#closed?.();
      return;
    }
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    this.#pending.delete(message.id);
    if (message.type === "written") pending.resolve();
    else pending.reject(new Error(message.message));
  }

  #fail(error: Error): void {
    this.#broken ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
