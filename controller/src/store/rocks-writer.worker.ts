/**
 * The RocksDB writer thread. RocksDB's batch write (and its fsync) is
 * synchronous in @nxtedition/rocksdb, so on the main thread every write holds
 * the event loop for an fsync. The store commits there while the disk is fast
 * (`rocks-store.ts`) and sends its batches here when commits are slow, so that
 * reads go on while the disk works. This worker opens the same database through
 * its native handle and does the writing.
 *
 * Group commit: batches that arrive while a write is under way are written
 * together in one atomic RocksDB batch, with one fsync, in arrival order. Each
 * caller's batch stays atomic because it lies wholly inside one group.
 *
 * The protocol is plain messages on the worker's port (no RPC library: its
 * message ids, proxies and per-call objects cost more CPU than the write of a
 * small batch):
 *
 *   parent -> writer   { id, ops }       ops flat: 'p', key, value for a put, 'd', key, '' for a delete
 *                      { id, stats: true }
 *   writer -> parent   'ready'           once the database is open here
 *                      { done: ids, ms }  those batches are in the write-ahead log (fsync'd with `sync`);
 *                                        ms: how long their commit took
 *                      { failed: ids, error }
 *                      { id, stats: { groups, batches } }
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BatchWriter, openRocksDbFromHandle } from './rocksdb.js';

export interface WriterData {
  handle: bigint;
  sync: boolean;
}

/** What the parent sends. */
export type WriterRequest = { id: number; ops: string[] } | { id: number; stats: true };

/** What the writer answers. */
export type WriterReply = 'ready' | { done: number[]; ms: number } | { failed: number[]; error: string } | { id: number; stats: WriterStats };

export interface WriterStats {
  groups: number;
  batches: number;
}

const { handle, sync } = workerData as WriterData;
const port = parentPort!;
const db = openRocksDbFromHandle(handle);
await db.open();
const batch = new BatchWriter(db);

let queue: { id: number; ops: string[] }[] = [];
let writing = false;
let groups = 0;
let batches = 0;

function reply(message: WriterReply): void {
  port.postMessage(message);
}

async function drain(): Promise<void> {
  writing = true;
  try {
    while (queue.length > 0) {
      // Let messages that arrived during the last write join this group.
      await new Promise((resolve) => setImmediate(resolve));
      const group = queue;
      queue = [];
      const ids = group.map((g) => g.id);
      try {
        for (const { ops: flat } of group) {
          for (let i = 0; i + 2 < flat.length; i += 3) {
            if (flat[i] === 'p') batch.put(flat[i + 1]!, flat[i + 2]!);
            else batch.del(flat[i + 1]!);
          }
        }
        const start = performance.now();
        batch.write(sync);
        const ms = performance.now() - start;
        groups++;
        batches += group.length;
        reply({ done: ids, ms });
      } catch (err) {
        batch.clear();
        reply({ failed: ids, error: err instanceof Error ? err.message : String(err) });
      }
    }
  } finally {
    writing = false;
  }
}

port.on('message', (message: WriterRequest) => {
  if ('stats' in message) {
    reply({ id: message.id, stats: { groups, batches } });
    return;
  }
  queue.push(message);
  if (!writing) void drain();
});
reply('ready');
