/**
 * Run-time enforcement of an instance's disk resource, by measurement.
 *
 * The hosts we run on keep instance roots on a file system without project quotas (ext4 mounted
 * without `prjquota` here; `diskQuotaSupport` says what a host offers), so the agent measures:
 * every `intervalMs` it walks the instance root and adds up what each object takes, the same way
 * extraction charges it (packages/disk-budget.ts: allocated blocks, at least one per object,
 * hard links once). The walk is incremental with a budget: at most `entriesPerSlice` lstat calls,
 * then it yields to the event loop for `slicePauseMs`, so one instance with a million files costs
 * the agent a bounded share of a core, never a stall. It stops as soon as the sum passes the
 * limit (the sum so far is a lower bound: what was counted existed), so a pass costs at most
 * about limit / 4 KiB entries. Over the limit, `onOver` is called once with the measured bytes
 * (the runner fails the instance with that reason and kills it).
 *
 * Links are never followed (lstat). A directory swapped for a link between its lstat and its
 * opendir is followed once: the pass then counts more, never less, still bounded by the limit,
 * and only the instance that did it can be stopped by it.
 *
 * What it cannot do: stop a write as it happens. Between two passes an instance can write as
 * fast as the disk goes; the interval bounds for how long. Where the operator can give the
 * instances directory a file system with project quotas, the kernel would refuse the write
 * itself; the agent does not set such quotas yet.
 */
import { opendir, lstat } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chargedBytes, formatBytes } from '../packages/disk-budget.js';

export interface MeasureOptions {
  /** Stop counting once past this many bytes (0: count everything). */
  stopAbove?: number;
  /** lstat calls between two pauses (default 2000). */
  entriesPerSlice?: number;
  /** Pause between slices (default 5 ms). */
  slicePauseMs?: number;
  signal?: AbortSignal;
}

export interface DiskMeasure {
  /** Bytes charged (a lower bound when `complete` is false). */
  bytes: number;
  /** Objects counted. */
  entries: number;
  /** False when the walk stopped early (past `stopAbove`, or aborted). */
  complete: boolean;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());

/** Walks `dir` (never following links) and charges what it holds; missing things count 0. */
export async function measureDisk(dir: string, opts: MeasureOptions = {}): Promise<DiskMeasure> {
  const perSlice = opts.entriesPerSlice ?? 2000;
  const pauseMs = opts.slicePauseMs ?? 5;
  const stopAbove = opts.stopAbove ?? 0;
  const seen = new Set<number>(); // inodes with more than one link, counted once
  let bytes = 0;
  let entries = 0;
  let inSlice = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop() as string;
    let handle;
    try {
      handle = await opendir(current, { bufferSize: 128 });
    } catch {
      continue; // removed meanwhile, or not a directory
    }
    try {
      for await (const ent of handle) {
        if (opts.signal?.aborted) return { bytes, entries, complete: false };
        const path = join(current, ent.name);
        let st;
        try {
          st = await lstat(path, { bigint: false });
        } catch {
          continue;
        }
        if (st.nlink > 1 && !st.isDirectory()) {
          if (seen.has(st.ino)) continue;
          seen.add(st.ino);
        }
        bytes += chargedBytes(st.blocks * 512);
        entries++;
        if (st.isDirectory()) stack.push(path);
        if (stopAbove > 0 && bytes > stopAbove) return { bytes, entries, complete: false };
        if (++inSlice >= perSlice) {
          inSlice = 0;
          await pause(pauseMs);
        }
      }
    } catch {
      // the directory went away while it was read: what was counted stays counted
    }
  }
  return { bytes, entries, complete: true };
}

export interface DiskMonitorOptions {
  /** The instance root. */
  dir: string;
  /** The job's disk resource in bytes; 0: nothing to enforce (the monitor does nothing). */
  limit: number;
  /** Time between the end of one pass and the start of the next (default 2000 ms). */
  intervalMs?: number;
  entriesPerSlice?: number;
  slicePauseMs?: number;
  /** Called once, when a pass finds more than `limit` bytes. */
  onOver(bytes: number, reason: string): void;
  /** Called after every pass (for usage reports). */
  onMeasure?(m: DiskMeasure): void;
}

/**
 * Measures one instance's root over and over until stopped or over its limit. Lifecycle:
 * `start()` (idempotent), `stop()` ends it (a pass under way is abandoned), `done` resolves when
 * no pass runs any more. Timers are unref'd: the monitor never keeps the agent alive.
 */
export class DiskMonitor {
  readonly #abort = new AbortController();
  #started = false;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();
  /** The last complete measure (bytes), or the lower bound that crossed the limit. */
  lastBytes = 0;

  constructor(private readonly opts: DiskMonitorOptions) {}

  start(): void {
    if (this.#started || this.opts.limit <= 0) return;
    this.#started = true;
    // The first pass one interval after the start, not at it: what the setup unpacked was
    // charged against the same limit (DiskBudget), and a burst of starts would walk every new
    // root at once, on the agent's thread, while the others still start.
    this.#schedule(this.opts.intervalMs ?? 2000);
  }

  stop(): Promise<void> {
    this.#abort.abort();
    clearTimeout(this.#timer);
    return this.#running;
  }

  #schedule(ms: number): void {
    if (this.#abort.signal.aborted) return;
    this.#timer = setTimeout(() => {
      // measureDisk swallows file system errors; anything else must not stop the watching.
      this.#running = this.#pass().catch(() => this.#schedule(this.opts.intervalMs ?? 2000));
    }, ms);
    this.#timer.unref();
  }

  async #pass(): Promise<void> {
    const { limit } = this.opts;
    const m = await measureDisk(this.opts.dir, {
      stopAbove: limit,
      signal: this.#abort.signal,
      ...(this.opts.entriesPerSlice ? { entriesPerSlice: this.opts.entriesPerSlice } : {}),
      ...(this.opts.slicePauseMs !== undefined ? { slicePauseMs: this.opts.slicePauseMs } : {}),
    });
    if (this.#abort.signal.aborted) return;
    this.lastBytes = m.bytes;
    this.opts.onMeasure?.(m);
    if (m.bytes > limit) {
      this.#abort.abort();
      this.opts.onOver(m.bytes, `used more than the job's disk resource of ${formatBytes(limit)} (at least ${formatBytes(m.bytes)} measured in the instance root); stopped`);
      return;
    }
    this.#schedule(this.opts.intervalMs ?? 2000);
  }
}

export interface QuotaSupport {
  /** The file system type of the mount holding the directory ("ext4", "xfs", ...). */
  fsType: string;
  mountPoint: string;
  /** True when the mount has project quotas on (prjquota / pquota): the kernel could enforce. */
  projectQuota: boolean;
}

/** What the file system holding `dir` offers for disk quotas, from /proc/self/mountinfo. */
export function diskQuotaSupport(dir: string, mountinfo = '/proc/self/mountinfo'): QuotaSupport | undefined {
  let text: string;
  try {
    text = readFileSync(mountinfo, 'utf8');
  } catch {
    return undefined;
  }
  let best: QuotaSupport | undefined;
  for (const line of text.split('\n')) {
    // id parent major:minor root mountpoint options [optional...] - fstype source superoptions
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const f = left.split(' ');
    const mountPoint = (f[4] ?? '').replace(/\\040/g, ' ');
    const [fsType = '', , superOptions = ''] = right.split(' ');
    const inside = dir === mountPoint || dir.startsWith(mountPoint.endsWith('/') ? mountPoint : `${mountPoint}/`);
    if (!inside || (best && best.mountPoint.length > mountPoint.length)) continue;
    const options = `${f[5] ?? ''},${superOptions}`.split(',');
    best = { fsType, mountPoint, projectQuota: options.some((o) => o === 'prjquota' || o === 'pquota') };
  }
  return best;
}
