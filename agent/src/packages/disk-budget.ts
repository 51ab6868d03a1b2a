/**
 * Disk accounting of an instance: what its root may hold (the job's `resources.disk`), and how
 * a file system object is charged against it.
 *
 * One rule for extraction and for the run-time measure (runner/disk-monitor.ts), so that both
 * count the same way: an object costs its allocated bytes rounded up to 4 KiB blocks, and at
 * least one block (an empty file, a directory or a symlink still takes an inode and a directory
 * entry: a million empty files must not be free). Hard links to one inode count once.
 */
import { PackageError } from './cache.js';

export const BLOCK_BYTES = 4096;

/** What an object of `bytes` (content or allocated bytes) costs: whole blocks, at least one. */
export function chargedBytes(bytes: number): number {
  return Math.max(BLOCK_BYTES, Math.ceil(bytes / BLOCK_BYTES) * BLOCK_BYTES);
}

const MiB = 1024 * 1024;

/**
 * "32 MiB", "1.5 GiB", "16.01 MiB", "12 KiB": for reasons that users read. Rounded up (to two
 * decimals), so that a use just past a limit never reads as equal to it.
 */
export function formatBytes(n: number): string {
  const up = (v: number): string => String(Math.ceil(v * 100) / 100);
  if (n >= 1024 * MiB) return `${up(n / (1024 * MiB))} GiB`;
  if (n >= MiB) return `${up(n / MiB)} MiB`;
  if (n >= 1024) return `${Math.ceil(n / 1024)} KiB`;
  return `${n} bytes`;
}

/** The instance would go past its disk resource: the reason names the resource and the use. */
export class DiskLimitError extends PackageError {
  override readonly name = 'DiskLimitError';
}

/**
 * The bytes an instance's root may still take during its setup. Shared by every package of the
 * instance (extracted one after the other, never concurrently). `limit` 0 means no limit.
 */
export class DiskBudget {
  #used = 0;

  constructor(readonly limit: number) {}

  get used(): number {
    return this.#used;
  }

  /** Charges `bytes` for `what`; throws DiskLimitError, charging nothing, when it does not fit. */
  charge(bytes: number, what: string): void {
    if (this.limit > 0 && this.#used + bytes > this.limit) {
      throw new DiskLimitError(
        `${what} (${formatBytes(bytes)}) would exceed the job's disk resource of ${formatBytes(this.limit)} ` +
          `(${formatBytes(this.#used)} extracted before it); extraction stopped`,
      );
    }
    this.#used += bytes;
  }
}
