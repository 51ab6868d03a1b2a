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
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
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
  #seq = 0;

  /** `maxTarBytes`: the largest decompressed layer accepted (a guard against gzip bombs). */
  constructor(
    readonly dir: string,
    private readonly maxTarBytes: number,
  ) {}

  fileOf(digest: string): string {
    return join(this.dir, digest.replace(':', '-'));
  }

  /** Layer `d`, downloaded by `client` unless it is here already. */
  async get(client: RegistryClient, d: Descriptor, onStart: () => Promise<void>, onBytes: (n: number) => void): Promise<CachedLayer> {
    const file = this.fileOf(d.digest);
    const layer: LayerFile = { digest: d.digest, file, blobSize: d.size };
    return this.#locks.run(d.digest, async () => {
      if (await stat(file).catch(() => undefined)) return { layer, cached: true };
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
