/**
 * Layers pulled before, kept by digest in `<dir>/sha256-<hex>`, so that a later pull of an
 * image sharing them does not fetch them again. A layer is kept as its tar, decompressed while
 * it downloads:
 *
 *   registry ─▶ size and digest checked (compressed bytes, as they come) ─▶ gunzip ─▶ the tar
 *   parsed for pass one of the flattening (paths checked, whiteouts) ─▶ file (then renamed)
 *
 * so that each layer is decompressed once, while the others still download, and the
 * flattening reads plain files. The file gets its name only once the blob was read to its end
 * and found right; a refused blob leaves nothing. Files of an earlier version (the gzip blob
 * itself) are still read: the flattening tells them by their magic bytes. One download per
 * digest at a time; memory stays at a few chunks whatever the layer's size.
 */
import { mkdir, open, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { KeyedLock } from '../util/keyed-lock.js';
import { FileAppender } from './file-appender.js';
import { decompressed, ImageError, indexTar, type LayerFile, type LayerIndex } from './flatten.js';
import type { Descriptor, RegistryClient } from './registry-client.js';

export interface CachedLayer {
  layer: LayerFile;
  /** Whether it was here already (else downloaded now). */
  cached: boolean;
  /** Pass one of the flattening, made while it downloaded (absent when it was here already). */
  index?: LayerIndex;
}

export class LayerCache {
  readonly #locks = new KeyedLock();
  /** Layers a pull uses now, by digest (a count: pulls may share a layer): never trimmed. */
  readonly #pins = new Map<string, number>();
  #seq = 0;

  /**
   * `maxTarBytes`: the largest decompressed layer accepted (a guard against gzip bombs).
   * `maxBytes`: what the cache may keep between pulls; `trim` removes the layers used least
   * recently past it (0: nothing is kept once the pulls that use a layer end).
   */
  constructor(
    readonly dir: string,
    private readonly maxTarBytes: number,
    readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  /** Keeps the layers `digests` from `trim` until the returned function is called (once). */
  pin(digests: readonly string[]): () => void {
    for (const d of digests) this.#pins.set(d, (this.#pins.get(d) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const d of digests) {
        const n = (this.#pins.get(d) ?? 1) - 1;
        if (n > 0) this.#pins.set(d, n);
        else this.#pins.delete(d);
      }
    };
  }

  /**
   * Removes the layers used least recently (a hit renews a layer's time) until the cache holds
   * at most `maxBytes`; pinned layers stay. A layer is removed under its digest's lock, after
   * the pin is checked again, so a pull that pinned it and found it there keeps it.
   */
  async trim(): Promise<{ removed: number; bytes: number; kept: number }> {
    const entries: { digest: string; file: string; size: number; used: number }[] = [];
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      if (!name.startsWith('sha256-')) continue;
      const file = join(this.dir, name);
      const st = await stat(file).catch(() => undefined);
      if (st?.isFile()) entries.push({ digest: name.replace('-', ':'), file, size: st.size, used: st.mtimeMs });
    }
    let total = entries.reduce((n, e) => n + e.size, 0);
    let removed = 0;
    let bytes = 0;
    entries.sort((a, b) => a.used - b.used);
    for (const e of entries) {
      if (total <= this.maxBytes) break;
      if (this.#pins.has(e.digest)) continue;
      const gone = await this.#locks.run(e.digest, async () => {
        if (this.#pins.has(e.digest)) return false;
        await rm(e.file, { force: true });
        return true;
      });
      if (!gone) continue;
      total -= e.size;
      removed++;
      bytes += e.size;
    }
    return { removed, bytes, kept: total };
  }

  /** Removes layer `digest` unless a pull uses it now (pinned), under its digest's lock. */
  async discard(digest: string): Promise<void> {
    await this.#locks.run(digest, async () => {
      if (!this.#pins.has(digest)) await rm(this.fileOf(digest), { force: true });
    });
  }

  fileOf(digest: string): string {
    return join(this.dir, digest.replace(':', '-'));
  }

  /** Layer `d`, downloaded by `client` unless it is here already. */
  async get(client: RegistryClient, d: Descriptor, onStart: () => Promise<void>, onBytes: (n: number) => void): Promise<CachedLayer> {
    const file = this.fileOf(d.digest);
    const layer: LayerFile = { digest: d.digest, file, blobSize: d.size };
    return this.#locks.run(d.digest, async () => {
      if (await stat(file).catch(() => undefined)) {
        // Used now: the layer is the most recently used for `trim`.
        const now = new Date();
        await utimes(file, now, now).catch(() => undefined);
        return { layer, cached: true };
      }
      await onStart();
      const tmp = join(this.dir, `.tmp-${process.pid}-${++this.#seq}`);
      const handle = await open(tmp, 'wx');
      const out = new FileAppender(handle);
      const max = this.maxTarBytes;
      let written = 0;
      const tar = (async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          written += chunk.length;
          if (written > max) throw new ImageError(`layer ${d.digest} is over ${max} bytes decompressed, more than this cluster takes`);
          await out.write(chunk);
          yield chunk;
        }
      })(decompressed(client.blobChunks(d, onBytes), d.digest));
      try {
        const index = await indexTar(tar, d.digest);
        // The tar ends before the blob may (padding, end blocks): read to the end, where the
        // blob's size and digest are checked.
        for await (const _ of tar) void _;
        await out.close();
        await handle.close();
        await rename(tmp, file);
        return { layer, cached: false, index };
      } catch (err) {
        await tar.return(undefined).catch(() => undefined); // ends the download when the tar was refused half way
        await handle.close().catch(() => undefined);
        await rm(tmp, { force: true });
        if (err instanceof ImageError) throw err;
        throw new ImageError(`layer ${d.digest} could not be pulled: ${(err as Error).message}`);
      }
    });
  }

  /** Removes partial downloads left by a stop. */
  async clean(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    for (const name of await readdir(this.dir)) if (name.startsWith('.tmp-')) await rm(join(this.dir, name), { force: true });
  }
}
