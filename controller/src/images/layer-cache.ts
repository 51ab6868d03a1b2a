/**
 * Layers pulled before, kept by digest in `<dir>/sha256-<hex>`, so that a later pull of an
 * image sharing them does not fetch them again. A layer is kept as its tar, decompressed while
 * it downloads:
 *
 *   registry ─▶ size and digest checked (compressed bytes, as they come) ─▶ gunzip ─▶ the tar
 *   parsed for pass one of the flattening (paths checked, whiteouts) ─▶ file (then renamed)
 *
 * so that each layer is decompressed once, while the others still download, and the
 * flattening reads plain files. The speculative flattening follows a download as it is made
 * (GrowingLayer). The file gets its name only once the blob was read to its end
 * and found right; a refused blob leaves nothing. Files of an earlier version (the gzip blob
 * itself) are still read: the flattening tells them by their magic bytes. One download per
 * digest at a time; memory stays at a few chunks whatever the layer's size.
 */
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { KeyedLock } from '../util/keyed-lock.js';
import { FileAppender } from './file-appender.js';
import { decompressed, ImageError, INCOMPRESSIBLE, indexTar, STREAM_CHUNK, type LayerFile, type LayerIndex } from './flatten.js';
import type { Descriptor, RegistryClient } from './registry-client.js';

export interface CachedLayer {
  layer: LayerFile;
  /** Whether it was here already (else downloaded now). */
  cached: boolean;
  /** Pass one of the flattening, made while it downloaded (absent when it was here already). */
  index?: LayerIndex;
}

/**
 * The most recent bytes of a download that its follower takes from memory (bounded: these
 * chunks are held by the file's writer anyway while they are written).
 */
const RECENT = 4 * 1024 * 1024;

/**
 * A layer's tar as it is written to the cache while it downloads, for a reader that follows it
 * (the speculative flattening, flatten-live.ts): read from a handle opened when the file was
 * created, so that neither its rename nor its removal gets in the way. Whoever receives it
 * closes it (`chunks` does once read, or `close`).
 */
export class GrowingLayer {
  /** Bytes of the tar made so far (handed to the file, maybe not yet written). */
  #made = 0;
  /** Bytes of the tar in the file. */
  #written = 0;
  #compressed = 0;
  /** The last chunks made, up to RECENT bytes, and where the first starts in the tar. */
  #recent: Buffer[] = [];
  #recentBytes = 0;
  #recentStart = 0;
  #ended = false;
  #error: unknown;
  #wake: (() => void) | undefined;
  #closed = false;

  constructor(
    readonly digest: string,
    private readonly blobSize: number,
    private readonly reader: FileHandle,
  ) {}

  /** Whether the layer does not compress (flatten.ts INCOMPRESSIBLE): exact once downloaded, a hint until then. */
  incompressible(): boolean {
    if (this.#made === 0) return false;
    return (this.#ended && !this.#error ? this.blobSize : this.#compressed) / this.#made > INCOMPRESSIBLE;
  }

  /**
   * The layer's tar bytes, as they are made; fails when the download does. A reader that keeps
   * up takes the chunks as they were made; one that fell behind reads the file.
   */
  async *chunks(): AsyncGenerator<Buffer> {
    try {
      for (let at = 0; ; ) {
        if (at >= this.#recentStart && at < this.#made) {
          let start = this.#recentStart;
          for (const chunk of this.#recent) {
            if (at < start + chunk.length) {
              const piece = chunk.subarray(at - start);
              at += piece.length;
              yield piece;
              break;
            }
            start += chunk.length;
          }
          continue;
        }
        if (at < this.#written) {
          const buf = Buffer.allocUnsafe(Math.min(STREAM_CHUNK, this.#written - at, this.#recentStart - at));
          const { bytesRead } = await this.reader.read(buf, 0, buf.length, at);
          if (bytesRead === 0) throw new Error(`the cache file of layer ${this.digest} is shorter than written`);
          at += bytesRead;
          yield bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
          continue;
        }
        if (at < this.#made) {
          // Dropped from the recent chunks and not yet in the file: wait for the write.
          await new Promise<void>((resolve) => (this.#wake = resolve));
          continue;
        }
        if (this.#error) throw this.#error;
        if (this.#ended) return;
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      await this.close();
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.reader.close().catch(() => undefined);
  }

  /** From the download: `chunk` of the tar was made from `compressed` bytes of the blob so far (not to be changed afterwards). */
  made(chunk: Buffer, compressed: number): void {
    this.#made += chunk.length;
    this.#compressed = compressed;
    this.#recent.push(chunk);
    this.#recentBytes += chunk.length;
    while (this.#recentBytes > RECENT && this.#recent.length > 1) {
      const dropped = this.#recent.shift()!;
      this.#recentBytes -= dropped.length;
      this.#recentStart += dropped.length;
    }
    this.#signal();
  }

  /** From the download: `bytes` of the tar are in the file. */
  written(bytes: number): void {
    this.#written = bytes;
    this.#signal();
  }

  /** From the download: the layer is complete (and found right), or failed. */
  end(error?: unknown): void {
    this.#ended = true;
    this.#error = error;
    this.#signal();
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

export class LayerCache {
  readonly #locks = new KeyedLock();
  #seq = 0;

  /** `maxTarBytes`: the largest decompressed layer accepted (a guard against gzip bombs). */
  constructor(
    readonly dir: string,
    private readonly maxTarBytes: number,
  ) {}

  fileOf(digest: string): string {
    return join(this.dir, digest.replace(':', '-'));
  }

  /**
   * Layer `d`, downloaded by `client` unless it is here already. `onGrowing`: hears of a
   * download as its file is created, to follow it (it then owns the GrowingLayer).
   */
  async get(client: RegistryClient, d: Descriptor, onStart: () => Promise<void>, onBytes: (n: number) => void, onGrowing?: (layer: GrowingLayer) => void): Promise<CachedLayer> {
    const file = this.fileOf(d.digest);
    const layer: LayerFile = { digest: d.digest, file, blobSize: d.size };
    return this.#locks.run(d.digest, async () => {
      if (await stat(file).catch(() => undefined)) return { layer, cached: true };
      await onStart();
      const tmp = join(this.dir, `.tmp-${process.pid}-${++this.#seq}`);
      const handle = await open(tmp, 'wx');
      let compressed = 0;
      let growing: GrowingLayer | undefined;
      if (onGrowing) {
        const reader = await open(tmp, 'r').catch(async (err: unknown) => {
          await handle.close().catch(() => undefined);
          await rm(tmp, { force: true });
          throw err;
        });
        growing = new GrowingLayer(d.digest, d.size, reader);
        onGrowing(growing);
      }
      const out = new FileAppender(handle, growing ? { onWritten: (bytes) => growing?.written(bytes) } : {});
      const max = this.maxTarBytes;
      let written = 0;
      const tar = (async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          written += chunk.length;
          if (written > max) throw new ImageError(`layer ${d.digest} is over ${max} bytes decompressed, more than this cluster takes`);
          growing?.made(chunk, compressed);
          await out.write(chunk);
          yield chunk;
        }
      })(
        decompressed(
          client.blobChunks(d, (n) => {
            compressed += n;
            onBytes(n);
          }),
          d.digest,
        ),
      );
      try {
        const index = await indexTar(tar, d.digest);
        // The tar ends before the blob may (padding, end blocks): read to the end, where the
        // blob's size and digest are checked.
        for await (const _ of tar) void _;
        await out.close();
        await handle.close();
        await rename(tmp, file);
        growing?.end();
        return { layer, cached: false, index };
      } catch (err) {
        growing?.end(err);
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
