/**
 * A gzip file written section by section, each section either stored (deflate's uncompressed
 * blocks) or Huffman-coded, the whole hashed (sha256) as it is written. For package archives
 * made from image layers: most of their bytes are already compressed (binaries, media, the
 * random data of the benchmark), and deflate over them costs CPU for nothing.
 *
 * The input is copied into batches of 1 MiB, buffers of MIB_BUFFERS that go back to the pool
 * once written (or compressed): the caller may reuse its chunks, and no batch is fresh memory.
 *
 * One gzip member, one deflate stream (RFC 1951, 1952): stored blocks are framed here (a
 * 5-byte header before each run of at most 65535 bytes, pointing into the batch) and
 * Huffman sections are zlib's raw deflate of a batch of input, each batch compressed on its own
 * (Huffman coding has no back references, so nothing is lost but a table per batch) and ended
 * by a sync flush (byte aligned, no final bit), so that any kind of block can follow. The
 * stream ends with an empty final stored block, then the CRC-32 and size of all the input.
 *
 * Node's zlib streams cannot switch between the two: `params()` on a running Gzip does not
 * take effect in Node 20 to 24 (measured: level 0 set by params still Huffman-codes), and every
 * chunk through a zlib stream crosses to the thread pool and back. Here stored sections stay
 * on the calling thread (CRC-32 and framing only); Huffman batches run on the thread pool, a
 * few at a time, while the caller reads on; the file is written in order, one write at a time.
 */
import { createHash, type Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { constants as zlibConstants, crc32, deflateRaw } from 'node:zlib';
import { MIB_BUFFERS } from './buffer-pool.js';
import { FileAppender } from './file-appender.js';
import { followHash, type FollowedHash } from './file-hash.js';

export type GzipSection = 'stored' | 'huffman';

const deflateRawAsync = promisify(deflateRaw) as (buf: Buffer, options: object) => Promise<Buffer>;

/** Huffman batches compressing at once (on the thread pool), past which `write` waits. */
const MAX_COMPRESSING = 2;
const HUFFMAN = { level: 1, strategy: zlibConstants.Z_HUFFMAN_ONLY, finishFlush: zlibConstants.Z_SYNC_FLUSH };
const MAX_STORED_BLOCK = 0xffff;
const WRITE_BACK_EVERY = 16 * 1024 * 1024;
const TELL_HASHER_EVERY = 4 * 1024 * 1024;
/** Gzip header: magic, deflate, no flags, no mtime, no extra flags, OS unix. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** An empty stored block with the final bit: the end of the deflate stream. */
const FINAL_BLOCK = Buffer.from([1, 0, 0, 0xff, 0xff]);

function storedHeader(length: number): Buffer {
  const h = Buffer.allocUnsafe(5);
  h[0] = 0; // not final, stored (the block starts on a byte boundary: no padding bits to set)
  h.writeUInt16LE(length, 1);
  h.writeUInt16LE(~length & 0xffff, 3);
  return h;
}

/** `input` as stored blocks: headers and slices of the input (not copied). */
function storedBlocks(input: readonly Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  let block: Buffer[] = [];
  let blockBytes = 0;
  const close = () => {
    out.push(storedHeader(blockBytes), ...block);
    block = [];
    blockBytes = 0;
  };
  for (const buf of input) {
    for (let at = 0; at < buf.length; ) {
      const take = Math.min(MAX_STORED_BLOCK - blockBytes, buf.length - at);
      block.push(at === 0 && take === buf.length ? buf : buf.subarray(at, at + take));
      blockBytes += take;
      at += take;
      if (blockBytes === MAX_STORED_BLOCK) close();
    }
  }
  if (blockBytes > 0) close();
  return out;
}

interface Batch {
  /** The batch's blocks, once framed or compressed. */
  ready?: Buffer[];
  /** The pooled buffer `ready` points into, given back once written. */
  lent?: Buffer;
  compressing?: Promise<void>;
  error?: unknown;
}

export class GzipFileWriter {
  readonly #out: FileAppender;
  /** The file's hash on this thread, or on the hashing thread (which reads the file back). */
  readonly #hash: Hash | undefined;
  readonly #followed: FollowedHash | undefined;
  #section: GzipSection = 'stored';
  #crc = 0;
  #size = 0;
  #length = 0;
  /** The batch being filled: a buffer of MIB_BUFFERS (the caller's chunks are copied in). */
  #batch: Buffer | undefined;
  #batchBytes = 0;
  /** Pooled buffers handed to the file, with the length the file has once they are written. */
  readonly #lent: { end: number; buf: Buffer }[] = [];
  /** Batches not yet handed to the file, in file order. */
  #queue: Batch[] = [{ ready: [HEADER] }];

  /**
   * Writes into `file` (open for writing, empty) from its current position. `durable`: the
   * file will be fsynced once complete; it is written back to disk as it is made. `path`: the
   * file's path (written from its first byte), for it to be hashed on the hashing thread
   * (file-hash.ts) as it is written, instead of on this one.
   */
  constructor(file: FileHandle, options: { durable?: boolean; path?: string } = {}) {
    this.#followed = options.path !== undefined ? followHash(options.path) : undefined;
    this.#hash = this.#followed ? undefined : createHash('sha256');
    const followed = this.#followed;
    let told = 0;
    const written = (bytes: number) => {
      while (this.#lent.length > 0 && this.#lent[0]!.end <= bytes) MIB_BUFFERS.give(this.#lent.shift()!.buf);
      // Told every few MiB: each message wakes the hashing thread, which costs the sender too.
      if (!followed || bytes - told < TELL_HASHER_EVERY) return;
      told = bytes;
      followed.written(bytes);
    };
    this.#out = new FileAppender(file, { ...(options.durable ? { writeBackEvery: WRITE_BACK_EVERY } : {}), onWritten: written });
  }

  /** Gives up the file (after a failure): the hashing thread forgets it. */
  cancel(): void {
    this.#followed?.cancel();
  }

  /** The kind of blocks for what is written from now on. */
  async section(kind: GzipSection): Promise<void> {
    if (kind === this.#section) return;
    this.#cut();
    this.#section = kind;
    await this.#pace(false);
  }

  /** Adds `chunk`, copied: the caller may use it again once this resolved. */
  async write(chunk: Buffer): Promise<void> {
    if (chunk.length === 0) return;
    this.#crc = crc32(chunk, this.#crc);
    this.#size = (this.#size + chunk.length) >>> 0;
    for (let at = 0; at < chunk.length; ) {
      const batch = (this.#batch ??= MIB_BUFFERS.take());
      const n = chunk.copy(batch, this.#batchBytes, at);
      this.#batchBytes += n;
      at += n;
      if (this.#batchBytes === batch.length) {
        this.#cut();
        await this.#pace(false);
      }
    }
  }

  /** Ends the stream and writes what is left: the file's length and sha256 (`sha256:<hex>`). */
  async finish(): Promise<{ length: number; digest: string }> {
    this.#cut();
    const trailer = Buffer.allocUnsafe(8);
    trailer.writeUInt32LE(this.#crc >>> 0, 0);
    trailer.writeUInt32LE(this.#size, 4);
    this.#queue.push({ ready: [FINAL_BLOCK, trailer] });
    await this.#pace(true);
    await this.#out.close();
    const digest = this.#followed ? await this.#followed.digest(this.#length) : `sha256:${this.#hash!.digest('hex')}`;
    return { length: this.#length, digest };
  }

  /** Frames (or starts compressing) the gathered input. */
  #cut(): void {
    const buf = this.#batch;
    const bytes = this.#batchBytes;
    if (!buf || bytes === 0) return;
    const input = buf.subarray(0, bytes);
    this.#batch = undefined;
    this.#batchBytes = 0;
    if (this.#section === 'stored') {
      this.#queue.push({ ready: storedBlocks([input]), lent: buf });
      return;
    }
    const batch: Batch = {};
    // One output buffer for the whole batch (zlib's default, 16 KiB, would cross to the thread
    // pool and back for every 16 KiB and copy the pieces together): Huffman output is at most
    // the input and a few bytes a block (zlib stores a block that would grow).
    batch.compressing = deflateRawAsync(input, { ...HUFFMAN, chunkSize: bytes + (bytes >> 4) + 1024 }).then(
      (out) => {
        batch.ready = [out];
        MIB_BUFFERS.give(buf); // zlib is done with its input
      },
      (err: unknown) => void (batch.error = err),
    );
    this.#queue.push(batch);
  }

  /**
   * Hands finished batches to the file in order, hashing them; waits for the first batch still
   * compressing when `all` or when too many are, and while the file is too far behind.
   */
  async #pace(all: boolean): Promise<void> {
    while (this.#queue.length > 0) {
      const head = this.#queue[0]!;
      if (head.error) throw head.error;
      if (!head.ready) {
        if (!all && this.#queue.length <= MAX_COMPRESSING) return;
        await head.compressing;
        continue;
      }
      this.#queue.shift();
      for (const b of head.ready) {
        this.#hash?.update(b);
        this.#length += b.length;
      }
      if (head.lent) this.#lent.push({ end: this.#length, buf: head.lent });
      await this.#out.write(...head.ready);
    }
  }
}
