/**
 * A bounded map that forgets the least recently used entry first. Used as a read
 * cache in front of the store; coherent because every write to an entity goes
 * through the service that owns the cache, in this one process.
 */
export class LruCache<K, V> {
  readonly #map = new Map<K, V>();

  /**
   * With `touchOnGet` false, a hit does not renew the entry and eviction is by
   * insertion order: cheaper, for caches whose entries expire anyway.
   */
  constructor(
    readonly capacity: number,
    private readonly touchOnGet = true,
  ) {}

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value !== undefined && this.touchOnGet) {
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.capacity) {
      const oldest = this.#map.keys().next();
      if (!oldest.done) this.#map.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.#map.delete(key);
  }
}
