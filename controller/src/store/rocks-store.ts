import { Worker } from 'node:worker_threads';
import { wrapWorker, type Remote } from '../util/comlink.js';
import { openRocksDb, type RocksDb } from './rocksdb.js';
import type { RocksWriter, WriterData } from './rocks-writer.worker.js';
import { resolveRange, type BatchOp, type Range, type Store } from './store.js';

export interface RocksStoreOptions {
  /**
   * fsync the write-ahead log before a batch resolves. Without it a batch that
   * resolved survives the controller being killed but not the host losing power.
   */
  sync: boolean;
}

/**
 * The embedded store: RocksDB in a directory that only this process opens.
 * Reads run on the main thread (they are asynchronous in the binding). With
 * `sync`, writes go to a writer thread (`rocks-writer.worker.ts`), which keeps
 * fsync off the event loop and commits concurrent batches together. Without
 * `sync`, a write is a memtable insert and a write(2) to the log, a few tens of
 * µs: it is done on the main thread, because the hop to the writer thread and
 * back (structured clone, two thread wake-ups) cost more CPU than the write
 * itself (measured with `npm run bench`, POST /jobs --no-sync).
 */
export class RocksStore implements Store {
  readonly #pending = new Set<Promise<void>>();
  #writerFailure: Error | undefined;
  readonly #writerDied: Promise<never>;
  /** Written on the main thread (no writer thread, `sync` off). */
  #groups = 0;

  private constructor(
    private readonly db: RocksDb,
    private readonly worker: Worker | undefined,
    private readonly writer: Remote<RocksWriter> | undefined,
  ) {
    this.#writerDied = new Promise<never>((_, reject) => {
      if (!worker) return;
      const fail = (err: Error) => {
        this.#writerFailure ??= err;
        reject(this.#writerFailure);
      };
      worker.once('error', (err) => fail(new Error('the store writer thread failed', { cause: err })));
      worker.once('exit', (code) => fail(new Error(`the store writer thread exited (code ${code})`)));
    });
    this.#writerDied.catch(() => undefined);
  }

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
    if (!options.sync) return new RocksStore(db, undefined, undefined);
    const data: WriterData = { handle: db.handle, sync: options.sync };
    const worker = new Worker(new URL('./rocks-writer.worker.js', import.meta.url), { workerData: data });
    const writer = wrapWorker<RocksWriter>(worker);
    try {
      await writer.stats(); // answers once the worker has opened the database
    } catch (err) {
      await worker.terminate();
      await db.close();
      throw new Error(`cannot start the store writer for ${location}`, { cause: err });
    }
    return new RocksStore(db, worker, writer);
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

  batch(ops: readonly BatchOp[]): Promise<void> {
    if (ops.length === 0) return Promise.resolve();
    if (this.#writerFailure) return Promise.reject(this.#writerFailure);
    if (!this.writer) {
      // Synchronous inside the binding: written, in call order, before this returns.
      const write = this.db.batch(ops as BatchOp[], { sync: false });
      this.#groups++;
      return write;
    }
    const write = Promise.race([this.writer.write(ops), this.#writerDied]);
    this.#pending.add(write);
    const done = () => this.#pending.delete(write);
    write.then(done, done);
    return write;
  }

  /** A RocksDB property (`rocksdb.num-running-compactions`, `rocksdb.stats`...), for benchmarks and diagnostics. */
  property(name: string): string {
    return this.db.getProperty(name);
  }

  /** Groups and batches written so far (group commit at work when batches > groups). */
  writerStats(): Promise<{ groups: number; batches: number }> {
    if (!this.writer) return Promise.resolve({ groups: this.#groups, batches: this.#groups });
    return this.writer.stats();
  }

  async *iterate(range: Range): AsyncIterable<[string, string]> {
    const { reverse, limit, ...bounds } = resolveRange(range);
    const it = this.db.iterator({ ...bounds, reverse: reverse ?? false, limit: limit ?? -1 });
    try {
      // Entries come from the binding in chunks (one native call each): a small first chunk for
      // callers that stop after a key or two, then larger ones. Per-entry next() through
      // abstract-level cost about three times as much (bench:metrics, query of one series).
      for (let size = 16; ; size = 1000) {
        const rows = await it.nextv(size);
        if (rows.length === 0) break;
        yield* rows;
      }
    } finally {
      await it.close();
    }
  }

  async scan(range: Range): Promise<[string, string][]> {
    const { reverse, limit, ...bounds } = resolveRange(range);
    const it = this.db.iterator({ ...bounds, reverse: reverse ?? false, limit: limit ?? -1 });
    const out: [string, string][] = [];
    try {
      for (;;) {
        const rows = await it.nextv(1000);
        if (rows.length === 0) break;
        for (const row of rows) out.push(row);
      }
    } finally {
      await it.close();
    }
    return out;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
    this.worker?.removeAllListeners('exit');
    await this.worker?.terminate();
    await this.db.close();
  }
}
