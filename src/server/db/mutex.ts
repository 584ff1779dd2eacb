/**
 * A FIFO async mutex. libSQL's native calls are synchronous, so two write transactions on one
 * process must never interleave: the second BEGIN IMMEDIATE would block the event loop on a lock
 * that only the first (now frozen) transaction could release.
 */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  async run<T>(fn: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const previous = this.#tail;
    this.#tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
