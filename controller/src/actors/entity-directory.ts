/**
 * Where an entity kind (jobs, packages) is found: its live actors, a read cache
 * of records, and the store, in that order.
 *
 * Coherence: the store is written only by this kind's actors, in this process,
 * and every service method that changes a record tells the directory
 * (`remember`, `forget`) once the actor has persisted it. So a cached record is
 * never older than the store's. Reads never activate an actor.
 */
import type { Deps } from '../context.js';
import type { Actor } from './actor.js';
import { ActorRegistry } from './actor-registry.js';
import { getJson } from '../store/store.js';
import { LruCache } from '../util/lru.js';

export interface EntityDirectoryOptions<R, A extends Actor> {
  kind: string;
  /** The store key of a record. */
  key: (id: string) => string;
  /** An actor owning `record`. */
  makeActor: (record: R) => A;
  /** The record an actor holds now. */
  recordOf: (actor: A) => R;
  actorIdleMs: number;
  cacheSize: number;
  onActivate?: () => void;
  onPassivate?: () => void;
}

export class EntityDirectory<R, A extends Actor> {
  readonly actors: ActorRegistry<A>;
  readonly #cache: LruCache<string, R>;

  constructor(
    private readonly deps: Deps,
    private readonly o: EntityDirectoryOptions<R, A>,
  ) {
    this.#cache = new LruCache(o.cacheSize);
    this.actors = new ActorRegistry<A>({
      kind: o.kind,
      clock: deps.clock,
      log: deps.log,
      idleMs: o.actorIdleMs,
      // As many idle actors as cached records: past that, an idle actor's record is as well off in the cache.
      idleLimit: o.cacheSize,
      load: async (id) => {
        const record = this.#cache.get(id) ?? (await getJson<R>(deps.store, o.key(id)));
        return record === undefined ? undefined : o.makeActor(record);
      },
      ...(o.onActivate ? { onActivate: o.onActivate } : {}),
      ...(o.onPassivate ? { onPassivate: o.onPassivate } : {}),
    });
  }

  /** The record held in memory (live actor, then cache), without touching the store. */
  known(id: string): R | undefined {
    const actor = this.actors.peek(id);
    return actor ? this.o.recordOf(actor) : this.#cache.get(id);
  }

  /** The current record, or undefined when the entity does not exist. */
  async find(id: string): Promise<R | undefined> {
    const known = this.known(id);
    if (known !== undefined) return known;
    const stored = await getJson<R>(this.deps.store, this.o.key(id));
    if (stored !== undefined) this.#cache.set(id, stored);
    return stored;
  }

  /** The current records of `ids` that exist, in the order given, without duplicates. */
  async findMany(ids: readonly string[]): Promise<R[]> {
    const unique = [...new Set(ids)];
    const known = unique.map((id) => this.known(id));
    const missing = unique.filter((_, i) => known[i] === undefined);
    const raw = await this.deps.store.getMany(missing.map((id) => this.o.key(id)));
    const loaded = new Map<string, R>();
    missing.forEach((id, i) => {
      if (raw[i] !== undefined) loaded.set(id, JSON.parse(raw[i]!) as R);
    });
    return unique.map((id, i) => known[i] ?? loaded.get(id)).filter((r): r is R => r !== undefined);
  }

  /** Records a change that an actor has persisted. */
  remember(id: string, record: R): void {
    this.#cache.set(id, record);
  }

  /** Records a deletion that an actor has persisted. */
  forget(id: string): void {
    this.actors.remove(id);
    this.#cache.delete(id);
  }
}
