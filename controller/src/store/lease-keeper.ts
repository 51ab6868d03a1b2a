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
 * So a worker thread, with its own etcd connection, renews the lease too, every second (or TTL/4
 * when shorter): a busy main thread no longer loses the lead. The main thread says it is there
 * every interval; a worker that has not heard of it for twice the TTL stops renewing, so that a
 * controller whose main thread is stuck for good still gives up the lead (after at most that plus
 * the TTL). A paused or killed process stops both threads: the lease ends within the TTL as
 * before, and fencing (every write conditioned on the election key) is unchanged.
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
}

/** What the worker does each interval (worker-free, for tests with an injected clock). */
export class LeaseKeeper {
  readonly #o: LeaseKeeperOptions;
  readonly #silenceMs: number;
  #heard: number;
  #renewing = false;
  #ended: string | undefined;
  /** Renewals etcd answered. */
  renewed = 0;

  constructor(o: LeaseKeeperOptions) {
    this.#o = o;
    this.#silenceMs = o.silenceMs ?? 2 * o.ttlMs;
    this.#heard = o.clock.nowMs();
  }

  /** The main thread is there. */
  heard(): void {
    this.#heard = this.#o.clock.nowMs();
  }

  /** Why it renews no more; undefined while it does. */
  get ended(): string | undefined {
    return this.#ended;
  }

  /** One interval: renews, unless a renewal is still under way, the lease is gone or the main thread silent. */
  async tick(): Promise<void> {
    if (this.#ended !== undefined || this.#renewing) return;
    const silent = this.#o.clock.nowMs() - this.#heard;
    if (silent > this.#silenceMs) {
      this.#ended = `the controller's main thread has not answered for ${silent} ms`;
      return;
    }
    this.#renewing = true;
    try {
      if ((await this.#o.renew()) <= 0) this.#ended = 'the lease is gone';
      else this.renewed++;
    } catch {
      // etcd did not answer this one: the next interval tries again.
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

/** The worker that renews `lease` while this is not stopped. */
export class LeaseKeeperThread {
  readonly #worker: Worker;
  readonly #timer: NodeJS.Timeout;

  constructor(data: LeaseKeeperData) {
    this.#worker = new Worker(new URL('./lease-keeper.worker.js', import.meta.url), { workerData: data });
    this.#worker.unref();
    // A worker that fails leaves the renewals to the main thread, as before.
    this.#worker.on('error', () => undefined);
    this.#timer = setInterval(() => this.#worker.postMessage('here'), renewEveryMs(data.ttlMs));
    this.#timer.unref();
  }

  /** Renews no more (the term ended). */
  stop(): void {
    clearInterval(this.#timer);
    void this.#worker.terminate();
  }
}
