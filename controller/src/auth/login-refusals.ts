/**
 * The audit records of refused logins, aggregated. A refused login costs the
 * caller nothing, so one record (an fsynced write) per refusal would let anyone
 * without a token fill the disk. Instead refusals are counted per mechanism,
 * user name and source address (IPv6 by its /64) per interval:
 *
 *   first refusal of a (name, source) in an interval -> one `auth.deny` record, written at once
 *   further refusals in that interval                -> counted in memory
 *   the interval ends (sweep) or the controller stops -> the same record rewritten with the counts
 *
 * So a name tried from a source costs at most two writes per interval, whatever
 * the rate. One source gets records for at most MAX_NAMES_PER_SOURCE names per
 * interval; refusals of further names from it (a spray, junk names) go into one
 * record for the source, FQN `auth::/`, with a sample of the names. Throttled
 * attempts (429) count like the others, as `throttled`.
 *
 * Counts not yet rewritten are lost if the process is killed; the first refusal
 * of each (name, source) per interval is always on disk before the answer.
 */
import type { AuditItemKey, ChangeContext, Deps } from '../context.js';
import { AUTH_REALM } from '../policy/permissions.js';
import { sourceKey } from './login-throttle.js';

/** Names of one source that get records of their own per interval. */
export const MAX_NAMES_PER_SOURCE = 10;
/** Names kept in a source's aggregate record. */
const NAME_SAMPLE = 10;

export interface LoginRefusalsOptions {
  /** Length of an aggregation interval. Default 60 s. */
  intervalMs?: number;
  /** Open records kept in memory; the oldest is written and dropped beyond it. Default 10,000. */
  capacity?: number;
}

export interface Refusal {
  /** Who the caller claimed to be (the principal of `name`). */
  claimed: ChangeContext;
  name: string;
  /** The client's address. */
  source: string;
  mechanism: string;
  reason: string;
  throttled: boolean;
}

interface Window {
  key: string;
  at: AuditItemKey;
  startMs: number;
  claimed: ChangeContext;
  fqn: string;
  mechanism: string;
  source: string;
  /** Only for a source's aggregate: the names it tried (a sample). */
  names?: string[];
  count: number;
  throttled: number;
  reason: string;
  lastMs: number;
  /** Counts changed since the record was last written. */
  dirty: boolean;
}

export class LoginRefusals {
  readonly #intervalMs: number;
  readonly #capacity: number;
  /** Open windows by key, oldest first. */
  readonly #windows = new Map<string, Window>();
  /** Names with a record of their own, per mechanism and source, in the current interval. */
  readonly #namesOfSource = new Map<string, { startMs: number; names: number }>();
  #timer: NodeJS.Timeout | undefined;
  readonly #writes = new Set<Promise<void>>();

  constructor(
    private readonly deps: Pick<Deps, 'audit' | 'clock' | 'ids' | 'store' | 'log'>,
    options: LoginRefusalsOptions = {},
  ) {
    this.#intervalMs = options.intervalMs ?? 60_000;
    this.#capacity = options.capacity ?? 10_000;
  }

  /** Sweeps once per interval (an unref'd timer). */
  start(): void {
    this.#timer ??= setInterval(() => this.sweep(), this.#intervalMs);
    this.#timer.unref();
  }

  /** Records a refused login. Resolves once a new record is on disk; counting into an open one writes nothing. */
  async refuse(r: Refusal): Promise<void> {
    const now = this.deps.clock.nowMs();
    const source = sourceKey(r.source);
    const perName = `${r.mechanism}\0${source}\0${r.name}`;
    let window = this.#open(perName, now);
    if (!window) {
      const ofSource = `${r.mechanism}\0${source}`;
      let seen = this.#namesOfSource.get(ofSource);
      if (!seen || now - seen.startMs >= this.#intervalMs) {
        seen = { startMs: now, names: 0 };
        this.#namesOfSource.delete(ofSource);
        this.#namesOfSource.set(ofSource, seen);
        // Bounded like the windows: forgetting a source early only lets it have records for a few names more.
        if (this.#namesOfSource.size > this.#capacity) this.#namesOfSource.delete(this.#namesOfSource.keys().next().value!);
      }
      if (seen.names < MAX_NAMES_PER_SOURCE) {
        seen.names++;
        window = this.#newWindow(perName, r, now, `${AUTH_REALM}::${r.name}`);
      } else {
        const aggregate = `${ofSource}\0*`;
        window = this.#open(aggregate, now);
        if (!window) {
          window = this.#newWindow(aggregate, r, now, AUTH_REALM);
          window.names = [];
        }
      }
    }
    if (window.names && window.names.length < NAME_SAMPLE && !window.names.includes(r.name)) {
      window.names.push(r.name);
    }
    window.count++;
    if (r.throttled) window.throttled++;
    window.reason = r.reason;
    window.lastMs = now;
    if (window.count === 1) {
      await this.#write(window);
      return;
    }
    window.dirty = true;
  }

  /** The window under `key` while its interval lasts; an ended one is written (if need be) and dropped. */
  #open(key: string, now: number): Window | undefined {
    const window = this.#windows.get(key);
    if (!window) return undefined;
    if (now - window.startMs < this.#intervalMs) return window;
    this.#close(window);
    return undefined;
  }

  #newWindow(key: string, r: Refusal, now: number, fqn: string): Window {
    const window: Window = {
      key,
      at: { ns: this.deps.clock.nowNs(), uuid: this.deps.ids.uuid() },
      startMs: now,
      claimed: r.claimed,
      fqn,
      mechanism: r.mechanism,
      source: r.source,
      count: 0,
      throttled: 0,
      reason: r.reason,
      lastMs: now,
      dirty: false,
    };
    this.#windows.set(key, window);
    while (this.#windows.size > this.#capacity) {
      const oldest = this.#windows.values().next().value!;
      this.#close(oldest);
    }
    return window;
  }

  #close(window: Window): void {
    this.#windows.delete(window.key);
    if (window.dirty) void this.#write(window).catch(() => undefined);
  }

  #write(window: Window): Promise<void> {
    window.dirty = false;
    const payload = {
      mechanism: window.mechanism,
      reason: window.reason,
      source: window.source,
      count: window.count,
      throttled: window.throttled,
      interval_seconds: this.#intervalMs / 1000,
      last_at: Math.floor(window.lastMs / 1000),
      ...(window.names ? { names: [...window.names] } : {}),
    };
    const write = this.deps.store.batch([this.deps.audit.entry(window.claimed, 'auth.deny', window.fqn, payload, window.at)]);
    const tracked = write.catch((err: unknown) => {
      this.deps.log.warn('login refusal not recorded', { fqn: window.fqn, err: (err as Error).message });
    });
    this.#writes.add(tracked);
    void tracked.finally(() => this.#writes.delete(tracked));
    return write;
  }

  /** Writes the counts of windows whose interval has ended and drops them. */
  sweep(): void {
    const now = this.deps.clock.nowMs();
    for (const window of [...this.#windows.values()]) if (now - window.startMs >= this.#intervalMs) this.#close(window);
    for (const [key, seen] of this.#namesOfSource) if (now - seen.startMs >= this.#intervalMs) this.#namesOfSource.delete(key);
  }

  /** Writes every count not yet written; call before the store closes. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    for (const window of [...this.#windows.values()]) this.#close(window);
    await Promise.all([...this.#writes]);
  }
}
