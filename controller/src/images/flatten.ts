/**
 * Flattens the layers of an image (gzip or plain tar files, lowest first) into one package
 * archive (gzip tar, paths from the image's root), applying the OCI layer rules:
 *
 * - an entry of a higher layer replaces the same path below (a directory over a directory
 *   keeps the lower one's content; anything else over a directory hides its content);
 * - `.wh.<name>` (whiteout) hides `<name>` and everything under it in the layers below;
 * - `.wh..wh..opq` (opaque directory) hides what the layers below have in its directory.
 *
 * Two passes: the first reads every layer's headers, top layer first, and finds which entries
 * survive (and refuses a bad layer before anything is written); the second copies the
 * survivors, lowest layer first, so that directories and hard-link targets come before what
 * needs them. Memory holds paths, never file contents.
 *
 * Refused (ImageError): a path with a `..` component, a symlink whose target resolved from its
 * directory leaves the image's root (absolute targets are rewritten relative, as package
 * archives carry no absolute links), a hard link to anything but a regular file already
 * written, a corrupt layer. Devices and FIFOs are left out (instances get their own /dev).
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { posix } from 'node:path';
import type { TransformOptions } from 'node:stream';
import { createGunzip, type ZlibOptions } from 'node:zlib';
import { GzipFileWriter } from './gzip-file.js';
import { readTar, TarFormatError, TarWriter, type TarEntry } from './tar-stream.js';

export class ImageError extends Error {}

const WHITEOUT = '.wh.';
const OPAQUE = '.wh..wh..opq';

/** `path` relative to the root, without `.` or empty components; throws on `..`. */
export function normalizeEntryPath(path: string, layer: string): string {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new ImageError(`layer ${layer}: entry "${path}" has a ".." component`);
  return parts.join('/');
}

/**
 * The target of a symlink at `path`, made relative to its directory; throws when it resolves
 * outside the root.
 */
export function safeLinkTarget(path: string, target: string, layer: string): string {
  if (target === '') throw new ImageError(`layer ${layer}: symlink "${path}" has an empty target`);
  const dir = posix.dirname(`/${path}`);
  const stack: string[] = target.startsWith('/') ? [] : dir.split('/').filter(Boolean);
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (stack.length === 0) throw new ImageError(`layer ${layer}: symlink "${path}" -> "${target}" escapes the image's root`);
      stack.pop();
    } else stack.push(part);
  }
  if (!target.startsWith('/')) return target;
  const rel = posix.relative(dir, `/${stack.join('/')}`);
  return rel === '' ? '.' : rel;
}

export interface LayerFile {
  /** sha256:<hex>, for messages. */
  digest: string;
  file: string;
}

/**
 * Whether a layer's content does not compress: a gzip layer whose compressed size is over
 * INCOMPRESSIBLE of its uncompressed size (the gzip trailer's ISIZE: the size modulo 2^32 of
 * the last member, so only a hint, which is all this needs). Random or already compressed data
 * (media, archives, compressed binaries) is copied into the package archive in stored blocks:
 * Huffman coding costs five times as much CPU there and saves a few percent at best.
 */
const INCOMPRESSIBLE = 0.85;

/**
 * The size of the chunks of the layers' read and gunzip streams. Each chunk crosses to the
 * thread pool and back, which a busy host makes costly; larger chunks cut crossings but cost
 * as much again in garbage collection (1 MiB measured no better). The archive is written in
 * batches of its own (gzip-file.ts).
 */
export const STREAM_CHUNK = 256 * 1024;

async function incompressible(layer: LayerFile): Promise<boolean> {
  const handle = await open(layer.file, 'r');
  try {
    const { size } = await handle.stat();
    if (size < 18) return false;
    const head = Buffer.alloc(2);
    const tail = Buffer.alloc(4);
    await handle.read(head, 0, 2, 0);
    await handle.read(tail, 0, 4, size - 4);
    if (head[0] !== 0x1f || head[1] !== 0x8b) return false;
    const isize = tail.readUInt32LE(0);
    return isize > 0 && size / isize > INCOMPRESSIBLE;
  } finally {
    await handle.close();
  }
}

/** The layer's bytes, decompressed when gzip (by its magic bytes). */
async function layerStream(layer: LayerFile): Promise<AsyncIterable<Buffer>> {
  const handle = await open(layer.file, 'r');
  const magic = Buffer.alloc(2);
  try {
    await handle.read(magic, 0, 2, 0);
  } finally {
    await handle.close();
  }
  const raw = createReadStream(layer.file, { highWaterMark: STREAM_CHUNK });
  if (magic[0] === 0x1f && magic[1] === 0x8b) {
    // Zlib streams take Transform's options too (their typings leave them out).
    const options: ZlibOptions & TransformOptions = { chunkSize: STREAM_CHUNK, readableHighWaterMark: STREAM_CHUNK };
    const gunzip = createGunzip(options);
    raw.on('error', (err) => gunzip.destroy(err));
    return raw.pipe(gunzip);
  }
  if (magic[0] === 0x28 && magic[1] === 0xb5) {
    raw.destroy();
    throw new ImageError(`layer ${layer.digest} is zstd-compressed; gzip and plain tar layers are supported`);
  }
  return raw;
}

async function* entriesOf(layer: LayerFile) {
  try {
    for await (const item of readTar(await layerStream(layer))) yield item;
  } catch (err) {
    if (err instanceof ImageError) throw err;
    if (err instanceof TarFormatError || (err as NodeJS.ErrnoException).code?.startsWith('Z_')) {
      throw new ImageError(`layer ${layer.digest} is not a valid tar archive: ${(err as Error).message}`);
    }
    throw err;
  }
}

export interface LayerIndex {
  /** Paths the layer defines (not whiteouts), with their kind. */
  defined: Map<string, 'dir' | 'other'>;
  whiteouts: string[];
  opaques: string[];
}

/** Pass one, for one layer: what it defines and hides (and its paths checked). */
export async function indexLayer(layer: LayerFile): Promise<LayerIndex> {
  const index: LayerIndex = { defined: new Map(), whiteouts: [], opaques: [] };
  for await (const { entry } of entriesOf(layer)) {
    const path = normalizeEntryPath(entry.path, layer.digest);
    if (path === '') continue;
    const base = posix.basename(path);
    const dir = posix.dirname(path) === '.' ? '' : posix.dirname(path);
    if (base === OPAQUE) {
      index.opaques.push(dir);
      continue;
    }
    if (base.startsWith(WHITEOUT)) {
      if (!base.startsWith(`${WHITEOUT}${WHITEOUT}`)) index.whiteouts.push(dir ? `${dir}/${base.slice(WHITEOUT.length)}` : base.slice(WHITEOUT.length));
      continue;
    }
    if (entry.type === 'SymbolicLink') safeLinkTarget(path, entry.linkpath, layer.digest);
    if (entry.type === 'Link') normalizeEntryPath(entry.linkpath, layer.digest);
    if (entry.type === 'Other') continue;
    index.defined.set(path, entry.type === 'Directory' ? 'dir' : 'other');
  }
  return index;
}

interface Survivors {
  /** Per layer above the bottom one, the paths that survive; the bottom layer is filtered by `visible`. */
  keep: (Set<string> | undefined)[];
  above: Map<string, 'dir' | 'other'>;
  hidden: Set<string>;
  opaque: Set<string>;
}

/**
 * Pass one: which entries of each layer survive. Only the layers above the bottom one are
 * read (concurrently: decompression runs on the thread pool); the bottom layer's entries are
 * checked against what is above them while they are copied.
 */
async function survivors(layers: readonly LayerFile[], made: readonly (Promise<LayerIndex> | undefined)[]): Promise<Survivors> {
  const indexes = await Promise.all(layers.slice(1).map((l, i) => made[i + 1] ?? indexLayer(l)));
  const above = new Map<string, 'dir' | 'other'>(); // defined by a higher layer
  const hidden = new Set<string>(); // whited out by a higher layer (with their subtrees)
  const opaque = new Set<string>(); // directories whose lower content is hidden
  const keep: (Set<string> | undefined)[] = layers.map(() => undefined);
  for (let i = layers.length - 1; i >= 1; i--) {
    const index = indexes[i - 1]!;
    const kept = new Set<string>();
    for (const path of index.defined.keys()) if (visible(path, above, hidden, opaque)) kept.add(path);
    for (const path of kept) above.set(path, index.defined.get(path)!);
    for (const w of index.whiteouts) hidden.add(w);
    for (const o of index.opaques) opaque.add(o);
    keep[i] = kept;
  }
  return { keep, above, hidden, opaque };
}

/** Whether `path` of a lower layer shows through what the higher layers did. */
function visible(path: string, above: Map<string, 'dir' | 'other'>, hidden: Set<string>, opaque: Set<string>): boolean {
  if (above.has(path) || hidden.has(path)) return false;
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
    const ancestor = path.slice(0, i);
    if (hidden.has(ancestor) || opaque.has(ancestor) || above.get(ancestor) === 'other') return false;
  }
  return !opaque.has('');
}

export interface FlatArchive {
  length: number;
  /** sha256:<hex> of the gzip file. */
  digest: string;
  entries: number;
}

/**
 * Writes the flattened image of `layers` (lowest first) to `target` as a gzip tar. `indexes`:
 * pass one of some layers, started earlier (as each layer arrived), by position.
 */
export async function flattenLayers(layers: readonly LayerFile[], target: string, indexes: readonly (Promise<LayerIndex> | undefined)[] = []): Promise<FlatArchive> {
  const { keep, above, hidden, opaque } = await survivors(layers, indexes);
  const file = await open(target, 'w');
  try {
    // Layers whose content does not compress (see INCOMPRESSIBLE) go in stored blocks; the
    // others are Huffman-coded only: about seven times faster than deflate's level 1 (which
    // searches for repeats), for archives some 5-30% larger. The controller flattens on its own
    // cores; agents fetch the archive once per host.
    const gzip = new GzipFileWriter(file);
    const tar = new TarWriter(gzip);
    const files = new Set<string>();
    let entries = 0;
    for (let i = 0; i < layers.length; i++) {
      const layer = layers[i]!;
      const kept = keep[i];
      if (kept && kept.size === 0) continue;
      await gzip.section((await incompressible(layer)) ? 'stored' : 'huffman');
      const wanted = kept
        ? (path: string) => kept.has(path)
        : (path: string, entry: TarEntry) => path !== '' && entry.type !== 'Other' && !posix.basename(path).startsWith(WHITEOUT) && visible(path, above, hidden, opaque);
      for await (const { entry, body } of entriesOf(layer)) {
        const path = normalizeEntryPath(entry.path, layer.digest);
        if (!wanted(path, entry)) continue;
        entries++;
        await copyEntry(tar, path, entry, body, files, layer.digest);
      }
    }
    await tar.finish();
    const { length, digest } = await gzip.finish();
    return { length, digest, entries };
  } finally {
    await file.close();
  }
}

async function copyEntry(tar: TarWriter, path: string, entry: TarEntry, body: AsyncIterable<Buffer>, files: Set<string>, layer: string): Promise<void> {
  const mode = entry.mode & 0o1777; // no setuid/setgid
  switch (entry.type) {
    case 'Directory':
      files.delete(path);
      return tar.add({ path, type: 'Directory', mode, size: 0, ...optionalMtime(entry) });
    case 'SymbolicLink':
      files.delete(path);
      return tar.add({ path, type: 'SymbolicLink', mode: 0o777, size: 0, linkpath: safeLinkTarget(path, entry.linkpath, layer), ...optionalMtime(entry) });
    case 'Link': {
      const target = normalizeEntryPath(entry.linkpath, layer);
      if (!files.has(target)) throw new ImageError(`layer ${layer}: hard link "${path}" names "${entry.linkpath}", not a regular file of the image`);
      return tar.add({ path, type: 'Link', mode, size: 0, linkpath: target, ...optionalMtime(entry) });
    }
    case 'File':
      files.add(path);
      return tar.add({ path, type: 'File', mode, size: entry.size, ...optionalMtime(entry) }, body);
    default:
      return;
  }
}

function optionalMtime(entry: TarEntry): { mtime?: Date } {
  return entry.mtime ? { mtime: entry.mtime } : {};
}
