/**
 * Caches that are never staler than the database, for the per-request hot path.
 *
 * Every query that opens a read transaction costs more than the rest of a request (WAL read locks
 * are system calls; docs/bench.md). So the hot lookups (the session behind a cookie, a routing code)
 * answer from memory, and the change epochs (db/migrations/0003_change_epochs.sql) tell when memory
 * is out of date: triggers bump a topic's epoch on every change to its rows, whichever process makes
 * it. `fresh()` resolves to the epochs as read by a statement that began after the call, so an
 * entry stored at the epoch that is still current is exactly what a read of its rows would return
 * now: a sign-out, revocation or disabled user in any process applies to the very next request.
 * The read waits for the next turn of the event loop (setImmediate: a zero setTimeout is clamped to
 * milliseconds), and every request that arrives before then shares it.
 */
import { setImmediate } from "node:timers";
import { BoundedMap } from "../bounded_map.ts";
import { replicaGeneration } from "./replica_generation.ts";
import type { Statements } from "./statements.ts";

/** Epochs of a rebuilt replica are offset by this per rebuild, so that no cached epoch matches them. */
const GENERATION_STRIDE = 2 ** 40;

export const EPOCH_TOPICS = ["auth", "routing_codes", "institutions", "settings", "registry"] as const;
export type EpochTopic = typeof EPOCH_TOPICS[number];
export type Epochs = Readonly<Record<EpochTopic, number>>;

const READ_EPOCHS_SQL = "SELECT topic, epoch FROM change_epochs";

export class ChangeEpochs {
  readonly #statements: Statements;
  #next: Promise<Epochs> | null = null;

  constructor(statements: Statements) {
    this.#statements = statements;
  }

  /** The epochs, read after this call was made; the callers of one event-loop turn share a read. */
  fresh(): Promise<Epochs> {
    this.#next ??= new Promise<Epochs>((resolve, reject) => {
      setImmediate(() => {
        // Cleared before reading: a caller that comes during an asynchronous read gets a later one.
        this.#next = null;
        this.#read().then(resolve, reject);
      });
    });
    return this.#next;
  }

  async #read(): Promise<Epochs> {
    const rows = await this.#statements.all<{ topic: string; epoch: number }>(READ_EPOCHS_SQL, []);
    const epochs = {} as Record<EpochTopic, number>;
    for (const topic of EPOCH_TOPICS) {
      const row = rows.find((candidate) => candidate.topic === topic);
      if (row === undefined) throw new Error(`change_epochs has no row for topic "${topic}"`);
      epochs[topic] = row.epoch + replicaGeneration() * GENERATION_STRIDE;
    }
    return epochs;
  }
}

/**
 * Values read at a known epoch: of a change_epochs topic, or of another counter that triggers bump
 * (institutions_search_version). An entry counts only while its epoch is the current one; store a
 * value with the epoch read *before* the value itself, so a change in between makes the entry look
 * stale (one extra read), never fresh. Past `maxEntries` the oldest entry goes.
 */
export class EpochCache<K, V> {
  readonly #entries: BoundedMap<K, { value: V; epoch: number }>;

  constructor(maxEntries: number) {
    this.#entries = new BoundedMap(maxEntries);
  }

  get(key: K, currentEpoch: number): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.epoch === currentEpoch) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: K, value: V, epoch: number): void {
    this.#entries.set(key, { value, epoch });
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
