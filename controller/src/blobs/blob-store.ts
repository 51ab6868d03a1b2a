/**
 * Package archives as files in a content-addressed directory:
 *
 *   <root>/<algorithm>/<hex digest>     one file per distinct archive
 *   <root>/tmp/                          uploads in progress
 *
 * An upload streams into a temporary file while its length is counted and its
 * digest computed; it is renamed into place only when both match what was
 * declared. Nothing is ever held whole in memory. Which packages use a blob is
 * recorded in the store (`idx/blob-ref/...`); a blob that no package refers to
 * is removed (at once when its last package goes, and by a sweep at start-up
 * for what a crash left behind).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InvalidRequestError } from '../errors.js';
import { DIGEST_ALGORITHMS, formatDigest, parseDigest, type Digest } from '../model/digest.js';

export interface BlobStoreOptions {
  /** fsync each archive and its directory before an upload is acknowledged. */
  sync: boolean;
}

export interface IngestExpectation {
  length: number;
  digest: Digest;
}

export class BlobStore {
  constructor(
    readonly root: string,
    private readonly options: BlobStoreOptions,
  ) {}

  /** Creates the directories and removes uploads that a crash interrupted. */
  async init(): Promise<void> {
    await rm(join(this.root, 'tmp'), { recursive: true, force: true });
    await mkdir(join(this.root, 'tmp'), { recursive: true });
    for (const algorithm of Object.keys(DIGEST_ALGORITHMS)) await mkdir(join(this.root, algorithm), { recursive: true });
  }

  pathOf(digest: Digest): string {
    return join(this.root, digest.algorithm, digest.hex);
  }

  /**
   * Streams `source` into the store, checking it against `expect`. Resolves once
   * the blob is in place (and durable, with `sync`). Refuses an archive that is
   * longer or shorter than declared, or whose digest differs, with an
   * InvalidRequestError; nothing is left behind then.
   */
  async ingest(source: Readable, expect: IngestExpectation, onBytes?: (n: number) => void): Promise<void> {
    const tmp = join(this.root, 'tmp', randomBytes(12).toString('hex'));
    const hash = createHash(expect.digest.algorithm);
    let received = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        if (received > expect.length) {
          callback(new InvalidRequestError(`the archive is longer than the ${expect.length} bytes declared`));
          return;
        }
        hash.update(chunk);
        onBytes?.(chunk.length);
        callback(null, chunk);
      },
    });
    try {
      try {
        await pipeline(source, meter, createWriteStream(tmp, { flags: 'wx' }));
      } catch (err) {
        if (err instanceof InvalidRequestError) throw err;
        if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' || (err as NodeJS.ErrnoException).code === 'ECONNRESET') {
          throw new InvalidRequestError(`the upload ended after ${received} of ${expect.length} bytes`, { cause: err });
        }
        throw err;
      }
      if (received !== expect.length) {
        throw new InvalidRequestError(`the archive has ${received} bytes, but ${expect.length} were declared`);
      }
      const actual = hash.digest('hex');
      if (actual !== expect.digest.hex) {
        throw new InvalidRequestError(
          `digest mismatch: declared ${formatDigest(expect.digest)}, received ${expect.digest.algorithm}:${actual}`,
        );
      }
      if (this.options.sync && (await this.has(expect))) {
        removeLater(tmp);
        return;
      }
      if (this.options.sync) await syncPath(tmp);
      const target = this.pathOf(expect.digest);
      await rename(tmp, target);
      if (this.options.sync) await syncPath(join(this.root, expect.digest.algorithm));
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /**
   * Whether blob `expect` is stored already. Blobs are content-addressed and put in place only
   * once checked and synced: a file of the digest's name and the right length is that blob.
   * Without `sync`, a crash of the machine may leave such a file with other bytes, so a new
   * copy replaces it (`ingest` and `adopt` keep a stored blob only with `sync`).
   */
  async has(expect: IngestExpectation): Promise<boolean> {
    const st = await stat(this.pathOf(expect.digest)).catch(() => undefined);
    return st !== undefined && st.isFile() && st.size === expect.length;
  }

  /**
   * Moves `file` (on the store's file system, written and hashed by the controller itself:
   * an archive it made) into the store as blob `expect.digest`, without copying it. Checks
   * its length; the digest is the caller's, computed while it wrote the file.
   */
  async adopt(file: string, expect: IngestExpectation): Promise<void> {
    const { size } = await stat(file);
    if (size !== expect.length) throw new InvalidRequestError(`the archive has ${size} bytes, but ${expect.length} were declared`);
    if (this.options.sync && (await this.has(expect))) {
      removeLater(file);
      return;
    }
    if (this.options.sync) await syncPath(file);
    try {
      await rename(file, this.pathOf(expect.digest));
    } catch (err) {
      // Another file system: copied (and checked) instead.
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      return this.ingest(createReadStream(file), expect);
    }
    if (this.options.sync) await syncPath(join(this.root, expect.digest.algorithm));
  }

  /** A stream of the blob and its size; undefined when absent. */
  async open(digest: Digest): Promise<{ stream: ReadStream; size: number } | undefined> {
    const path = this.pathOf(digest);
    try {
      const { size } = await stat(path);
      return { stream: createReadStream(path), size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async remove(digest: Digest): Promise<void> {
    await rm(this.pathOf(digest), { force: true });
  }

  /** Every blob on disk. */
  async *list(): AsyncIterable<Digest> {
    for (const algorithm of Object.keys(DIGEST_ALGORITHMS)) {
      let names: string[];
      try {
        names = await readdir(join(this.root, algorithm));
      } catch {
        continue;
      }
      for (const name of names) {
        try {
          yield parseDigest(`${algorithm}:${name}`, 'blob');
        } catch {
          // Not one of ours; leave it alone.
        }
      }
    }
  }
}

/**
 * Removes a copy of a blob already stored, without waiting: freeing a large file's blocks takes
 * a while on some file systems (ext4 mounted with `discard`: about 20 ms for 58 MiB), and what
 * the caller asked for is done already. A file left by a failure or a stop is in a temporary
 * directory, cleared at start-up.
 */
function removeLater(file: string): void {
  void rm(file, { force: true }).catch(() => undefined);
}

/** fsync of a file or a directory (its entries). */
async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
