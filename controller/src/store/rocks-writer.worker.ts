/**
 * The RocksDB writer thread. RocksDB's batch write (and its fsync) is
 * synchronous in @nxtedition/rocksdb, so on the main thread every write would
 * stall the event loop. This worker opens the same database through its native
 * handle and does the writing.
 *
 * Group commit: batches that arrive while a write is under way are written
 * together in one atomic RocksDB batch, with one fsync, in arrival order. Each
 * caller's batch stays atomic because it lies wholly inside one group.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { exposeToParent } from '../util/comlink.js';
import { openRocksDbFromHandle } from './rocksdb.js';
import type { BatchOp } from './store.js';

export interface WriterData {
  handle: bigint;
  sync: boolean;
}

export interface RocksWriter {
  /** Resolves once `ops` are in the write-ahead log (fsync'd with `sync`). */
  write(ops: readonly BatchOp[]): Promise<void>;
  /** How many groups and batches have been written. */
  stats(): { groups: number; batches: number };
}

interface Pending {
  ops: readonly BatchOp[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

const { handle, sync } = workerData as WriterData;
const db = openRocksDbFromHandle(handle);
await db.open();

let queue: Pending[] = [];
let writing = false;
let groups = 0;
let batches = 0;

async function drain(): Promise<void> {
  writing = true;
  try {
    while (queue.length > 0) {
      // Let messages that arrived during the last write join this group.
      await new Promise((resolve) => setImmediate(resolve));
      const group = queue;
      queue = [];
      try {
        await db.batch(
          group.flatMap((p) => p.ops.map((op) => (op.type === 'put' ? { type: 'put' as const, key: op.key, value: op.value } : { type: 'del' as const, key: op.key }))),
          { sync },
        );
        groups++;
        batches += group.length;
        for (const p of group) p.resolve();
      } catch (err) {
        for (const p of group) p.reject(err);
      }
    }
  } finally {
    writing = false;
  }
}

const writer: RocksWriter = {
  write(ops) {
    return new Promise<void>((resolve, reject) => {
      queue.push({ ops, resolve, reject });
      if (!writing) void drain();
    });
  },
  stats() {
    return { groups, batches };
  },
};

exposeToParent(writer, parentPort!);
