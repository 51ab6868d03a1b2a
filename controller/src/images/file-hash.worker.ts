/**
 * The thread of `followHash` (file-hash.ts): reads files back as they are written, from the
 * page cache, and hashes them (sha256), so that the thread writing them does not hash.
 *
 * Plain messages on the worker's port, in order:
 *
 *   parent -> thread   { id, path }          a file to follow, from its first byte
 *                      { id, upTo }          the file is written up to this many bytes
 *                      { id, end }           the file is complete at this many bytes: answer its digest
 *                      { id, cancel: true }  forget the file
 *   thread -> parent   { id, digest }        sha256:<hex> of the file's `end` bytes
 *                      { id, error }         it could not be read (or ended short)
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

export type FileHashRequest = { id: number; path: string } | { id: number; upTo: number } | { id: number; end: number } | { id: number; cancel: true };
export type FileHashReply = { id: number; digest: string } | { id: number; error: string };

interface Followed {
  fd: number;
  hash: Hash;
  /** Bytes read and hashed. */
  at: number;
  error?: string;
}

/** One buffer for every file: the thread reads one range at a time. */
const buffer = Buffer.allocUnsafe(1024 * 1024);
const files = new Map<number, Followed>();

/** Hashes `f` up to `upTo` bytes; records the first failure. */
function readTo(f: Followed, upTo: number): void {
  while (f.error === undefined && f.at < upTo) {
    try {
      const n = readSync(f.fd, buffer, 0, Math.min(buffer.length, upTo - f.at), f.at);
      if (n === 0) {
        f.error = `the file ends at ${f.at} bytes, before ${upTo}`;
        return;
      }
      f.hash.update(buffer.subarray(0, n));
      f.at += n;
    } catch (err) {
      f.error = (err as Error).message;
    }
  }
}

function forget(id: number): void {
  const f = files.get(id);
  files.delete(id);
  if (f && f.fd >= 0) closeSync(f.fd);
}

parentPort!.on('message', (m: FileHashRequest) => {
  if ('path' in m) {
    let fd = -1;
    let error: string | undefined;
    try {
      fd = openSync(m.path, 'r');
    } catch (err) {
      error = (err as Error).message;
    }
    files.set(m.id, { fd, hash: createHash('sha256'), at: 0, ...(error !== undefined ? { error } : {}) });
    return;
  }
  const f = files.get(m.id);
  if ('cancel' in m) return forget(m.id);
  if (!f) return;
  if ('upTo' in m) return readTo(f, m.upTo);
  readTo(f, m.end);
  const reply: FileHashReply = f.error !== undefined ? { id: m.id, error: f.error } : { id: m.id, digest: `sha256:${f.hash.digest('hex')}` };
  forget(m.id);
  parentPort!.postMessage(reply);
});
