/**
 * Slows down repeated wrong passwords, per user name and per source address,
 * for every password mechanism (basic users and LDAP each keep one).
 *
 * Per name: after three failures in a row each further attempt must wait,
 * doubling from one second up to fifteen minutes; a success clears the count.
 * Attempts for one name run one at a time, so a burst of parallel guesses
 * cannot all pass the check before the first failure is counted.
 *
 * Per source (the client's address; IPv6 by its /64, which one host usually
 * holds whole): the same doubling waits after SOURCE_FREE_FAILURES failures,
 * whatever names they tried, so spraying one password over many names is slowed
 * too. Every attempt is counted when it starts and uncounted when it turns out
 * not to be a wrong password, so a parallel burst over many names cannot pass
 * the check together either. A success does not clear a source's count (one
 * valid account would otherwise reset a spray); a source's count is forgotten
 * after SOURCE_FORGET_MS without failures. While a source must wait, every
 * attempt from it is refused without checking the password, right or wrong.
 *
 * The counts live in memory (a restart forgets them) and at most `capacity`
 * names and as many sources are remembered, the least recently failed
 * forgotten first, so that guessing many names cannot exhaust memory.
 */
import { AuthenticationError, ThrottledError } from '../errors.js';
import type { Clock } from '../util/clock.js';
import { LruCache } from '../util/lru.js';

const FREE_FAILURES = 3;
const MAX_DELAY_MS = 15 * 60_000;
const DEFAULT_CAPACITY = 100_000;
/** Failures from one source before its attempts must wait (a shared address holds many users). */
export const SOURCE_FREE_FAILURES = 30;
/** A source without failures for this long starts again from zero; above MAX_DELAY_MS, so waiting out the longest delay does not reset it. */
const SOURCE_FORGET_MS = 60 * 60_000;

interface Failures {
  count: number;
  notBeforeMs: number;
}

interface SourceFailures {
  /** Wrong passwords, plus attempts still being checked. */
  count: number;
  /** When the last attempt was counted. */
  lastMs: number;
}

/** The wait after `count` failures when `free` of them are free: doubling from one second, at most MAX_DELAY_MS. */
function delayAfter(count: number, free: number): number {
  return count < free ? 0 : Math.min(1000 * 2 ** (count - free), MAX_DELAY_MS);
}

/**
 * The key a source address is counted under: IPv4 (also IPv4-mapped IPv6) as
 * it is, IPv6 by its first 64 bits.
 */
export function sourceKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => Number.parseInt(g, 16).toString(16)).join(':')}::/64`;
}

export class LoginThrottle {
  readonly #failures: LruCache<string, Failures>;
  readonly #sources: LruCache<string, SourceFailures>;
  /** The tail of each name's queue of attempts. */
  readonly #running = new Map<string, Promise<unknown>>();

  constructor(
    private readonly clock: Clock,
    capacity = DEFAULT_CAPACITY,
  ) {
    this.#failures = new LruCache(capacity, false);
    this.#sources = new LruCache(capacity, false);
  }

  /**
   * Runs `check` for `name` from `source` (the client's address; absent: not
   * counted per source) after the attempts for that name before it. Refuses
   * with ThrottledError (without calling `check`) while the name or the source
   * must wait. An AuthenticationError from `check` counts as a failure of both;
   * a result clears the name's count; any other error (the directory is down,
   * say) leaves both as they were, since it says nothing about the password.
   */
  attempt<T>(name: string, check: () => Promise<T>, source?: string): Promise<T> {
    const previous = this.#running.get(name) ?? Promise.resolve();
    const key = source === undefined ? undefined : sourceKey(source);
    const run = previous.then(
      () => this.#attemptNow(name, check, key),
      () => this.#attemptNow(name, check, key),
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

  async #attemptNow<T>(name: string, check: () => Promise<T>, source: string | undefined): Promise<T> {
    const now = this.clock.nowMs();
    const failures = this.#failures.get(name);
    const waitMs = failures ? failures.notBeforeMs - now : 0;
    if (waitMs > 0) {
      throw new ThrottledError(`too many failed logins for "${name}"; try again in ${Math.ceil(waitMs / 1000)} s`, waitMs);
    }
    const uncount = source === undefined ? undefined : this.#countSource(source, now);
    try {
      const result = await check();
      this.#failures.delete(name);
      uncount?.();
      return result;
    } catch (err) {
      if (err instanceof AuthenticationError) {
        const count = (failures?.count ?? 0) + 1;
        this.#failures.set(name, { count, notBeforeMs: this.clock.nowMs() + delayAfter(count, FREE_FAILURES) });
      } else uncount?.();
      throw err;
    }
  }

  /**
   * Counts an attempt from `source` before it is checked, or refuses it while
   * the source must wait. Answers how to take the attempt back when it was not
   * a wrong password.
   */
  #countSource(source: string, now: number): () => void {
    let entry = this.#sources.get(source);
    if (entry && now - entry.lastMs > SOURCE_FORGET_MS) entry = undefined;
    if (entry) {
      const waitMs = entry.lastMs + delayAfter(entry.count, SOURCE_FREE_FAILURES) - now;
      if (waitMs > 0) throw new ThrottledError(`too many failed logins from this address; try again in ${Math.ceil(waitMs / 1000)} s`, waitMs);
    }
    // One object per source while it is remembered, so that uncounting an attempt finds it.
    const counted = entry ?? { count: 0, lastMs: now };
    const previousMs = counted.lastMs;
    counted.count++;
    counted.lastMs = now;
    this.#sources.set(source, counted);
    return () => {
      counted.count--;
      // Unless another attempt was counted since, the wait runs from the failure before this one again.
      if (counted.lastMs === now) counted.lastMs = previousMs;
    };
  }
}
