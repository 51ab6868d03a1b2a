/**
 * Finds the live actor of an entity, activating it from the store on first use
 * and passivating it after it has been idle for `idleMs`, or sooner when more than
 * `idleLimit` actors are live: then the least recently active of those with nothing to do
 * leave at once (tens of thousands of jobs created in a minute each kept an actor, and its
 * job, in memory for that minute).
 *
 * Contract: at most one live actor per id. Activation of one id is shared by
 * concurrent callers. `with(id, fn)` calls `fn` synchronously once the actor is
 * known, so a message posted from `fn` is queued before any passivation sweep
 * can look at the actor; a passivated actor is never handed out again.
 */
import type { Clock } from '../util/clock.js';
import type { Logger } from '@platform/proto/common';
import type { Actor } from './actor.js';

export interface ActorRegistryOptions<A extends Actor> {
  kind: string;
  /** Loads the actor of `id` from the store; undefined when the entity does not exist. */
  load(id: string): Promise<A | undefined>;
  clock: Clock;
  log: Logger;
  /** Idle time after which an actor leaves memory. */
  idleMs: number;
  /**
   * Live actors past which those with nothing to do (not busy) leave memory without waiting for
   * `idleMs`, least recently active first, until a tenth fewer than this are live. Default: none.
   */
  idleLimit?: number;
  onActivate?: () => void;
  onPassivate?: () => void;
}

export class ActorRegistry<A extends Actor> {
  readonly #live = new Map<string, A>();
  readonly #activating = new Map<string, Promise<A | undefined>>();
  #sweeper: NodeJS.Timeout | undefined;
  #stopped = false;
  /** A trim to `idleLimit` is due (it runs once the current turn of the event loop is done). */
  #trimDue = false;

  constructor(private readonly options: ActorRegistryOptions<A>) {}

  get kind(): string {
    return this.options.kind;
  }

  /** Starts the periodic passivation sweep. */
  start(): void {
    const every = Math.max(50, Math.min(this.options.idleMs, 30_000) / 2);
    this.#sweeper = setInterval(() => this.passivateIdle(), every);
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#live.size;
  }

  /** The sum of the mailbox depths of every live actor. */
  get mailboxDepth(): number {
    let depth = 0;
    for (const actor of this.#live.values()) depth += actor.mailboxDepth;
    return depth;
  }

  /** The actors in memory now, without activating any. */
  live(): IterableIterator<A> {
    return this.#live.values();
  }

  /** The live actor of `id`, without activating it. */
  peek(id: string): A | undefined {
    return this.#live.get(id);
  }

  /**
   * The live actor of `id`, marked active as `get` marks it, without activating one: a caller
   * that finds it posts at once, without the promise of `get` (agents' reports, thousands a
   * second, each made several).
   */
  touch(id: string): A | undefined {
    if (this.#stopped) return undefined;
    const live = this.#live.get(id);
    if (live) live.lastActiveMs = this.options.clock.nowMs();
    return live;
  }

  /** The actor of `id`, activated if needed; undefined when the entity does not exist. */
  async get(id: string): Promise<A | undefined> {
    if (this.#stopped) throw new Error(`${this.options.kind} registry is stopped`);
    const live = this.#live.get(id);
    if (live) {
      live.lastActiveMs = this.options.clock.nowMs();
      return live;
    }
    let pending = this.#activating.get(id);
    if (!pending) {
      pending = this.options.load(id).then(
        (actor) => {
          this.#activating.delete(id);
          if (actor && !this.#stopped) {
            this.#live.set(id, actor);
            this.options.onActivate?.();
            this.#checkLimit();
          }
          return actor;
        },
        (err: unknown) => {
          this.#activating.delete(id);
          throw err;
        },
      );
      this.#activating.set(id, pending);
    }
    const actor = await pending;
    if (actor) actor.lastActiveMs = this.options.clock.nowMs();
    return actor;
  }

  /** Runs `fn` with the actor of `id`; undefined when the entity does not exist. */
  async with<T>(id: string, fn: (actor: A) => Promise<T>): Promise<T | undefined> {
    const actor = await this.get(id);
    return actor ? fn(actor) : undefined;
  }

  /** Registers an actor made for a newly created entity. */
  add(actor: A): void {
    if (this.#live.has(actor.id)) throw new Error(`${this.options.kind} actor ${actor.id} is live already`);
    actor.lastActiveMs = this.options.clock.nowMs();
    this.#live.set(actor.id, actor);
    this.options.onActivate?.();
    this.#checkLimit();
  }

  #checkLimit(): void {
    const limit = this.options.idleLimit;
    if (limit === undefined || this.#live.size <= limit || this.#trimDue) return;
    this.#trimDue = true;
    // Not now: the caller is about to post to the actor it was given (a later turn sees it busy).
    setImmediate(() => {
      this.#trimDue = false;
      if (!this.#stopped) this.trim();
    });
  }

  /**
   * Passivates actors with nothing to do, least recently active first, until a tenth fewer than
   * `idleLimit` are live (or none is left idle). Returns how many left memory.
   */
  trim(): number {
    const limit = this.options.idleLimit;
    if (limit === undefined || this.#live.size <= limit) return 0;
    const target = Math.floor(limit * 0.9);
    const idle = [...this.#live.values()].filter((a) => !a.busy).sort((a, b) => a.lastActiveMs - b.lastActiveMs);
    let count = 0;
    for (const actor of idle) {
      if (this.#live.size <= target) break;
      this.#live.delete(actor.id);
      void actor.stop();
      this.options.onPassivate?.();
      count++;
    }
    if (count > 0) this.options.log.debug('actors passivated', { kind: this.options.kind, count, live: this.#live.size, limit });
    return count;
  }

  /**
   * Passivates the actor of `id` now if it has nothing to do, without waiting for `idleMs` or
   * `idleLimit`: for an entity just written that nothing keeps busy (a job created stopped).
   * Returns whether it left memory.
   */
  release(id: string): boolean {
    const actor = this.#live.get(id);
    if (!actor || actor.busy) return false;
    this.#live.delete(id);
    void actor.stop();
    this.options.onPassivate?.();
    return true;
  }

  /** Drops the actor of a deleted entity. */
  remove(id: string): void {
    this.#live.delete(id);
  }

  /** Passivates every actor idle for `idleMs` or longer. Returns how many left memory. */
  passivateIdle(): number {
    const now = this.options.clock.nowMs();
    let count = 0;
    for (const [id, actor] of this.#live) {
      if (!actor.busy && now - actor.lastActiveMs >= this.options.idleMs) {
        this.#live.delete(id);
        void actor.stop();
        this.options.onPassivate?.();
        count++;
      }
    }
    if (count > 0) this.options.log.debug('actors passivated', { kind: this.options.kind, count, live: this.#live.size });
    return count;
  }

  /** Stops the sweep and every live actor after its queued messages. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#sweeper) clearInterval(this.#sweeper);
    await Promise.allSettled([...this.#activating.values()]);
    await Promise.all([...this.#live.values()].map((a) => a.stop()));
    this.#live.clear();
  }
}
