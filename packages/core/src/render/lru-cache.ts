/**
 * A map that forgets its least recently used entries once their total size passes a budget.
 * Pure (no timers, no platform API), so the same caches work in Node and in the browser.
 *
 * Recency is kept the "second chance" way: a read only marks its entry as used, and eviction,
 * going from the oldest entry, gives a marked entry another round (unmarked, moved to the newest
 * end) instead of forgetting it. Reads stay as cheap as a `Map` lookup, which matters for the
 * caches read many times per render.
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, { value: V; size: number; used: boolean }>();
  readonly #maxSize: number;
  readonly #sizeOf: (key: K, value: V) => number;
  #totalSize = 0;

  /** `sizeOf` measures an entry against `maxSize`; by default every entry counts 1. */
  constructor(maxSize: number, sizeOf: (key: K, value: V) => number = () => 1) {
    this.#maxSize = maxSize;
    this.#sizeOf = sizeOf;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    entry.used = true;
    return entry.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const size = this.#sizeOf(key, value);
    if (size > this.#maxSize) return;
    this.#entries.set(key, { value, size, used: false });
    this.#totalSize += size;
    // Map keeps insertion order: the first entries are the oldest. An entry given a second chance
    // is re-inserted, so the loop reaches it again after the others.
    for (const [oldestKey, entry] of this.#entries) {
      if (this.#totalSize <= this.#maxSize) break;
      if (entry.used && oldestKey !== key) {
        entry.used = false;
        this.#entries.delete(oldestKey);
        this.#entries.set(oldestKey, entry);
      } else {
        this.delete(oldestKey);
      }
    }
  }

  delete(key: K): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#totalSize -= entry.size;
  }

  clear(): void {
    this.#entries.clear();
    this.#totalSize = 0;
  }
}
