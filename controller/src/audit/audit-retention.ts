/**
 * Deletes audit items older than the retention the operator sets
 * (`--audit-retention`). Items are keyed by time (`audit/<ns>/<uuid>`), so the
 * old ones are one key range at the front: each pass deletes it in batches of
 * at most `batchSize` keys, one batch at a time, so that pruning a large
 * backlog never holds a long write or much memory and requests go on between
 * batches.
 *
 * Lifecycle: `start()` prunes once at once and then every `intervalMs` (an
 * unref'd timer); `stop()` waits for a pass in progress to end its batch.
 */
import type { Deps } from '../context.js';
import { keys } from '../store/keys.js';

export interface AuditRetentionOptions {
  /** Items older than this are deleted. */
  retentionSeconds: number;
  /** How often to prune. Default: a tenth of the retention, between 1 s and 1 h. */
  intervalMs?: number;
  /** Keys per delete batch. Default 1,000. */
  batchSize?: number;
}

export class AuditRetention {
  readonly #intervalMs: number;
  readonly #batchSize: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;
  #stopped = false;

  constructor(
    private readonly deps: Pick<Deps, 'store' | 'clock' | 'log'>,
    private readonly options: AuditRetentionOptions,
  ) {
    if (!(options.retentionSeconds > 0)) throw new Error('the audit retention must be a positive number of seconds');
    this.#intervalMs = options.intervalMs ?? Math.min(Math.max((options.retentionSeconds * 1000) / 10, 1000), 3_600_000);
    // No larger than one batch of the store may be (etcd's transaction bound).
    this.#batchSize = Math.min(options.batchSize ?? 1000, deps.store.maxBatchOps ?? Infinity);
  }

  start(): void {
    if (this.#timer) return;
    const tick = () => {
      if (this.#running || this.#stopped) return;
      this.#running = this.prune().finally(() => (this.#running = undefined));
      this.#running.catch((err: unknown) => this.deps.log.warn('audit retention pass failed', { err: (err as Error).message }));
    };
    this.#timer = setInterval(tick, this.#intervalMs);
    this.#timer.unref();
    tick();
  }

  /** One pass: deletes every item older than the retention. Resolves with how many. */
  async prune(): Promise<number> {
    const cutoffSeconds = this.deps.clock.nowMs() / 1000 - this.options.retentionSeconds;
    const range = { prefix: keys.auditPrefix, lt: keys.auditTimeBound(cutoffSeconds) };
    let deleted = 0;
    while (!this.#stopped) {
      const batch: string[] = [];
      for await (const [key] of this.deps.store.iterate({ ...range, limit: this.#batchSize })) batch.push(key);
      if (batch.length === 0) break;
      await this.deps.store.batch(batch.map((key) => ({ type: 'del' as const, key })));
      deleted += batch.length;
      if (batch.length < this.#batchSize) break;
    }
    if (deleted > 0) this.deps.log.info('old audit items deleted', { deleted, retention_seconds: this.options.retentionSeconds });
    return deleted;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }
}
