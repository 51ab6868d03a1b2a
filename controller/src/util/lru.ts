/**
 * A bounded map that forgets the least recently used entry first. Used as a read
 * cache in front of the store; coherent because every write to an entity goes
 * through the service that owns the cache, in this one process.
 *
 * A hit renews an entry by moving it to the young end of the map, but only when
 * it has aged past half the capacity since it was last placed there: a hot entry
 * read on every request is then moved once per `capacity / 2` insertions instead
 * of on every read (the move, a delete and an insert in the map, was most of a
 * cache hit's cost), and an entry read again before that is still among the
 * younger half, so it is never the one forgotten.
 */
interface Entry<V> {
  value: V;
  /** The insertion count when the entry was last placed at the young end. */
  placed: number;
}

export class LruCache<K, V> {
  readonly #map = new Map<K, Entry<V>>();
  /** Entries placed at the young end so far (inserts and renewals). */
  #placements = 0;

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
    const entry = this.#map.get(key);
    if (entry === undefined) return undefined;
    if (this.touchOnGet && this.#placements - entry.placed > this.capacity / 2) {
      this.#map.delete(key);
      entry.placed = this.#placements++;
      this.#map.set(key, entry);
    }
    return entry.value;
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, { value, placed: this.#placements++ });
    if (this.#map.size > this.capacity) {
      const oldest = this.#map.keys().next();
      if (!oldest.done) this.#map.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.#map.delete(key);
  }
}
