/**
 * Appends buffers to an open file in order: small ones gathered into batches (one writev call
 * each, on the thread pool), one write at a time, while the caller goes on; `write` waits only
 * while more than a few batches are unwritten, so memory stays flat whatever the file's size.
 * The buffers are written as they are (not copied): callers must not change them afterwards.
 */
import type { FileHandle } from 'node:fs/promises';

const BATCH = 1024 * 1024;
const MAX_UNWRITTEN = 4 * BATCH;

export interface FileAppenderOptions {
  /**
   * Every this many bytes written, starts an fdatasync in the background (one at a time),
   * for a file that will be fsynced once complete: the kernel writes most of it to disk while
   * the rest is made, and the final fsync has only the tail left to wait for.
   */
  writeBackEvery?: number;
  /** Told the count of bytes written so far after each write (the file is that long from where writing began). */
  onWritten?: (bytes: number) => void;
}

export class FileAppender {
  #gathered: Buffer[] = [];
  #gatheredBytes = 0;
  #writing: Promise<void> = Promise.resolve();
  /** Bytes handed to a write and not yet written. */
  #unwritten = 0;
  #failed: unknown;
  #sinceWriteBack = 0;
  #written = 0;
  #writingBack: Promise<void> | undefined;

  /** Writes into `file` (open for writing) from its current position. */
  constructor(
    private readonly file: FileHandle,
    private readonly options: FileAppenderOptions = {},
  ) {}

  /** Adds `bufs`; resolves when the caller may add more (rejects once a write failed). */
  async write(...bufs: Buffer[]): Promise<void> {
    for (const b of bufs) {
      this.#gathered.push(b);
      this.#gatheredBytes += b.length;
    }
    if (this.#gatheredBytes >= BATCH) this.#hand();
    while (this.#unwritten > MAX_UNWRITTEN && !this.#failed) await this.#writing;
    if (this.#failed) throw this.#failed;
  }

  /** Writes what is left and waits for every write (the file is not synced). */
  async close(): Promise<void> {
    this.#hand();
    await this.#writing;
    await this.#writingBack;
    if (this.#failed) throw this.#failed;
  }

  #writeBack(written: number): void {
    const every = this.options.writeBackEvery;
    if (!every || this.#failed) return;
    this.#sinceWriteBack += written;
    if (this.#sinceWriteBack < every || this.#writingBack) return;
    this.#sinceWriteBack = 0;
    this.#writingBack = this.file
      .datasync()
      .catch(() => undefined) // only a head start: the final fsync reports a failure
      .finally(() => (this.#writingBack = undefined));
  }

  #hand(): void {
    if (this.#gatheredBytes === 0) return;
    const bufs = this.#gathered;
    const bytes = this.#gatheredBytes;
    this.#gathered = [];
    this.#gatheredBytes = 0;
    this.#unwritten += bytes;
    this.#writing = this.#writing.then(async () => {
      try {
        if (!this.#failed) {
          await this.file.writev(bufs);
          this.#written += bytes;
          this.options.onWritten?.(this.#written);
        }
      } catch (err) {
        this.#failed = err;
      } finally {
        this.#unwritten -= bytes;
      }
      this.#writeBack(bytes);
    });
  }
}
