/**
 * Slows down repeated wrong passwords, per user name, for every password
 * mechanism (basic users and LDAP each keep one).
 *
 * After three failures in a row each further attempt must wait, doubling from
 * one second up to fifteen minutes; a success clears the count. Attempts for one
 * name run one at a time, so a burst of parallel guesses cannot all pass the
 * check before the first failure is counted. The counts live in memory (a
 * restart forgets them) and at most `capacity` names are remembered, the least
 * recently failed forgotten first, so that guessing many names cannot exhaust
 * memory.
 */
import { AuthenticationError, ThrottledError } from '../errors.js';
import type { Clock } from '../util/clock.js';
import { LruCache } from '../util/lru.js';

const FREE_FAILURES = 3;
const MAX_DELAY_MS = 15 * 60_000;
const DEFAULT_CAPACITY = 100_000;

interface Failures {
  count: number;
  notBeforeMs: number;
}

export class LoginThrottle {
  readonly #failures: LruCache<string, Failures>;
  /** The tail of each name's queue of attempts. */
  readonly #running = new Map<string, Promise<unknown>>();

  constructor(
    private readonly clock: Clock,
    capacity = DEFAULT_CAPACITY,
  ) {
    this.#failures = new LruCache(capacity, false);
  }

  /**
   * Runs `check` for `name` after the attempts for that name before it. Refuses
   * with ThrottledError (without calling `check`) while the name must wait. An
   * AuthenticationError from `check` counts as a failure; a result clears the
   * count; any other error (the directory is down, say) leaves it as it was,
   * since it says nothing about the password.
   */
  attempt<T>(name: string, check: () => Promise<T>): Promise<T> {
    const previous = this.#running.get(name) ?? Promise.resolve();
    const run = previous.then(
      () => this.#attemptNow(name, check),
      () => this.#attemptNow(name, check),
    );
    this.#running.set(name, run);
    const forget = () => {
      if (this.#running.get(name) === run) this.#running.delete(name);
    };
    run.then(forget, forget);
    return run;
  }

  /** Forgets the failures of `name`, e.g. when its password is changed. */
  clear(name: string): void {
    this.#failures.delete(name);
  }

  async #attemptNow<T>(name: string, check: () => Promise<T>): Promise<T> {
    const failures = this.#failures.get(name);
    const waitMs = failures ? failures.notBeforeMs - this.clock.nowMs() : 0;
    if (waitMs > 0) {
      throw new ThrottledError(`too many failed logins for "${name}"; try again in ${Math.ceil(waitMs / 1000)} s`, waitMs);
    }
    try {
      const result = await check();
      this.#failures.delete(name);
      return result;
    } catch (err) {
      if (err instanceof AuthenticationError) {
        const count = (failures?.count ?? 0) + 1;
        const delay = count < FREE_FAILURES ? 0 : Math.min(1000 * 2 ** (count - FREE_FAILURES), MAX_DELAY_MS);
        this.#failures.set(name, { count, notBeforeMs: this.clock.nowMs() + delay });
      }
      throw err;
    }
  }
}
