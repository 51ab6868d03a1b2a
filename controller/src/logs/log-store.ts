/**
 * Log lines of jobs (and of packages being staged), kept in the store so that a client can
 * read the last lines, or tail new ones and resume after a disconnect without losing or
 * repeating any: each line of an owner has a sequence number, which is its event id.
 *
 *   log/<owner>/<seq, 12 digits>  ->  {t, s, i, x}   (time ms, stream, instance, text)
 *
 * Contract: lines of one owner are numbered in the order `append` is called for it, from 1,
 * without gaps; only the newest `maxLinesPerOwner` are kept (older ones are deleted in the
 * batch that goes past the cap). Subscribers hear lines after they are stored.
 */
import { keys } from '../store/keys.js';
import type { BatchOp, Store } from '../store/store.js';
import { KeyedLock } from '../util/keyed-lock.js';

export interface LogLine {
  seq: number;
  time_ms: number;
  instance: string;
  stream: string;
  text: string;
}

export type NewLogLine = Omit<LogLine, 'seq'>;

export interface LogStoreOptions {
  maxLinesPerOwner?: number;
  /** Longer lines are cut (the agents cut them already; this guards the store). */
  maxLineBytes?: number;
}

/** Told of every owner's lines once stored (the log drains); must not throw or wait. */
export type StoredLinesObserver = (owner: string, lines: readonly LogLine[]) => void;

interface Stored {
  t: number;
  s: string;
  i: string;
  x: string;
}

interface Cursor {
  first: number;
  next: number;
}

export class LogStore {
  readonly #cursors = new Map<string, Cursor>();
  readonly #locks = new KeyedLock();
  readonly #listeners = new Map<string, Set<(lines: LogLine[]) => void>>();
  readonly #closers = new Set<() => void>();
  readonly #max: number;
  readonly #maxLine: number;
  #observer: StoredLinesObserver | undefined;

  constructor(
    private readonly store: Store,
    options: LogStoreOptions = {},
  ) {
    this.#max = options.maxLinesPerOwner ?? 10_000;
    this.#maxLine = options.maxLineBytes ?? 16 * 1024;
  }

  /** Sets the one observer of every owner's stored lines. */
  observe(observer: StoredLinesObserver | undefined): void {
    this.#observer = observer;
  }

  async #cursor(owner: string): Promise<Cursor> {
    let cursor = this.#cursors.get(owner);
    if (cursor) return cursor;
    const prefix = keys.logPrefix(owner);
    let first = 1;
    let next = 1;
    for await (const [key] of this.store.iterate({ prefix, limit: 1 })) first = Number(key.slice(prefix.length));
    for await (const [key] of this.store.iterate({ prefix, limit: 1, reverse: true })) next = Number(key.slice(prefix.length)) + 1;
    cursor = { first, next };
    this.#cursors.set(owner, cursor);
    return cursor;
  }

  /** Stores `lines` after the owner's earlier lines and tells the tails. */
  append(owner: string, lines: readonly NewLogLine[]): Promise<void> {
    if (lines.length === 0) return Promise.resolve();
    return this.#locks.run(owner, async () => {
      const cursor = await this.#cursor(owner);
      const ops: BatchOp[] = [];
      const stored: LogLine[] = [];
      let seq = cursor.next;
      for (const l of lines) {
        const text = l.text.length > this.#maxLine ? l.text.slice(0, this.#maxLine) : l.text;
        const line: LogLine = { seq, time_ms: l.time_ms, instance: l.instance, stream: l.stream, text };
        ops.push({ type: 'put', key: keys.logLine(owner, seq), value: JSON.stringify({ t: l.time_ms, s: l.stream, i: l.instance, x: text } satisfies Stored) });
        stored.push(line);
        seq++;
      }
      // Trim in steps of a tenth of the cap, so that most batches delete nothing.
      let first = cursor.first;
      if (seq - first > this.#max + Math.ceil(this.#max / 10)) {
        const keepFrom = seq - this.#max;
        for (let s = first; s < keepFrom; s++) ops.push({ type: 'del', key: keys.logLine(owner, s) });
        first = keepFrom;
      }
      await this.store.batch(ops);
      cursor.next = seq;
      cursor.first = first;
      for (const listener of this.#listeners.get(owner) ?? []) listener(stored);
      this.#observer?.(owner, stored);
    });
  }

  /** The newest `count` lines (that `filter` accepts), oldest first. */
  async last(owner: string, count: number, filter?: (line: LogLine) => boolean): Promise<LogLine[]> {
    const prefix = keys.logPrefix(owner);
    const lines: LogLine[] = [];
    if (count <= 0) return lines;
    for await (const [key, value] of this.store.iterate({ prefix, reverse: true, ...(filter ? {} : { limit: count }) })) {
      const line = decode(Number(key.slice(prefix.length)), value);
      if (filter && !filter(line)) continue;
      lines.push(line);
      if (lines.length >= count) break;
    }
    return lines.reverse();
  }

  /** Lines after event id `seq` (that `filter` accepts), oldest first, at most `limit`. */
  async after(owner: string, seq: number, limit: number, filter?: (line: LogLine) => boolean): Promise<LogLine[]> {
    const prefix = keys.logPrefix(owner);
    const lines: LogLine[] = [];
    for await (const [key, value] of this.store.iterate({ prefix, gt: keys.logLine(owner, seq), ...(filter ? {} : { limit }) })) {
      const line = decode(Number(key.slice(prefix.length)), value);
      if (filter && !filter(line)) continue;
      lines.push(line);
      if (lines.length >= limit) break;
    }
    return lines;
  }

  /** Calls `listener` with each batch of new lines of `owner` until the returned function is called. */
  subscribe(owner: string, listener: (lines: LogLine[]) => void, onClose: () => void): () => void {
    let set = this.#listeners.get(owner);
    if (!set) this.#listeners.set(owner, (set = new Set()));
    set.add(listener);
    this.#closers.add(onClose);
    return () => {
      set.delete(listener);
      this.#closers.delete(onClose);
      if (set.size === 0) this.#listeners.delete(owner);
    };
  }

  /** Deletes every line of `owner` (the job is gone). */
  async drop(owner: string): Promise<void> {
    await this.#locks.run(owner, async () => {
      const ops: BatchOp[] = [];
      for await (const [key] of this.store.iterate({ prefix: keys.logPrefix(owner) })) {
        ops.push({ type: 'del', key });
        if (ops.length >= 1000) await this.store.batch(ops.splice(0));
      }
      if (ops.length > 0) await this.store.batch(ops);
      this.#cursors.delete(owner);
    });
  }

  /** Ends every tail (the controller is stopping). */
  close(): void {
    for (const close of [...this.#closers]) close();
    this.#closers.clear();
    this.#listeners.clear();
  }
}

function decode(seq: number, value: string): LogLine {
  const v = JSON.parse(value) as Stored;
  return { seq, time_ms: v.t, stream: v.s, instance: v.i, text: v.x };
}
