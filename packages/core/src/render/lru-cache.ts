/**
 * A map that forgets its least recently used entries once their total size passes a budget.
 * Pure (no timers, no platform API), so the same caches work in Node and in the browser.
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, { value: V; size: number }>();
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
    // Map keeps insertion order: re-inserting makes this entry the most recently used.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const size = this.#sizeOf(key, value);
    if (size > this.#maxSize) return;
    this.#entries.set(key, { value, size });
    this.#totalSize += size;
    for (const [oldestKey] of this.#entries) {
      if (this.#totalSize <= this.#maxSize) break;
      this.delete(oldestKey);
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
