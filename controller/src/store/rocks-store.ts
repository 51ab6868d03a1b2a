import { openRocksDb, type RocksDb } from './rocksdb.js';
import { resolveRange, type BatchOp, type Range, type Store } from './store.js';

export interface RocksStoreOptions {
  /**
   * fsync the write-ahead log before a batch resolves. Without it a batch that
   * resolved survives the controller being killed but not the host losing power.
   */
  sync: boolean;
}

/** The embedded store: RocksDB in a directory that only this process opens. */
export class RocksStore implements Store {
  private constructor(
    private readonly db: RocksDb,
    private readonly options: RocksStoreOptions,
  ) {}

  static async open(location: string, options: RocksStoreOptions): Promise<RocksStore> {
    const db = openRocksDb(location);
    try {
      await db.open();
    } catch (err) {
      const lockHeld = err instanceof Error && /lock/i.test(`${err.message} ${String((err as { cause?: unknown }).cause)}`);
      throw new Error(
        lockHeld
          ? `cannot open the store at ${location}: another controller holds its lock`
          : `cannot open the store at ${location}`,
        { cause: err },
      );
    }
    return new RocksStore(db, options);
  }

  async get(key: string): Promise<string | undefined> {
    const [value] = await this.db.getMany([key]);
    return value ?? undefined;
  }

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    if (keys.length === 0) return [];
    const values = await this.db.getMany([...keys]);
    return values.map((v) => v ?? undefined);
  }

  async batch(ops: readonly BatchOp[]): Promise<void> {
    if (ops.length === 0) return;
    await this.db.batch(
      ops.map((op) => (op.type === 'put' ? { type: 'put', key: op.key, value: op.value } : { type: 'del', key: op.key })),
      { sync: this.options.sync },
    );
  }

  async *iterate(range: Range): AsyncIterable<[string, string]> {
    const { reverse, limit, ...bounds } = resolveRange(range);
    const it = this.db.iterator({ ...bounds, reverse: reverse ?? false, limit: limit ?? -1 });
    try {
      for await (const entry of it) yield entry;
    } finally {
      await it.close();
    }
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}
