/**
 * The speculative flattening: the package archive written while the layers download, lowest
 * layer first, each layer read as it is written to the layer cache (GrowingLayer) or from its
 * cache file. Every entry is kept but whiteouts, opaque markers, devices and FIFOs, normalized
 * as the two-pass flattening does (flatten.ts copyEntry), and each layer is indexed as it is
 * read. Once all are written, the indexes tell whether a higher layer hid anything written
 * below it (a whiteout, an opaque directory, the same path defined again, but for a directory
 * over a directory of the same mode, which the extractor leaves as it is): if none did, the
 * archive is the flattened image, made in one pass instead of two (the layers are neither read
 * back nor parsed again once downloaded). Otherwise, or on any failure here (a hard link to a
 * file not yet written, a layer that fails), `run` answers undefined and the caller flattens in
 * two passes from the cache files (flattenLayers), which is what decides whether an image is
 * refused: this pass never refuses one.
 *
 * Layers are still downloaded concurrently and kept whole in the cache; the reader follows the
 * lowest layer not yet written, so memory stays at a few chunks whatever the image's size.
 */
import { open } from 'node:fs/promises';
import { checkedEntries, copyEntry, entriesOf, incompressible, noteEntry, visibleInside, type FlatArchive, type FlattenOptions, type LayerFile, type LayerIndex } from './flatten.js';
import { GzipFileWriter } from './gzip-file.js';
import type { GrowingLayer } from './layer-cache.js';
import { TarWriter } from './tar-stream.js';

/** A layer as the flattening gets it: following its download, or its complete cache file. */
export type LiveLayer = { growing: GrowingLayer } | { file: LayerFile };

interface Slot {
  promise: Promise<LiveLayer>;
  resolve: (layer: LiveLayer) => void;
  reject: (err: unknown) => void;
  given?: LiveLayer;
}

/** One layer's index, with the modes of its directories. */
interface Seen {
  index: LayerIndex;
  dirModes: Map<string, number>;
}

export class LiveFlatten {
  readonly #slots: Slot[];
  #closed = false;

  constructor(layers: number) {
    this.#slots = Array.from({ length: layers }, () => {
      const slot = {} as Slot;
      slot.promise = new Promise<LiveLayer>((resolve, reject) => Object.assign(slot, { resolve, reject }));
      slot.promise.catch(() => undefined);
      return slot;
    });
  }

  /** Layer `i` (lowest first), as it downloads or from the cache. */
  provide(i: number, layer: LiveLayer): void {
    const slot = this.#slots[i]!;
    if (this.#closed || slot.given) {
      if ('growing' in layer) void layer.growing.close();
      return;
    }
    slot.given = layer;
    slot.resolve(layer);
  }

  /** The pull failed: the layers not provided will not be. */
  fail(err: unknown): void {
    for (const slot of this.#slots) if (!slot.given) slot.reject(err);
  }

  /** Once `run` ended: releases the downloads not read (and any provided later). */
  async close(): Promise<void> {
    this.#closed = true;
    this.fail(new Error('closed'));
    for (const slot of this.#slots) if (slot.given && 'growing' in slot.given) await slot.given.growing.close();
  }

  /**
   * Writes the archive to `target` as the layers come: the flattened image when nothing
   * written was hidden by a higher layer, else undefined (the file then holds nothing useful).
   */
  async run(target: string, options: FlattenOptions = {}): Promise<FlatArchive | undefined> {
    const file = await open(target, 'w');
    const gzip = new GzipFileWriter(file, options);
    let done = false;
    try {
      const tar = new TarWriter(gzip);
      const files = new Set<string>();
      const seen: Seen[] = [];
      let entries = 0;
      for (const slot of this.#slots) {
        const layer = await slot.promise;
        const digest = 'growing' in layer ? layer.growing.digest : layer.file.digest;
        const items = 'growing' in layer ? checkedEntries(layer.growing.chunks(), digest) : entriesOf(layer.file);
        const stored = options.compression === 'stored' ? true : 'file' in layer ? await incompressible(layer.file) : undefined;
        const own: Seen = { index: { defined: new Map(), whiteouts: [], opaques: [] }, dirModes: new Map() };
        seen.push(own);
        for await (const { entry, body } of items) {
          const path = noteEntry(own.index, entry, digest);
          if (path === undefined) continue;
          if (entry.type === 'Directory') own.dirModes.set(path, entry.mode & 0o1777);
          // A download's compression so far is a hint (exact once it is complete).
          await gzip.section((stored ?? (layer as { growing: GrowingLayer }).growing.incompressible()) ? 'stored' : 'huffman');
          entries++;
          await copyEntry(tar, path, entry, body, files, digest);
        }
      }
      if (!nothingHidden(seen)) return undefined;
      await tar.finish();
      const { length, digest } = await gzip.finish();
      done = true;
      return { length, digest, entries };
    } catch {
      return undefined;
    } finally {
      if (!done) await gzip.abandon();
      await file.close();
    }
  }
}

/**
 * Whether no layer hides anything of the layers below it (so that keeping every entry, lowest
 * layer first, is the flattened image), for the layers' indexes lowest first.
 */
export function nothingHidden(layers: readonly Seen[]): boolean {
  const above = new Map<string, 'dir' | 'other'>();
  const aboveModes = new Map<string, number>();
  const hidden = new Set<string>();
  const opaque = new Set<string>();
  for (let i = layers.length - 1; i >= 0; i--) {
    const { index, dirModes } = layers[i]!;
    for (const [path, kind] of index.defined) {
      if (!visibleInside(path, above, hidden, opaque)) return false;
      const over = above.get(path);
      if (over !== undefined && !(over === 'dir' && kind === 'dir' && aboveModes.get(path) === dirModes.get(path))) return false;
    }
    for (const [path, kind] of index.defined) {
      above.set(path, kind);
      if (kind === 'dir') aboveModes.set(path, dirModes.get(path)!);
    }
    for (const w of index.whiteouts) hidden.add(w);
    for (const o of index.opaques) opaque.add(o);
  }
  return true;
}
