/**
 * Reading and writing tar streams one entry at a time, with backpressure both ways: an async
 * generator of entries whose bodies are async iterables (the next entry is read only once the
 * body was consumed or skipped), and a writer that awaits `drain`. Memory stays at a chunk or
 * two whatever the size of the archive.
 *
 * Headers are decoded and encoded by the `tar` package (Header, Pax: ustar, pax extended
 * headers, GNU long names); only the framing is here, because tar's Parser emits entries as
 * events and cannot be awaited entry by entry.
 */
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { Header, Pax, type HeaderData } from 'tar';

export type TarEntryType = 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'Other';

export interface TarEntry {
  /** As written in the archive (not normalized). */
  path: string;
  type: TarEntryType;
  /** The raw type name, for messages. */
  typeName: string;
  linkpath: string;
  mode: number;
  size: number;
  mtime?: Date;
}

export class TarFormatError extends Error {}

const BLOCK = 512;

/** Reads exact byte counts from an async iterable of chunks. */
class ByteReader {
  readonly #it: AsyncIterator<Buffer>;
  #buf: Buffer = Buffer.alloc(0);
  #done = false;

  constructor(source: AsyncIterable<Buffer>) {
    this.#it = source[Symbol.asyncIterator]();
  }

  async #fill(): Promise<boolean> {
    if (this.#done) return false;
    const next = await this.#it.next();
    if (next.done) {
      this.#done = true;
      return false;
    }
    this.#buf = this.#buf.length === 0 ? next.value : Buffer.concat([this.#buf, next.value]);
    return true;
  }

  /** Exactly `n` bytes; undefined at the end of the stream when none are left. */
  async read(n: number): Promise<Buffer | undefined> {
    while (this.#buf.length < n) {
      if (!(await this.#fill())) {
        if (this.#buf.length === 0) return undefined;
        throw new TarFormatError('the tar stream ends inside a block');
      }
    }
    const out = this.#buf.subarray(0, n);
    this.#buf = this.#buf.subarray(n);
    return out;
  }

  /** `n` bytes as they come, in chunks. */
  async *chunks(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.#buf.length === 0 && !(await this.#fill())) throw new TarFormatError('the tar stream ends inside an entry');
      const take = Math.min(left, this.#buf.length);
      const out = this.#buf.subarray(0, take);
      this.#buf = this.#buf.subarray(take);
      left -= take;
      yield out;
    }
  }

  /** Reads to the end (the zero blocks and padding after the archive). */
  async drain(): Promise<void> {
    this.#buf = Buffer.alloc(0);
    while (await this.#fill()) this.#buf = Buffer.alloc(0);
  }
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

function entryType(name: string): TarEntryType {
  switch (name) {
    case 'File':
    case 'OldFile':
    case 'ContiguousFile':
      return 'File';
    case 'Directory':
    case 'SymbolicLink':
    case 'Link':
      return name;
    default:
      return 'Other';
  }
}

export interface TarItem {
  entry: TarEntry;
  /** The entry's bytes; what is not read is skipped before the next entry. */
  body: AsyncIterable<Buffer>;
}

/** The entries of a tar stream (uncompressed), in order. */
export async function* readTar(source: AsyncIterable<Buffer>): AsyncGenerator<TarItem> {
  const reader = new ByteReader(source);
  let ex: HeaderData | undefined;
  let gex: HeaderData | undefined;
  let longPath: string | undefined;
  let longLink: string | undefined;
  for (;;) {
    const block = await reader.read(BLOCK);
    if (!block) return; // no end-of-archive blocks: tolerated, the stream ended at a boundary
    if (block.every((b) => b === 0)) {
      await reader.drain();
      return;
    }
    const header = new Header(block);
    if (!header.cksumValid) throw new TarFormatError('a tar header has a bad checksum (the layer is corrupt or not a tar archive)');
    const size = header.size ?? 0;
    if (!Number.isSafeInteger(size) || size < 0) throw new TarFormatError('a tar header has an invalid size');
    const type = header.type as string;
    const meta = async (): Promise<string> => {
      if (size > 1 << 20) throw new TarFormatError(`a ${type} tar header of ${size} bytes is over 1 MiB`);
      const body = (await reader.read(size + padding(size))) ?? Buffer.alloc(0);
      return body.toString('utf8', 0, size);
    };
    if (type === 'ExtendedHeader' || type === 'OldExtendedHeader') {
      ex = Pax.parse(await meta(), ex, false);
      continue;
    }
    if (type === 'GlobalExtendedHeader') {
      gex = Pax.parse(await meta(), gex, true);
      continue;
    }
    if (type === 'NextFileHasLongPath' || type === 'OldGnuLongPath') {
      longPath = (await meta()).replace(/\0.*$/s, '');
      continue;
    }
    if (type === 'NextFileHasLongLinkpath') {
      longLink = (await meta()).replace(/\0.*$/s, '');
      continue;
    }
    const entrySize = ex?.size ?? gex?.size ?? size;
    const entry: TarEntry = {
      path: ex?.path ?? longPath ?? gex?.path ?? header.path ?? '',
      type: entryType(type),
      typeName: type,
      linkpath: ex?.linkpath ?? longLink ?? gex?.linkpath ?? header.linkpath ?? '',
      mode: header.mode ?? 0o644,
      size: entryType(type) === 'File' ? entrySize : 0,
      ...(header.mtime ? { mtime: header.mtime } : {}),
    };
    ex = undefined;
    longPath = undefined;
    longLink = undefined;
    let consumed = false;
    const dataBytes = entrySize;
    const body: AsyncIterable<Buffer> = {
      [Symbol.asyncIterator]: () => {
        if (consumed) throw new Error('a tar entry body is read once');
        consumed = true;
        return reader.chunks(dataBytes);
      },
    };
    yield { entry, body };
    if (!consumed) for await (const _ of reader.chunks(dataBytes)) void _;
    await reader.read(padding(dataBytes));
  }
}

/** Where a TarWriter can write besides a stream: resolves when it may write more. */
export interface ByteSink {
  write(chunk: Buffer): Promise<void>;
}

/** Writes a tar stream entry by entry into `out`, awaiting `drain` (or the sink's writes). */
export class TarWriter {
  readonly #write: (buf: Buffer) => Promise<void>;

  constructor(out: Writable | ByteSink) {
    this.#write =
      out instanceof Writable
        ? async (buf) => {
            if (!out.write(buf)) await once(out, 'drain');
          }
        : (buf) => out.write(buf);
  }

  /** One entry: its header, then `body` (exactly `entry.size` bytes) for a file. */
  async add(entry: { path: string; type: 'File' | 'Directory' | 'SymbolicLink' | 'Link'; mode: number; size: number; linkpath?: string; mtime?: Date }, body?: AsyncIterable<Buffer>): Promise<void> {
    const data: HeaderData = {
      path: entry.type === 'Directory' ? `${entry.path}/` : entry.path,
      mode: entry.mode & 0o7777,
      uid: 0,
      gid: 0,
      size: entry.type === 'File' ? entry.size : 0,
      type: entry.type,
      mtime: entry.mtime ?? new Date(0),
      uname: '',
      gname: '',
      ...(entry.linkpath ? { linkpath: entry.linkpath } : {}),
    };
    const header = new Header(data);
    const block = Buffer.alloc(BLOCK);
    if (header.encode(block, 0)) await this.#write(new Pax(data).encode());
    await this.#write(block);
    if (entry.type !== 'File') return;
    let written = 0;
    if (body) {
      for await (const chunk of body) {
        written += chunk.length;
        await this.#write(chunk);
      }
    }
    if (written !== entry.size) throw new TarFormatError(`${entry.path}: ${written} bytes written for an entry of ${entry.size}`);
    const pad = padding(entry.size);
    if (pad > 0) await this.#write(Buffer.alloc(pad));
  }

  /** The end-of-archive blocks. */
  async finish(): Promise<void> {
    await this.#write(Buffer.alloc(BLOCK * 2));
  }
}
