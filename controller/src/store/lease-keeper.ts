/**
 * The active controller's lease kept alive from a thread of its own.
 *
 * etcd ends a lease that has not been renewed for its TTL (5 s by default), and with it the
 * controller's lead. The etcd client renews it from the main thread (every TTL/3, on a timer,
 * over the connection every store call shares). With 1,000 agents re-attaching after a restart
 * that thread was busy for seconds on end (each poll of the event loop handing out hundreds of
 * agents' messages before the timers ran): the renewal came too late, the lease was gone, and
 * the controller stood down and loaded everything again.
 *
 * So a worker thread with its own etcd connection renews the term's lease every second (or TTL/4
 * when shorter), and once it has, the client's renewals on the main thread stop: the worker is
 * what says the lease is lost (etcd answered that it is gone, or no renewal was answered for
 * twice the TTL). The client's own verdict was not only late but also wrong under load: when calls failed
 * (etcd slow on a host at load 20) it dropped its connection, the renewals' stream with it, and
 * declared the lease lost after twice the TTL without a renewal, while etcd may still have had it.
 *
 * A busy main thread no longer loses the lead. The main thread says it is there every interval;
 * a worker that has not heard of it for twice the TTL stops renewing and says the lease is lost,
 * so that a controller whose main thread is stuck for good still gives up the lead (after at most
 * that plus the TTL). A paused or killed process stops both threads: the lease ends within the
 * TTL as before, and fencing (every write conditioned on the election key) is unchanged.
 */
import { Worker } from 'node:worker_threads';
import type { IOptions } from 'etcd3';
import type { Clock } from '../util/clock.js';

/** How often the lease is renewed: earlier than the client's TTL/3, at most every second. */
export function renewEveryMs(ttlMs: number): number {
  return Math.min(1000, ttlMs / 4);
}

export interface LeaseKeeperOptions {
  clock: Clock;
  ttlMs: number;
  /** One renewal of the lease; resolves with the seconds etcd gives it still (0: it is gone). */
  renew: () => Promise<number>;
  /** How long the lease is renewed without word from the main thread. Default: twice the TTL. */
  silenceMs?: number;
  /**
   * Told of a renewal that failed or was answered later than the interval (etcd busy, its
   * connection made again), for the log: when the lease is lost, these say why.
   */
  attempt?: (a: { ms: number; failed?: string }) => void;
}

/** What the worker does each interval (worker-free, for tests with an injected clock). */
export class LeaseKeeper {
  readonly #o: LeaseKeeperOptions;
  readonly #silenceMs: number;
  #heard: number;
  #renewed: number;
  #renewing = false;
  #ended: string | undefined;
  /** Why the last renewal that failed did (said with the lease's loss). */
  #lastFailure: string | undefined;
  /** Renewals etcd answered. */
  renewed = 0;

  constructor(o: LeaseKeeperOptions) {
    this.#o = o;
    this.#silenceMs = o.silenceMs ?? 2 * o.ttlMs;
    // The lease was granted or renewed just before the keeper starts.
    this.#heard = this.#renewed = o.clock.nowMs();
  }

  /** The main thread is there. */
  heard(): void {
    this.#heard = this.#o.clock.nowMs();
  }

  /** Why the lease is taken for lost (it renews no more); undefined while it is kept. */
  get ended(): string | undefined {
    return this.#ended;
  }

  /**
   * One interval: renews, unless a renewal is still under way or the lease is lost: etcd said
   * it is gone, no renewal has been answered for twice the TTL (etcd has ended it by then unless
   * only its answers were late: the etcd client's own rule), or the main thread has been silent.
   */
  async tick(): Promise<void> {
    if (this.#ended !== undefined) return;
    const now = this.#o.clock.nowMs();
    if (now - this.#renewed >= 2 * this.#o.ttlMs) {
      const last = this.#renewing ? 'a renewal is still unanswered' : this.#lastFailure ? `the last renewal failed: ${this.#lastFailure}` : undefined;
      this.#ended = `etcd has not renewed the lease for ${now - this.#renewed} ms (its TTL is ${this.#o.ttlMs} ms${last ? `; ${last}` : ''})`;
      return;
    }
    if (this.#renewing) return;
    if (now - this.#heard > this.#silenceMs) {
      this.#ended = `the controller's main thread has not answered for ${now - this.#heard} ms`;
      return;
    }
    this.#renewing = true;
    try {
      const ttl = await this.#o.renew();
      const ms = this.#o.clock.nowMs() - now;
      if (ttl <= 0) this.#ended = 'etcd says the lease is gone';
      else {
        this.#renewed = now;
        this.renewed++;
        this.#lastFailure = undefined;
        if (ms > renewEveryMs(this.#o.ttlMs)) this.#o.attempt?.({ ms });
      }
    } catch (err) {
      // etcd did not answer this one: the next interval tries again.
      this.#lastFailure = (err as Error).message;
      this.#o.attempt?.({ ms: this.#o.clock.nowMs() - now, failed: this.#lastFailure });
    } finally {
      this.#renewing = false;
    }
  }
}

/** What the worker is given. */
export interface LeaseKeeperData {
  /** The etcd client's options (as the store's, without the fault handling). */
  client: IOptions;
  /** The lease's id (decimal). */
  lease: string;
  ttlMs: number;
}

/**
 * The worker that renews `lease` while this is not stopped. `renewing` is called once it has
 * renewed the lease (the client's own renewals may stop then); `lost` once it takes the lease for
 * lost, or fails.
 */
export class LeaseKeeperThread {
  readonly #worker: Worker;
  readonly #timer: NodeJS.Timeout;
  #stopped = false;

  constructor(data: LeaseKeeperData, events: { renewing: () => void; lost: (err: Error) => void; attempt?: (a: { ms: number; failed?: string }) => void }) {
    this.#worker = new Worker(new URL('./lease-keeper.worker.js', import.meta.url), { workerData: data });
    this.#worker.unref();
    this.#worker.on('message', (m: { renewed?: true; ended?: string; attempt?: { ms: number; failed?: string } }) => {
      if (this.#stopped) return;
      if (m.attempt) events.attempt?.(m.attempt);
      if (m.renewed) events.renewing();
      if (m.ended !== undefined) {
        this.stop();
        events.lost(new Error(`the term's lease is lost: ${m.ended}`));
      }
    });
    const failed = (err: Error) => {
      if (this.#stopped) return;
      this.stop();
      events.lost(new Error(`the term's lease keeper failed: ${err.message}`, { cause: err }));
    };
    this.#worker.on('error', failed);
    this.#worker.on('exit', (code) => failed(new Error(`its thread ended (${code})`)));
    this.#timer = setInterval(() => this.#worker.postMessage('here'), renewEveryMs(data.ttlMs));
    this.#timer.unref();
  }

  /** Renews no more (the term ended). */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#timer);
    void this.#worker.terminate();
  }
}
