import { resolveRange, type BatchOp, type Range, type Store } from './store.js';

/** Orders strings by their UTF-8 bytes, as RocksDB does. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** The in-memory twin of RocksStore, for unit tests. Same contract, no durability. */
export class MemoryStore implements Store {
  readonly #data = new Map<string, string>();
  #closed = false;

  #check(): void {
    if (this.#closed) throw new Error('store is closed');
  }

  async get(key: string): Promise<string | undefined> {
    this.#check();
    return this.#data.get(key);
  }

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    this.#check();
    return keys.map((k) => this.#data.get(k));
  }

  async batch(ops: readonly BatchOp[]): Promise<void> {
    this.#check();
    for (const op of ops) {
      if (op.type === 'put') this.#data.set(op.key, op.value);
      else this.#data.delete(op.key);
    }
  }

  async *iterate(range: Range): AsyncIterable<[string, string]> {
    this.#check();
    const r = resolveRange(range);
    const keys = [...this.#data.keys()]
      .filter(
        (k) =>
          (r.gt === undefined || compareBytes(k, r.gt) > 0) &&
          (r.gte === undefined || compareBytes(k, r.gte) >= 0) &&
          (r.lt === undefined || compareBytes(k, r.lt) < 0) &&
          (r.lte === undefined || compareBytes(k, r.lte) <= 0),
      )
      .sort(compareBytes);
    if (r.reverse) keys.reverse();
    const snapshot = keys.slice(0, r.limit ?? keys.length).map((k) => [k, this.#data.get(k)!] as [string, string]);
    yield* snapshot;
  }

  async scan(range: Range): Promise<[string, string][]> {
    const out: [string, string][] = [];
    for await (const entry of this.iterate(range)) out.push(entry);
    return out;
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}
