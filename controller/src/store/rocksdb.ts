/**
 * The one typed wrapper around @nxtedition/rocksdb, which ships no types.
 * Only what the store uses is declared.
 */
import { createRequire } from 'node:module';
import type { BatchOp } from './store.js';

export interface RocksIteratorOptions {
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
  reverse?: boolean;
  limit?: number;
}

export interface RocksBatchOp {
  type: 'put' | 'del';
  key: string;
  value?: string;
}

export interface RocksOpenOptions {
  /** zstd-compress each write-ahead log record (the binding's default: true). */
  walCompression?: boolean;
  /**
   * The binding's compaction presets: with one, memtables of `memtableMemoryBudget / 4` bytes,
   * flushed two at a time (without one: RocksDB's own 64 MiB memtables).
   */
  compaction?: 'level' | 'universal';
  memtableMemoryBudget?: number;
}

export interface RocksDb {
  open(options?: RocksOpenOptions): Promise<void>;
  close(): Promise<void>;
  getMany(keys: string[]): Promise<(string | undefined)[]>;
  /**
   * The binding's synchronous MultiGet, on the calling thread: undefined for a key not
   * found, null for a read it aborted. Only on an open database (a closed one crashes).
   */
  _getManySync(keys: string[], options: { valueEncoding: 'utf8' }): (string | undefined | null)[];
  batch(ops: RocksBatchOp[], options?: { sync?: boolean }): Promise<void>;
  /**
   * The binding's own batch write, without abstract-level's checks and encoding in front of it
   * (a copy of every operation, encoders for strings that are written as they are, a 'batch'
   * event): for operations that are well formed already, string keys and values. Written
   * synchronously, in the calling thread; the promise settles on the next tick.
   */
  _batch(ops: readonly RocksBatchOp[], options: { sync: boolean }): Promise<void>;
  /** A native write batch that can be cleared and written again (the binding's ChainedBatch). */
  _chainedBatch(): RocksChainedBatch;
  iterator(options: RocksIteratorOptions): RocksIterator;
  getProperty(name: string): string;
  /** The native handle, with which another thread opens the same database. */
  readonly handle: bigint;
}

/** The binding's ChainedBatch, through its own methods (no abstract-level checks in front). */
export interface RocksChainedBatch {
  _put(key: string, value: string): void;
  _del(key: string): void;
  _clear(): void;
  /** Writes the batch, in the calling thread (and fsyncs the write-ahead log with `sync`). */
  _writeSync(options: { sync: boolean }): void;
}

/**
 * Writes batches synchronously, in the calling thread, through one native write batch used
 * again for every write: `_batch` makes a ChainedBatch (and a native WriteBatch, freed by the
 * garbage collector) for each call. `put(key, value)` / `del(key)` fill it, `write(sync)`
 * writes and clears it; a failed write or fill leaves nothing behind for the next one.
 */
export class BatchWriter {
  readonly #batch: RocksChainedBatch;

  constructor(db: RocksDb) {
    this.#batch = db._chainedBatch();
  }

  put(key: string, value: string): void {
    this.#batch._put(key, value);
  }

  del(key: string): void {
    this.#batch._del(key);
  }

  /** Puts and deletes `ops`, in order. */
  add(ops: readonly BatchOp[]): void {
    for (const op of ops) {
      if (op.type === 'put') this.#batch._put(op.key, op.value);
      else this.#batch._del(op.key);
    }
  }

  write(sync: boolean): void {
    try {
      this.#batch._writeSync({ sync });
    } finally {
      this.#batch._clear();
    }
  }

  /** Drops what was put since the last write (after a put that threw). */
  clear(): void {
    this.#batch._clear();
  }
}

export interface RocksIterator {
  /** Up to `size` entries in one call into the binding; an empty array at the end. */
  nextv(size: number): Promise<[string, string][]>;
  close(): Promise<void>;
}

interface RocksModule {
  RocksLevel: new (locationOrHandle: string | bigint, options: { keyEncoding: 'utf8'; valueEncoding: 'utf8' }) => RocksDb;
}

const require = createRequire(import.meta.url);

export function openRocksDb(location: string): RocksDb {
  const mod = require('@nxtedition/rocksdb') as RocksModule;
  return new mod.RocksLevel(location, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
}

/** Opens, in another thread, the database that `handle` names; never close it there. */
export function openRocksDbFromHandle(handle: bigint): RocksDb {
  const mod = require('@nxtedition/rocksdb') as RocksModule;
  return new mod.RocksLevel(handle, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
}
