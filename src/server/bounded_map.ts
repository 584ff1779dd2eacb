/**
 * The in-memory caches' one eviction rule: a Map that holds at most `maxEntries`. Setting a key
 * makes it the newest; setting a new key when full forgets the oldest one first.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    super();
    this.#maxEntries = maxEntries;
  }

  override set(key: K, value: V): this {
    this.delete(key);
    if (this.size >= this.#maxEntries) this.delete(this.keys().next().value!);
    return super.set(key, value);
  }
}
