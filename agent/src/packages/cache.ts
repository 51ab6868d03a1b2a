/**
 * The package archive cache: `<data>/cache/<alg>/<hex>`, one file per distinct archive.
 *
 * An archive is fetched from the controller (FetchBlob, streamed to a temporary file while its
 * digest is computed), checked against the declared length and digest, and renamed into place
 * only when both match: a file in the cache is always a verified archive. Concurrent requests
 * for one digest share one download. Files are kept across restarts (reused by later instances),
 * up to `maxBytes`: past it, archives not in use are evicted, least recently used first. A
 * download needs its declared length free on the file system (else the instance fails saying so).
 */
import { createHash, randomBytes } from 'node:crypto';
import { statfsSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { DIGEST_ALGORITHMS, parseDigest as parseSharedDigest } from '@platform/proto/common';
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

export interface PackageCacheOptions {
  /**
   * Most bytes of archives kept (default 4 GiB). Archives not in use are evicted, least
   * recently used first, to stay under it; one in use (being extracted) is never removed, so the
   * cache can pass the bound while a larger archive is being used.
   */
  maxBytes?: number;
  /** Free space of the file system, in bytes (tests); default statfs of the cache directory. */
  freeBytes?: () => number;
  now?: () => number;
}

export const DEFAULT_CACHE_MAX_BYTES = 4 * 1024 ** 3;

interface CacheEntry {
  size: number;
  usedMs: number;
}

/** The file system's free space for unprivileged writers, or Infinity when it cannot be read. */
function statfsFree(dir: string): number {
  try {
    const fs = statfsSync(dir);
    return Number(fs.bavail) * Number(fs.bsize);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export class PackageCache {
  readonly #inflight = new Map<string, Promise<string>>();
  /** What is in the cache (path -> size, last use), as far as this process knows. */
  readonly #entries = new Map<string, CacheEntry>();
  /** Archives in use (path -> users): never evicted. */
  readonly #pins = new Map<string, number>();
  #total = 0;
  readonly maxBytes: number;
  readonly #freeBytes: () => number;
  readonly #now: () => number;

  constructor(
    private readonly dir: string,
    private readonly source: BlobSource,
    private readonly metrics?: AgentMetrics,
    opts: PackageCacheOptions = {},
  ) {
    this.maxBytes = opts.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    this.#freeBytes = opts.freeBytes ?? (() => statfsFree(dir));
    this.#now = opts.now ?? Date.now;
  }

  /** Bytes of archives in the cache. */
  get size(): number {
    return this.#total;
  }

  /** Reads what an earlier run left in the cache (last use = modification time), then evicts to the bound. */
  async load(): Promise<void> {
    for (const alg of Object.keys(DIGEST_ALGORITHMS)) {
      let names: string[];
      try {
        names = await readdir(join(this.dir, alg));
      } catch {
        continue;
      }
      for (const name of names) {
        const file = join(this.dir, alg, name);
        try {
          const st = await stat(file);
          if (st.isFile()) this.#remember(file, st.size, st.mtimeMs);
        } catch {
          // removed meanwhile
        }
      }
    }
    await this.#evict(0);
  }

  /**
   * Runs `fn` with the verified archive file for `digest` (fetched when not cached); the file
   * is not evicted while `fn` runs.
   */
  async use<T>(digest: string, length: number, signal: AbortSignal, fn: (file: string) => Promise<T>): Promise<T> {
    const { alg, hex } = parseDigest(digest);
    // Pinned before it is looked up: an eviction running meanwhile (another download) skips it.
    const file = join(this.dir, alg, hex);
    this.#pins.set(file, (this.#pins.get(file) ?? 0) + 1);
    try {
      return await fn(await this.get(digest, length, signal));
    } finally {
      const n = (this.#pins.get(file) ?? 1) - 1;
      if (n > 0) this.#pins.set(file, n);
      else this.#pins.delete(file);
    }
  }

  /**
   * The verified archive file for `digest` of `length` bytes, fetching it when not cached.
   * Not pinned: a later download may evict it (use `use` to read it safely).
   */
  async get(digest: string, length: number, signal: AbortSignal): Promise<string> {
    const { alg, hex } = parseDigest(digest);
    const file = join(this.dir, alg, hex);
    try {
      const st = await stat(file);
      if (st.size === length) {
        this.metrics?.cacheHits.inc();
        this.#remember(file, st.size, this.#now());
        // The last use survives a restart as the modification time.
        await utimes(file, st.atime, new Date(this.#now())).catch(() => undefined);
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

  #remember(file: string, size: number, usedMs: number): void {
    const old = this.#entries.get(file);
    this.#total += size - (old?.size ?? 0);
    this.#entries.set(file, { size, usedMs });
  }

  /** Removes archives not in use, least recently used first, until `incoming` more bytes fit under the bound. */
  async #evict(incoming: number): Promise<void> {
    if (this.#total + incoming <= this.maxBytes) return;
    const candidates = [...this.#entries].filter(([file]) => !this.#pins.has(file)).sort((a, b) => a[1].usedMs - b[1].usedMs);
    for (const [file, e] of candidates) {
      if (this.#total + incoming <= this.maxBytes) break;
      if (this.#pins.has(file) || this.#entries.get(file) !== e) continue;
      this.#entries.delete(file);
      this.#total -= e.size;
      await rm(file, { force: true });
      this.metrics?.cacheEvictions.inc();
    }
  }

  async #download(digest: string, alg: string, hex: string, length: number, file: string, signal: AbortSignal): Promise<string> {
    // Room first: the bound, then the file system (the archive must fit with what instances may still use).
    await this.#evict(length);
    const free = this.#freeBytes();
    if (length > free) {
      throw new PackageError(`no room on the agent's disk for package archive ${digest}: ${length} bytes needed, ${Math.max(0, free)} free`);
    }
    const tmpDir = join(this.dir, 'tmp');
    await mkdir(tmpDir, { recursive: true });
    await mkdir(join(this.dir, alg), { recursive: true });
    const tmp = join(tmpDir, `${hex.slice(0, 16)}-${randomBytes(6).toString('hex')}`);
    const hash = createHash(alg);
    // Opened (and so created) before anything can fail: the cleanup below then always finds
    // and removes it. (A write stream opens its file later, on its own: a failure before that
    // removed nothing, and the file appeared afterwards, left behind in tmp/.)
    const out = await open(tmp, 'wx', 0o644);
    let bytes = 0;
    try {
      try {
        for await (const chunk of this.source.fetch(digest, signal)) {
          bytes += chunk.length;
          this.metrics?.bytesFetched.inc(chunk.length);
          if (bytes > length) throw new PackageError(`package archive ${digest} is longer than its declared ${length} bytes`);
          hash.update(chunk);
          await out.write(chunk);
        }
      } finally {
        await out.close();
      }
      if (bytes !== length) throw new PackageError(`package archive ${digest} has ${bytes} bytes, ${length} declared`);
      const got = hash.digest('hex');
      if (got !== hex) throw new PackageError(`package archive ${digest} does not match its digest (got ${alg}:${got})`);
      await rename(tmp, file);
      this.#remember(file, length, this.#now());
      return file;
    } catch (err) {
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
