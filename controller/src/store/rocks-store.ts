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
  /**
   * With `sync`: commits are made on the main thread, one group and one fsync for the batches of
   * one turn of the event loop, while a commit takes at most this many milliseconds on average;
   * on a slower disk they go to the writer thread, so that reads are not held behind the disk,
   * and come back once the writer's commits average half of it, after
   * {@link WRITER_STAY_MS} at least. 0: always the writer thread.
   * Default {@link DEFAULT_INLINE_COMMIT_MS}.
   */
  inlineCommitMs?: number;
  /** Monotonic milliseconds for timing commits (tests drive the choice of thread with it). */
  now?: () => number;
  /** Told when commits move between the main thread and the writer thread. */
  onCommitPath?: (path: CommitPath, averageMs: number) => void;
  /**
   * Told when the writer thread has died (an error of its own, its exit): commits are made on the
   * main thread from then on, whatever the disk's speed. The batches it had not answered are
   * refused with an error that says their outcome is unknown (the writer may have written them
   * before it died).
   */
  onWriterFailure?: (err: Error) => void;
}

/** Where commits with fsync are made: on the main thread (`inline`) or the writer thread. */
export type CommitPath = 'inline' | 'writer';

/** See {@link RocksStoreOptions.inlineCommitMs}. */
export const DEFAULT_INLINE_COMMIT_MS = 5;

/**
 * Weight of the newest commit in the running average of commit times: a lone slow fsync (the
 * disk of a shared machine has them) moves it little, a stall of a second or a disk that stays
 * slow moves it past the limit.
 */
const COMMIT_AVERAGE_WEIGHT = 0.1;

/** Commits moved to the writer thread stay there this long (ms) at least. */
export const WRITER_STAY_MS = 3_000;

/** Reads of at most this many keys are done on the main thread; larger ones on the thread pool. */
const SYNC_READ_MAX_KEYS = 8;

/**
 * How the database is opened. Memtables of 4 MiB, flushed two at a time (the binding's `level`
 * preset with a 16 MiB budget), rather than RocksDB's 64 MiB ones: placing 100,000 instances
 * held up to 97 MB of memtables, and a restart replayed the write-ahead log since the last flush
 * (up to a whole memtable) before anything else could start. Measured on 150,000 writes of 600
 * bytes: memtables 97 -> 14 MB, the log at a stop 31 -> 9 MB, the reopen 517 -> 142 ms.
 * Durability is the log's, as before: a write is acknowledged once it is in the log.
 */
const ROCKS_OPTIONS = { walCompression: false, compaction: 'level', memtableMemoryBudget: 16 * 1024 * 1024 } as const;

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
  /** Write batches sent and not answered yet. */
  #writes = 0;

  /** `onCommit`: how long each of the writer's commits took (ms); `onFailure`: the thread died. */
  constructor(
    readonly worker: Worker,
    onCommit: (ms: number) => void,
    onFailure: (err: Error) => void,
  ) {
    worker.on('message', (message: WriterReply) => {
      if (message === 'ready') return;
      if ('done' in message) {
        this.#writes -= message.done.length;
        onCommit(message.ms);
        for (const id of message.done) this.#settle(id)?.resolve(undefined as never);
      } else if ('failed' in message) {
        this.#writes -= message.failed.length;
        const err = new Error(`the store write failed: ${message.error}`);
        for (const id of message.failed) this.#settle(id)?.reject(err);
      } else this.#settle(message.id)?.resolve(message.stats as never);
    });
    const fail = (err: Error) => {
      if (this.#failure) return;
      this.#fail(err);
      onFailure(err);
    };
    worker.once('error', (err) => fail(new Error('the store writer thread failed', { cause: err })));
    worker.once('exit', (code) => fail(new Error(`the store writer thread exited (code ${code})`)));
  }

  /**
   * Refuses every call not answered: a batch among them may have been written (the thread can end
   * between the write and its answer), so its error says that its outcome is unknown.
   */
  #fail(err: Error): void {
    this.#failure = err;
    this.#writes = 0;
    const unknown = new Error(`${err.message}: a store write it had not answered may or may not have been made`, { cause: err });
    for (const waiter of this.#waiting.values()) waiter.reject(unknown);
    this.#waiting.clear();
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

  /** True when every batch sent has been answered. */
  get idle(): boolean {
    return this.#writes === 0;
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
    const call = this.#call<void>((id) => ({ id, ops: flat }));
    if (!this.#failure) this.#writes++;
    return call;
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
    if (!this.#failure) this.#fail(new Error('the store is closed'));
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
 * With `sync`, the batches of one turn of the event loop are committed together
 * on the main thread when the turn ends (`setImmediate`): one RocksDB batch, one
 * fsync, every caller's batch atomic and in call order, as Redis does with
 * `appendfsync always`. The hop to a thread and back (two wake-ups, a message
 * each way) cost more CPU than the fsync on the development machine: with it a
 * `POST /jobs` at one connection cost about 1.5 times the process CPU (paired runs
 * of the two ways, per-thread CPU from /proc). The
 * event loop waits for the disk meanwhile, so when commits take longer than
 * `inlineCommitMs` on average they go to the writer thread
 * (`rocks-writer.worker.ts`), which keeps fsync off the event loop and groups
 * the batches that arrive while it writes; they come back once its commits
 * average half of that. A batch joins the open inline group if there is one, and
 * is committed inline only when the writer has answered every batch sent to it,
 * so batches are written in call order whichever way they go.
 *
 * Without `sync`, a write is a memtable insert and a write(2) to the log, a few
 * tens of µs: it is done on the main thread at once.
 *
 * The write-ahead log is not compressed: its records are small, and compressing
 * each one cost CPU on every write.
 */
export class RocksStore implements Store {
  /** Groups and batches committed on the main thread. */
  #groups = 0;
  #batches = 0;
  #closed = false;
  /** The native batch of main-thread writes, made on the first write. */
  #batchWriter: BatchWriter | undefined;
  /** The batches in the open inline group (`sync`), answered when it is committed. */
  #group: Waiter[] = [];
  #path: CommitPath;
  /** Running average of commit times (ms), inline or the writer's. */
  #averageMs: number | undefined;
  /** When commits last moved to the writer thread (`now()`). */
  #writerSince = 0;
  #closing: Promise<void> | undefined;
  /** Set once open() has its writer thread running: a writer failing before is open()'s error. */
  #started = false;
  readonly #inlineCommitMs: number;
  readonly #now: () => number;
  readonly #onCommitPath: ((path: CommitPath, averageMs: number) => void) | undefined;
  readonly #writer: WriterThread | undefined;

  private constructor(
    private readonly db: RocksDb,
    options: RocksStoreOptions,
    makeWriter?: (onCommit: (ms: number) => void, onFailure: (err: Error) => void) => WriterThread,
  ) {
    this.#inlineCommitMs = options.inlineCommitMs ?? DEFAULT_INLINE_COMMIT_MS;
    this.#now = options.now ?? (() => performance.now());
    this.#onCommitPath = options.onCommitPath;
    this.#path = this.#inlineCommitMs > 0 ? 'inline' : 'writer';
    this.#writer = makeWriter?.(
      (ms) => this.#observe(ms),
      (err) => {
        if (this.#closed || !this.#started) return;
        // The main thread commits from now on; a dead writer never answers, so nothing would bring commits back.
        if (this.#path === 'writer') {
          this.#path = 'inline';
          this.#onCommitPath?.('inline', this.#averageMs ?? 0);
        }
        options.onWriterFailure?.(err);
      },
    );
  }

  static async open(location: string, options: RocksStoreOptions): Promise<RocksStore> {
    const inlineCommitMs = options.inlineCommitMs ?? DEFAULT_INLINE_COMMIT_MS;
    if (!(inlineCommitMs >= 0)) throw new Error(`inlineCommitMs must be a number of milliseconds >= 0, not ${inlineCommitMs}`);
    const db = openRocksDb(location);
    try {
      await db.open(ROCKS_OPTIONS);
    } catch (err) {
      const lockHeld = err instanceof Error && /lock/i.test(`${err.message} ${String((err as { cause?: unknown }).cause)}`);
      throw new Error(
        lockHeld
          ? `cannot open the store at ${location}: another controller holds its lock`
          : `cannot open the store at ${location}`,
        { cause: err },
      );
    }
    if (!options.sync) return new RocksStore(db, options);
    const data: WriterData = { handle: db.handle, sync: options.sync };
    const worker = new Worker(new URL('./rocks-writer.worker.js', import.meta.url), { workerData: data });
    const store = new RocksStore(db, options, (onCommit, onFailure) => new WriterThread(worker, onCommit, onFailure));
    try {
      await store.#writer!.ready();
    } catch (err) {
      await store.#writer!.terminate();
      await db.close();
      throw new Error(`cannot start the store writer for ${location}`, { cause: err });
    }
    store.#started = true;
    return store;
  }

  /** Where commits are made now: `inline` also without `sync` (no writer thread then) and once the writer thread has died. */
  get commitPath(): CommitPath {
    return this.#writer ? this.#path : 'inline';
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
    for (const op of ops) {
      // Checked before anything is put, so that a refused batch leaves nothing in a group.
      if (typeof op.key !== 'string' || (op.type === 'put' && typeof op.value !== 'string')) {
        return Promise.reject(new Error(`the store refuses a ${String(op.type)} of a key or value that is not a string`));
      }
    }
    const writer = this.#writer;
    if (!writer) return this.#writeNow(ops);
    if (this.#group.length > 0 || (this.#path === 'inline' && writer.idle)) return this.#join(ops);
    return writer.write(ops);
  }

  /** Without sync: written, in call order, before this returns (synchronous in the binding). */
  #writeNow(ops: readonly BatchOp[]): Promise<void> {
    const batch = (this.#batchWriter ??= new BatchWriter(this.db));
    try {
      batch.add(ops);
      batch.write(false);
    } catch (err) {
      batch.clear();
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    this.#groups++;
    this.#batches++;
    return Promise.resolve();
  }

  /** Adds `ops` to the open inline group, opening one (committed when this turn ends) if none is. */
  #join(ops: readonly BatchOp[]): Promise<void> {
    const batch = (this.#batchWriter ??= new BatchWriter(this.db));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve: resolve as (value: never) => void, reject };
      try {
        batch.add(ops);
      } catch (err) {
        // The native batch holds part of this one: the whole group is refused, nothing written.
        batch.clear();
        const failure = new Error('the store write failed', { cause: err });
        const group = this.#group;
        this.#group = [];
        for (const w of [...group, waiter]) w.reject(failure);
        return;
      }
      if (this.#group.push(waiter) === 1) setImmediate(this.#commit);
    });
  }

  /** Commits the open inline group: one batch, one fsync, then every caller in it is answered. */
  readonly #commit = (): void => {
    const group = this.#group;
    if (group.length === 0) return;
    this.#group = [];
    const start = this.#now();
    try {
      this.#batchWriter!.write(true);
    } catch (err) {
      const failure = new Error(`the store write failed: ${err instanceof Error ? err.message : String(err)}`);
      for (const w of group) w.reject(failure);
      return;
    }
    this.#groups++;
    this.#batches += group.length;
    this.#observe(this.#now() - start);
    for (const w of group) w.resolve(undefined as never);
  };

  /** Adds a commit's time to the running average and moves commits to the other thread past the limits. */
  #observe(ms: number): void {
    const average = (this.#averageMs = this.#averageMs === undefined ? ms : this.#averageMs + COMMIT_AVERAGE_WEIGHT * (ms - this.#averageMs));
    if (this.#inlineCommitMs <= 0 || this.#writer?.failure) return;
    if (this.#path === 'inline') {
      if (average <= this.#inlineCommitMs) return;
      this.#path = 'writer';
      this.#writerSince = this.#now();
    } else {
      if (average > this.#inlineCommitMs / 2 || this.#now() - this.#writerSince < WRITER_STAY_MS) return;
      this.#path = 'inline';
    }
    this.#onCommitPath?.(this.#path, average);
  }

  /** A RocksDB property (`rocksdb.num-running-compactions`, `rocksdb.stats`...), for benchmarks and diagnostics. */
  property(name: string): string {
    return this.db.getProperty(name);
  }

  /** Groups and batches written so far, on either thread (group commit at work when batches > groups). */
  async writerStats(): Promise<WriterStats & { inline: WriterStats }> {
    if (this.#closed) throw new Error('the store is closed');
    const inline = { groups: this.#groups, batches: this.#batches };
    const thread = this.#writer ? await this.#writer.stats() : { groups: 0, batches: 0 };
    return { groups: inline.groups + thread.groups, batches: inline.batches + thread.batches, inline };
  }

  async *iterate(range: Range): AsyncIterable<[string, string]> {
    const { reverse, limit, ...bounds } = resolveRange(range);
    const it = this.db.iterator({ ...bounds, reverse: reverse ?? false, limit: limit ?? -1 });
    try {
      // Entries come from the binding in chunks (one native call each): a small first chunk for
      // callers that stop after a key or two, then larger ones. Per-entry next() through
      // abstract-level cost about three times as much (bench:metrics, query of one series).
      const first = await it.nextv(16);
      if (first.length === 0) return;
      yield* first;
      // From the second chunk on, each next one is asked for before the caller is given this
      // one's rows: the binding reads it on its thread while the caller works (a start's load of
      // every instance record, each parsed as it comes).
      let ahead: Promise<[string, string][]> | undefined = it.nextv(1000);
      try {
        for (;;) {
          const rows: [string, string][] = await ahead;
          ahead = undefined;
          if (rows.length === 0) break;
          ahead = it.nextv(1000);
          // Awaited by the next turn of the loop, or below when the caller stops early.
          ahead.catch(() => undefined);
          yield* rows;
        }
      } finally {
        if (ahead) await ahead.catch(() => undefined);
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

  /** Commits the open group, waits for the batches on the writer thread, then closes; every call gets the same promise. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#closed = true;
      this.#commit();
      await this.#writer?.settled();
      await this.#writer?.terminate();
      await this.db.close();
    })();
    return this.#closing;
  }
}
