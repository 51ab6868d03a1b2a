/**
 * Buffers of one size kept for reuse. Fresh memory is expensive: every page of a new buffer
 * faults on first touch, and on a virtual machine a fault costs tens of microseconds (reading
 * 24 MiB of a file in the page cache into new 1 MiB buffers measured 8-100 ms of CPU here,
 * into one reused buffer 3 ms). The image pulls read and write many MiB in chunks of this
 * size; the chunks come from here and go back when no one uses them any more.
 */
export class BufferPool {
  readonly #free: Buffer[] = [];

  /** `keep`: how many free buffers are kept at most (the others are left to the collector). */
  constructor(
    readonly size: number,
    readonly keep: number,
  ) {}

  take(): Buffer {
    return this.#free.pop() ?? Buffer.allocUnsafeSlow(this.size);
  }

  /** Gives `buf` back: the caller and whoever it lent it to will not touch it again. */
  give(buf: Buffer): void {
    if (buf.length === this.size && this.#free.length < this.keep) this.#free.push(buf);
  }

  get free(): number {
    return this.#free.length;
  }
}

/**
 * 1 MiB buffers for the layer files read by the flattening and the archive it writes: a
 * flattening holds about a dozen at a time (a few read ahead, a batch being filled, batches
 * compressing and being written); 16 are kept between pulls.
 */
export const MIB_BUFFERS = new BufferPool(1024 * 1024, 16);
