/**
 * sha256 of a file while it is being written, computed on a thread of its own that reads the
 * written bytes back (from the page cache) as the writer reports them. For the package archives
 * made from images: the thread flattening the layers frames, checksums and writes the archive,
 * and hashing it there too made the hash a fifth of its work; another core reads it back for
 * less than the hashing costs.
 *
 * One thread for every file being followed, started at the first and kept while the process
 * runs (it holds the process open only while a digest is awaited). A thread that fails fails
 * the digests awaited from it; the next file starts a new one.
 */
import { Worker } from 'node:worker_threads';
import type { FileHashReply, FileHashRequest } from './file-hash.worker.js';

export interface FollowedHash {
  /** The file is written up to `length` bytes (from its first byte). */
  written(length: number): void;
  /** `sha256:<hex>` of the file's first `length` bytes, once they were read. */
  digest(length: number): Promise<string>;
  /** Forgets the file (it failed, or it is not wanted). */
  cancel(): void;
}

interface Waiting {
  resolve: (digest: string) => void;
  reject: (err: Error) => void;
}

class HashThread {
  readonly #worker = new Worker(new URL('./file-hash.worker.js', import.meta.url));
  readonly #waiting = new Map<number, Waiting>();
  #seq = 0;
  failed = false;

  constructor() {
    this.#worker.unref();
    this.#worker.on('message', (m: FileHashReply) => {
      const w = this.#waiting.get(m.id);
      if (!w) return;
      this.#settled(m.id);
      if ('digest' in m) w.resolve(m.digest);
      else w.reject(new Error(`could not hash the file: ${m.error}`));
    });
    const fail = (err: Error) => {
      this.failed = true;
      for (const [id, w] of this.#waiting) {
        this.#settled(id);
        w.reject(new Error(`the hashing thread stopped: ${err.message}`));
      }
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
  }

  follow(path: string): FollowedHash {
    const id = ++this.#seq;
    const send = (m: FileHashRequest) => {
      if (!this.failed) this.#worker.postMessage(m);
    };
    send({ id, path });
    return {
      written: (length) => send({ id, upTo: length }),
      digest: (length) =>
        new Promise<string>((resolve, reject) => {
          if (this.failed) return reject(new Error('the hashing thread stopped'));
          if (this.#waiting.size === 0) this.#worker.ref();
          this.#waiting.set(id, { resolve, reject });
          send({ id, end: length });
        }),
      cancel: () => {
        this.#settled(id);
        send({ id, cancel: true });
      },
    };
  }

  #settled(id: number): void {
    if (this.#waiting.delete(id) && this.#waiting.size === 0) this.#worker.unref();
  }
}

let thread: HashThread | undefined;

/** Starts following the file at `path`, which its writer fills from its first byte. */
export function followHash(path: string): FollowedHash {
  if (!thread || thread.failed) thread = new HashThread();
  return thread.follow(path);
}
