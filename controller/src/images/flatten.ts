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
import { open, type FileHandle } from 'node:fs/promises';
import { posix } from 'node:path';
import { Readable, type TransformOptions } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, type ZlibOptions } from 'node:zlib';
import { MIB_BUFFERS } from './buffer-pool.js';
import { GzipFileWriter } from './gzip-file.js';
import { readTar, TarFormatError, TarWriter, type TarEntry, type TarItem } from './tar-stream.js';

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
  /** The layer's tar, gzip-compressed or not (told by its magic bytes). */
  file: string;
  /** For a file holding the layer decompressed: the size of the blob it came from (a hint). */
  blobSize?: number;
}

/**
 * Whether a layer's content does not compress: its compressed size is over INCOMPRESSIBLE of
 * its uncompressed size (for a gzip file, the gzip trailer's ISIZE: the size modulo 2^32 of
 * the last member, so only a hint, which is all this needs; for a decompressed file, the size
 * of the blob it came from: a layer the registry held uncompressed counts as not compressing,
 * as it was not compressed where it came from). Random or already compressed data
 * (media, archives, compressed binaries) is copied into the package archive in stored blocks:
 * Huffman coding costs five times as much CPU there and saves a few percent at best.
 */
const INCOMPRESSIBLE = 0.85;

/**
 * The size of the chunks of the layers' reads and of gunzip's output, and of what gunzip is
 * given at a time. Each chunk through zlib crosses to the thread pool and back, costly on a
 * busy host; 1 MiB chunks took about a sixth less CPU than 256 KiB ones for the benchmark
 * image's download (gunzip fed with network reads of 16-64 KiB gathered to this size).
 */
export const STREAM_CHUNK = 1024 * 1024;

async function incompressible(layer: LayerFile): Promise<boolean> {
  const handle = await open(layer.file, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(2);
    await handle.read(head, 0, 2, 0);
    if (head[0] !== 0x1f || head[1] !== 0x8b) return layer.blobSize !== undefined && size > 0 && layer.blobSize / size > INCOMPRESSIBLE;
    if (size < 18) return false;
    const tail = Buffer.alloc(4);
    await handle.read(tail, 0, 4, size - 4);
    const isize = tail.readUInt32LE(0);
    return isize > 0 && size / isize > INCOMPRESSIBLE;
  } finally {
    await handle.close();
  }
}

const isGzip = (head: Buffer) => head[0] === 0x1f && head[1] === 0x8b;
const isZstd = (head: Buffer) => head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd;

/**
 * `source` (a layer's bytes) decompressed when it is gzip, by its magic bytes; as it is when
 * it is a plain tar. Refuses zstd.
 */
export async function* decompressed(source: AsyncIterable<Buffer>, digest: string): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  try {
    let head: Buffer = Buffer.alloc(0);
    while (head.length < 4) {
      const next = await it.next();
      if (next.done) break;
      head = head.length === 0 ? next.value : Buffer.concat([head, next.value]);
    }
    if (isZstd(head)) throw new ImageError(`layer ${digest} is zstd-compressed; gzip and plain tar layers are supported`);
    // Gathered into chunks of STREAM_CHUNK at least: each chunk written to gunzip crosses to
    // the thread pool and back, and a network read is often 16-64 KiB.
    const all = async function* () {
      let gathered: Buffer[] = head.length > 0 ? [head] : [];
      let bytes = head.length;
      if (bytes >= STREAM_CHUNK) {
        // A file's first read: whole already (gathered with the next, it would be copied).
        yield head;
        gathered = [];
        bytes = 0;
      }
      for (let next = await it.next(); !next.done; next = await it.next()) {
        gathered.push(next.value);
        bytes += next.value.length;
        if (bytes >= STREAM_CHUNK) {
          yield gathered.length === 1 ? gathered[0]! : Buffer.concat(gathered, bytes);
          gathered = [];
          bytes = 0;
        }
      }
      if (bytes > 0) yield gathered.length === 1 ? gathered[0]! : Buffer.concat(gathered, bytes);
    };
    if (!isGzip(head)) {
      yield* all();
      return;
    }
    // Zlib streams take Transform's options too (their typings leave them out).
    const options: ZlibOptions & TransformOptions = { chunkSize: STREAM_CHUNK, readableHighWaterMark: STREAM_CHUNK };
    const gunzip = createGunzip(options);
    // A failure of the source (a wrong digest at its end) destroys gunzip with it, and so
    // reaches the reader below; gunzip ends only after the source did.
    const fed = pipeline(Readable.from(all(), { objectMode: false }), gunzip);
    fed.catch(() => undefined);
    yield* gunzip as AsyncIterable<Buffer>;
    await fed;
  } finally {
    await it.return?.();
  }
}

/** The entries of a layer's tar stream (decompressed), its format errors ImageErrors. */
async function* checkedEntries(source: AsyncIterable<Buffer>, digest: string) {
  try {
    for await (const item of readTar(source)) yield item;
  } catch (err) {
    if (err instanceof ImageError) throw err;
    if (err instanceof TarFormatError || (err as NodeJS.ErrnoException).code?.startsWith('Z_')) {
      throw new ImageError(`layer ${digest} is not a valid tar archive: ${(err as Error).message}`);
    }
    throw err;
  }
}

async function* entriesOf(layer: LayerFile) {
  const reader = await PooledFileReader.open(layer.file);
  if (!reader) {
    // A gzip file (a layer cached by an earlier version): through gunzip, which holds on to
    // its input, so read into buffers of its own.
    const raw = createReadStream(layer.file, { highWaterMark: STREAM_CHUNK });
    yield* checkedEntries(decompressed(raw, layer.digest), layer.digest);
    return;
  }
  try {
    yield* checkedEntries(reader.chunks(), layer.digest);
  } finally {
    // The tar reader is done with every chunk once the entries ended (or were given up).
    await reader.close();
  }
}

/**
 * A plain (uncompressed) layer file read in chunks of MIB_BUFFERS, one read ahead. A chunk
 * stays as it is until the reader has been asked for two more (the tar reader copies what it
 * keeps of a chunk when the next one comes); `close` gives the rest back.
 */
export class PooledFileReader {
  readonly #taken: Buffer[] = [];
  #ahead: Promise<unknown> | undefined;

  private constructor(readonly handle: FileHandle) {}

  /** The reader of `file`, or undefined when it is gzip-compressed. */
  static async open(file: string): Promise<PooledFileReader | undefined> {
    const handle = await open(file, 'r');
    try {
      const head = Buffer.alloc(2);
      await handle.read(head, 0, 2, 0);
      if (isGzip(head)) {
        await handle.close();
        return undefined;
      }
    } catch (err) {
      await handle.close();
      throw err;
    }
    return new PooledFileReader(handle);
  }

  async *chunks(): AsyncGenerator<Buffer> {
    let position = 0;
    const read = () => {
      const buf = MIB_BUFFERS.take();
      this.#taken.push(buf);
      const reading = this.handle.read(buf, 0, buf.length, position).then(({ bytesRead }) => {
        position += bytesRead;
        return { buf, bytesRead };
      });
      this.#ahead = reading.catch(() => undefined);
      return reading;
    };
    for (let next = read(); ; ) {
      const { buf, bytesRead } = await next;
      if (bytesRead === 0) return;
      next = read();
      // Held: the chunk before this one (the tar reader may keep its tail until it has this
      // one), this one, and the next, being read.
      if (this.#taken.length > 3) MIB_BUFFERS.give(this.#taken.shift()!);
      yield buf.subarray(0, bytesRead);
    }
  }

  async close(): Promise<void> {
    await this.#ahead;
    await this.handle.close();
    for (const buf of this.#taken.splice(0)) MIB_BUFFERS.give(buf);
  }
}

export interface LayerIndex {
  /** Paths the layer defines (not whiteouts), with their kind. */
  defined: Map<string, 'dir' | 'other'>;
  whiteouts: string[];
  opaques: string[];
}

/** Pass one, for one layer file: what it defines and hides (and its paths checked). */
export function indexLayer(layer: LayerFile): Promise<LayerIndex> {
  return indexEntries(entriesOf(layer), layer.digest);
}

/** Pass one, for the bytes of layer `digest` as they come (decompressed). */
export function indexTar(source: AsyncIterable<Buffer>, digest: string): Promise<LayerIndex> {
  return indexEntries(checkedEntries(source, digest), digest);
}

async function indexEntries(entries: AsyncIterable<TarItem>, digest: string): Promise<LayerIndex> {
  const index: LayerIndex = { defined: new Map(), whiteouts: [], opaques: [] };
  for await (const { entry } of entries) {
    const path = normalizeEntryPath(entry.path, digest);
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
    if (entry.type === 'SymbolicLink') safeLinkTarget(path, entry.linkpath, digest);
    if (entry.type === 'Link') normalizeEntryPath(entry.linkpath, digest);
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

/**
 * How the package archive's layers that compress are coded: `huffman` (the default: Huffman
 * codes only, some 30-40% smaller than stored for text and code, about 5 ms of CPU a MiB on
 * the thread pool) or `stored` (no compression at all: the archive is as large as the image's
 * files, and the pull costs only framing and checksums). Layers that do not compress are
 * stored either way.
 */
export type ArchiveCompression = 'huffman' | 'stored';

export interface FlattenOptions {
  /** The archive will be fsynced (see GzipFileWriter). */
  durable?: boolean;
  compression?: ArchiveCompression;
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
export async function flattenLayers(
  layers: readonly LayerFile[],
  target: string,
  indexes: readonly (Promise<LayerIndex> | undefined)[] = [],
  options: FlattenOptions = {},
): Promise<FlatArchive> {
  const { keep, above, hidden, opaque } = await survivors(layers, indexes);
  const file = await open(target, 'w');
  try {
    // Layers whose content does not compress (see INCOMPRESSIBLE) go in stored blocks; the
    // others are Huffman-coded only: about seven times faster than deflate's level 1 (which
    // searches for repeats), for archives some 5-30% larger. The controller flattens on its own
    // cores; agents fetch the archive once per host.
    const gzip = new GzipFileWriter(file, { ...options, path: target });
    try {
      return await writeFlat(gzip, layers, keep, { above, hidden, opaque }, options);
    } catch (err) {
      gzip.cancel();
      throw err;
    }
  } finally {
    await file.close();
  }
}

/** Pass two: the survivors of `layers`, lowest first, into `gzip`. */
async function writeFlat(
  gzip: GzipFileWriter,
  layers: readonly LayerFile[],
  keep: Survivors['keep'],
  { above, hidden, opaque }: Omit<Survivors, 'keep'>,
  options: FlattenOptions,
): Promise<FlatArchive> {
  const tar = new TarWriter(gzip);
  const files = new Set<string>();
  let entries = 0;
  for (let i = 0; i < layers.length; i++) {
    const layer = layers[i]!;
    const kept = keep[i];
    if (kept && kept.size === 0) continue;
    await gzip.section(options.compression === 'stored' || (await incompressible(layer)) ? 'stored' : 'huffman');
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
