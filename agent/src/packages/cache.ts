/**
 * The package archive cache: `<data>/cache/<alg>/<hex>`, one file per distinct archive.
 *
 * An archive is fetched from the controller (FetchBlob, streamed to a temporary file while its
 * digest is computed), checked against the declared length and digest, and renamed into place
 * only when both match: a file in the cache is always a verified archive. Concurrent requests
 * for one digest share one download. Files are kept across restarts (reused by later instances).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { parseDigest as parseSharedDigest } from '@platform/proto/common';
import type { AgentMetrics } from '../metrics/metrics.js';


/** Where archive bytes come from (the controller's FetchBlob in production). */
export interface BlobSource {
  /** The archive with `digest`, as a stream of chunks; rejects/throws when the controller cannot serve it. */
  fetch(digest: string, signal: AbortSignal): AsyncIterable<Uint8Array>;
}

export class PackageError extends Error {
  override readonly name: string = 'PackageError';
}

/** `<alg>:<hex>` of a package archive (the shared parser; no bare SHA-1 here), or PackageError. */
export function parseDigest(digest: string): { alg: string; hex: string } {
  try {
    const d = parseSharedDigest(digest);
    return { alg: d.algorithm, hex: d.hex };
  } catch {
    throw new PackageError(`invalid package digest "${digest}"`);
  }
}

export class PackageCache {
  readonly #inflight = new Map<string, Promise<string>>();

  constructor(
    private readonly dir: string,
    private readonly source: BlobSource,
    private readonly metrics?: AgentMetrics,
  ) {}

  /** The verified archive file for `digest` of `length` bytes, fetching it when not cached. */
  async get(digest: string, length: number, signal: AbortSignal): Promise<string> {
    const { alg, hex } = parseDigest(digest);
    const file = join(this.dir, alg, hex);
    try {
      const st = await stat(file);
      if (st.size === length) {
        this.metrics?.cacheHits.inc();
        return file;
      }
    } catch {
      // not cached
    }
    const key = `${alg}:${hex}`;
    let p = this.#inflight.get(key);
    if (!p) {
      this.metrics?.cacheMisses.inc();
      p = this.#download(key, alg, hex, length, file, signal).finally(() => this.#inflight.delete(key));
      this.#inflight.set(key, p);
    }
    return p;
  }

  async #download(digest: string, alg: string, hex: string, length: number, file: string, signal: AbortSignal): Promise<string> {
    const tmpDir = join(this.dir, 'tmp');
    await mkdir(tmpDir, { recursive: true });
    await mkdir(join(this.dir, alg), { recursive: true });
    const tmp = join(tmpDir, `${hex.slice(0, 16)}-${randomBytes(6).toString('hex')}`);
    const hash = createHash(alg);
    const out = createWriteStream(tmp);
    // A write error (disk full) or a destroy with writes pending must never be an uncaught
    // 'error': keep it, and fail the download with it.
    let writeError: Error | undefined;
    out.on('error', (err) => (writeError ??= err));
    let bytes = 0;
    try {
      for await (const chunk of this.source.fetch(digest, signal)) {
        bytes += chunk.length;
        this.metrics?.bytesFetched.inc(chunk.length);
        if (bytes > length) throw new PackageError(`package archive ${digest} is longer than its declared ${length} bytes`);
        hash.update(chunk);
        if (writeError) throw writeError;
        if (!out.write(chunk)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'close');
      if (writeError) throw writeError;
      if (bytes !== length) throw new PackageError(`package archive ${digest} has ${bytes} bytes, ${length} declared`);
      const got = hash.digest('hex');
      if (got !== hex) throw new PackageError(`package archive ${digest} does not match its digest (got ${alg}:${got})`);
      await rename(tmp, file);
      return file;
    } catch (err) {
      out.destroy();
      await rm(tmp, { force: true });
      if (err instanceof PackageError) throw err;
      throw new PackageError(`cannot fetch package archive ${digest}: ${(err as Error).message}`);
    }
  }

  /** Removes downloads that a crash interrupted. */
  async cleanTmp(): Promise<void> {
    await rm(join(this.dir, 'tmp'), { recursive: true, force: true });
  }
}
