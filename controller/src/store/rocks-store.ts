import { Worker } from 'node:worker_threads';
import { BatchWriter, openRocksDb, type RocksDb } from './rocksdb.js';
import type { WriterData, WriterReply, WriterRequest, WriterStats } from './rocks-writer.worker.js';
import { resolveRange, type BatchOp, type Range, type Store } from './store.js';

export interface RocksStoreOptions {
  /**
   * fsync the write-ahead log before a batch resolves. Without it a batch that
   * resolved survives the controller being killed but not the host losing power.
   */
  sync: boolean;
}

/** Reads of at most this many keys are done on the main thread; larger ones on the thread pool. */
const SYNC_READ_MAX_KEYS = 8;

interface Waiter {
  resolve: (value: never) => void;
  reject: (err: unknown) => void;
}

/**
 * The writer thread (`rocks-writer.worker.ts`) seen from the main thread: batches
 * sent as flat string arrays, answered by id.
 */
class WriterThread {
  #next = 1;
  readonly #waiting = new Map<number, Waiter>();
  readonly #calls = new Set<Promise<unknown>>();
  #failure: Error | undefined;

  constructor(readonly worker: Worker) {
    worker.on('message', (message: WriterReply) => {
      if (message === 'ready') return;
      if ('done' in message) for (const id of message.done) this.#settle(id)?.resolve(undefined as never);
      else if ('failed' in message) {
        const err = new Error(`the store write failed: ${message.error}`);
        for (const id of message.failed) this.#settle(id)?.reject(err);
      } else this.#settle(message.id)?.resolve(message.stats as never);
    });
    const fail = (err: Error) => {
      this.#failure ??= err;
      for (const waiter of this.#waiting.values()) waiter.reject(this.#failure);
      this.#waiting.clear();
    };
    worker.once('error', (err) => fail(new Error('the store writer thread failed', { cause: err })));
    worker.once('exit', (code) => fail(new Error(`the store writer thread exited (code ${code})`)));
  }

  /** Resolves once the writer has opened the database; rejects when it fails first. */
  ready(): Promise<void> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: WriterReply) => {
        if (message !== 'ready') return;
        this.worker.off('message', onMessage);
        this.worker.off('error', reject);
        resolve();
      };
      this.worker.on('message', onMessage);
      this.worker.once('error', reject);
      this.worker.once('exit', (code) => reject(new Error(`the store writer thread exited (code ${code})`)));
    });
  }

  get failure(): Error | undefined {
    return this.#failure;
  }

  #settle(id: number): Waiter | undefined {
    const waiter = this.#waiting.get(id);
    this.#waiting.delete(id);
    return waiter;
  }

  #call<T>(request: (id: number) => WriterRequest): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#next++;
    const call = new Promise<T>((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (value: never) => void, reject });
      this.worker.postMessage(request(id));
    });
    this.#calls.add(call);
    const done = () => this.#calls.delete(call);
    call.then(done, done);
    return call;
  }

  write(ops: readonly BatchOp[]): Promise<void> {
    const flat: string[] = [];
    for (const op of ops) {
      if (op.type === 'put') flat.push('p', op.key, op.value);
      else flat.push('d', op.key, '');
    }
    return this.#call((id) => ({ id, ops: flat }));
  }

  stats(): Promise<WriterStats> {
    return this.#call((id) => ({ id, stats: true }));
  }

  /** Resolves once every batch sent so far is answered. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#calls]);
  }

  async terminate(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}

/**
 * The embedded store: RocksDB in a directory that only this process opens.
 *
 * Reads run on the main thread: a read of a few keys (the usual point lookup)
 * synchronously, since it is served from the memtable or caches in a few µs,
 * less than the hand-off to the thread pool and back cost; larger reads and
 * iterators asynchronously on the thread pool.
 *
 * With `sync`, writes go to a writer thread (`rocks-writer.worker.ts`), which
 * keeps fsync off the event loop and commits concurrent batches together.
 * Without `sync`, a write is a memtable insert and a write(2) to the log, a few
 * tens of µs: it is done on the main thread, because the hop to the writer
 * thread and back cost more CPU than the write itself (measured with `npm run
 * bench`, POST /jobs --no-sync).
 *
 * The write-ahead log is not compressed: its records are small, and compressing
 * each one cost CPU on every write.
 */
export class RocksStore implements Store {
  /** Written on the main thread (no writer thread, `sync` off). */
  #groups = 0;
  #closed = false;
  /** The native batch of main-thread writes (`sync` off), made on the first write. */
  #batchWriter: BatchWriter | undefined;

  private constructor(
    private readonly db: RocksDb,
    private readonly writer: WriterThread | undefined,
  ) {}

  static async open(location: string, options: RocksStoreOptions): Promise<RocksStore> {
    const db = openRocksDb(location);
    try {
      await db.open({ walCompression: false });
    } catch (err) {
      const lockHeld = err instanceof Error && /lock/i.test(`${err.message} ${String((err as { cause?: unknown }).cause)}`);
      throw new Error(
        lockHeld
          ? `cannot open the store at ${location}: another controller holds its lock`
          : `cannot open the store at ${location}`,
        { cause: err },
      );
    }
    if (!options.sync) return new RocksStore(db, undefined);
    const data: WriterData = { handle: db.handle, sync: options.sync };
    const writer = new WriterThread(new Worker(new URL('./rocks-writer.worker.js', import.meta.url), { workerData: data }));
    try {
      await writer.ready();
    } catch (err) {
      await writer.terminate();
      await db.close();
      throw new Error(`cannot start the store writer for ${location}`, { cause: err });
    }
    return new RocksStore(db, writer);
  }

  #read(keys: string[]): Promise<(string | undefined)[]> | (string | undefined)[] {
    if (this.#closed) throw new Error('the store is closed');
    if (keys.length > SYNC_READ_MAX_KEYS) return this.db.getMany(keys);
    // null: a read the binding aborted (it sets no deadline here); undefined: not found.
    return this.db._getManySync(keys, { valueEncoding: 'utf8' }).map((v) => v ?? undefined);
  }

  async get(key: string): Promise<string | undefined> {
    const [value] = await this.#read([key]);
    return value ?? undefined;
  }

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    if (keys.length === 0) return [];
    const values = await this.#read([...keys]);
    return values.map((v) => v ?? undefined);
  }

  batch(ops: readonly BatchOp[]): Promise<void> {
    if (ops.length === 0) return Promise.resolve();
    if (this.#closed) return Promise.reject(new Error('the store is closed'));
    if (!this.writer) {
      // Synchronous inside the binding: written, in call order, before this returns. The store's
      // operations are well formed (string keys and values), so abstract-level's checks are skipped.
      const batch = (this.#batchWriter ??= new BatchWriter(this.db));
      try {
        for (const op of ops) {
          if (op.type === 'put') batch.put(op.key, op.value);
          else batch.del(op.key);
        }
        batch.write(false);
      } catch (err) {
        batch.clear();
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
      this.#groups++;
      return Promise.resolve();
    }
    return this.writer.write(ops);
  }

  /** A RocksDB property (`rocksdb.num-running-compactions`, `rocksdb.stats`...), for benchmarks and diagnostics. */
  property(name: string): string {
    return this.db.getProperty(name);
  }

  /** Groups and batches written so far (group commit at work when batches > groups). */
  writerStats(): Promise<WriterStats> {
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
    if (this.#closed) return;
    this.#closed = true;
    await this.writer?.settled();
    await this.writer?.terminate();
    await this.db.close();
  }
}
