import type { AggregatingHistogram } from '../telemetry/aggregating-histogram.js';
import type { BatchOp, Range, Store } from './store.js';

/** Wraps a Store and records the latency of each operation. */
export class InstrumentedStore implements Store {
  constructor(
    private readonly inner: Store,
    private readonly histogram: AggregatingHistogram<'op'>,
  ) {}

  get maxBatchOps(): number | undefined {
    return this.inner.maxBatchOps;
  }

  async #time<T>(op: string, work: Promise<T>): Promise<T> {
    const end = this.histogram.startTimer({ op });
    try {
      return await work;
    } finally {
      end();
    }
  }

  get(key: string): Promise<string | undefined> {
    return this.#time('get', this.inner.get(key));
  }

  getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.#time('get_many', this.inner.getMany(keys));
  }

  batch(ops: readonly BatchOp[]): Promise<void> {
    return this.#time('batch', this.inner.batch(ops));
  }

  async *iterate(range: Range): AsyncIterable<[string, string]> {
    const end = this.histogram.startTimer({ op: 'iterate' });
    try {
      yield* this.inner.iterate(range);
    } finally {
      end();
    }
  }

  scan(range: Range): Promise<[string, string][]> {
    return this.#time('scan', this.inner.scan(range));
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
