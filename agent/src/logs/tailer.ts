/**
 * Log files of one instance and what of them has been sent.
 *
 * The instance's processes write stdout and stderr straight into `logs/stdout.log` and
 * `logs/stderr.log` of its directory (opened O_APPEND by the agent, inherited by the wrapper),
 * so logging needs neither the agent's pipes nor the agent being alive. The agent reads new
 * bytes, splits them into lines (a line longer than `maxLine` bytes is cut into pieces of that
 * size), and remembers, per file, the offset up to which lines were handed to the controller
 * session, in `logs/offsets.json`. A reconnect or an agent restart resumes there: lines are
 * neither lost nor repeated (except the last batch when the agent is killed between sending and
 * saving the offset).
 *
 * Cap: a file that grows past `capBytes` (10 MB) is copied to `<name>.1` (replacing the older
 * copy) and truncated to zero; the process keeps appending at the new end. Lines not yet sent at
 * that moment (only while the controller is unreachable) stay in the `.1` copy but are not sent;
 * they are counted as dropped. A burst between two checks can take a file briefly past the cap.
 */
import { closeSync, copyFileSync, fstatSync, openSync, readSync, writeFileSync, readFileSync, truncateSync, renameSync, constants } from 'node:fs';
import { join } from 'node:path';
import type { LogLine } from '@platform/proto';

export const LOG_CAP_BYTES = 10 * 1024 * 1024;
export const MAX_LINE_BYTES = 16 * 1024;
export const STREAMS = ['stdout', 'stderr'] as const;
export type StreamName = (typeof STREAMS)[number];

export interface TailerOptions {
  capBytes?: number;
  maxLine?: number;
  now?: () => number;
}

interface StreamState {
  name: StreamName;
  path: string;
  fd: number;
  offset: number;
  pendingOffset: number;
}

/** Opens (creating) the log file of `stream` for appending: the fd the wrapper inherits. */
export function openLogForAppend(logsDir: string, stream: StreamName): number {
  return openSync(join(logsDir, `${stream}.log`), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o640);
}

export class LogTailer {
  readonly #streams: StreamState[];
  readonly #cap: number;
  readonly #maxLine: number;
  readonly #now: () => number;
  readonly #offsetsFile: string;
  #dropped = 0;
  #closed = false;

  constructor(
    private readonly logsDir: string,
    readonly instanceUuid: string,
    readonly jobUuid: string,
    opts: TailerOptions = {},
  ) {
    this.#cap = opts.capBytes ?? LOG_CAP_BYTES;
    this.#maxLine = opts.maxLine ?? MAX_LINE_BYTES;
    this.#now = opts.now ?? Date.now;
    this.#offsetsFile = join(logsDir, 'offsets.json');
    let saved: Partial<Record<StreamName, number>> = {};
    try {
      saved = JSON.parse(readFileSync(this.#offsetsFile, 'utf8')) as Partial<Record<StreamName, number>>;
    } catch {
      saved = {};
    }
    this.#streams = STREAMS.map((name) => {
      const path = join(logsDir, `${name}.log`);
      const fd = openSync(path, constants.O_RDONLY | constants.O_CREAT, 0o640);
      const offset = Math.min(Number(saved[name] ?? 0) || 0, fstatSync(fd).size);
      return { name, path, fd, offset, pendingOffset: offset };
    });
  }

  /** Bytes rotated away before they were sent, since the last call. */
  takeDropped(): number {
    const d = this.#dropped;
    this.#dropped = 0;
    return d;
  }

  /**
   * New complete lines, at most about `maxBytes` per stream, in file order per stream. With
   * `final`, a last line without its newline is included too (the process has exited).
   * Nothing is consumed until `commit()`.
   */
  read(maxBytes = 256 * 1024, final = false): LogLine[] {
    const lines: LogLine[] = [];
    if (this.#closed) return lines;
    for (const s of this.#streams) {
      s.pendingOffset = s.offset;
      const size = fstatSync(s.fd).size;
      if (size < s.offset) {
        // Truncated under us (by someone else than the cap): start again from the top.
        s.offset = s.pendingOffset = 0;
      }
      for (;;) {
        const want = Math.min(maxBytes, size - s.pendingOffset);
        if (want <= 0) break;
        const buf = Buffer.allocUnsafe(want);
        const n = readSync(s.fd, buf, 0, want, s.pendingOffset);
        if (n <= 0) break;
        const consumed = this.#split(buf.subarray(0, n), s, lines, final && s.pendingOffset + n >= size);
        s.pendingOffset += consumed;
        if (consumed === 0 || n < want || lines.length >= 10_000) break;
        if (s.pendingOffset - s.offset >= maxBytes) break;
      }
    }
    return lines;
  }

  /** Marks what the last `read()` returned as sent, and saves the offsets. */
  commit(): void {
    let changed = false;
    for (const s of this.#streams) {
      if (s.pendingOffset !== s.offset) changed = true;
      s.offset = s.pendingOffset;
    }
    if (changed) this.#save();
  }

  #save(): void {
    const data: Record<string, number> = {};
    for (const s of this.#streams) data[s.name] = s.offset;
    const tmp = `${this.#offsetsFile}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify(data));
      renameSync(tmp, this.#offsetsFile);
    } catch {
      // The instance directory is being removed.
    }
  }

  #split(buf: Buffer, s: StreamState, out: LogLine[], flushPartial: boolean): number {
    let pos = 0;
    const time = this.#now();
    for (;;) {
      const nl = buf.indexOf(10, pos);
      const end = nl < 0 ? buf.length : nl;
      if (end - pos > this.#maxLine) {
        // Cut a long line at a UTF-8 character boundary.
        let cut = pos + this.#maxLine;
        while (cut > pos && ((buf[cut] ?? 0) & 0xc0) === 0x80) cut--;
        out.push(this.#line(s, buf.toString('utf8', pos, cut), time));
        pos = cut;
        continue;
      }
      if (nl < 0) {
        if (flushPartial && pos < buf.length) {
          out.push(this.#line(s, buf.toString('utf8', pos), time));
          return buf.length;
        }
        return pos;
      }
      let text = buf.toString('utf8', pos, nl);
      if (text.endsWith('\r')) text = text.slice(0, -1);
      out.push(this.#line(s, text, time));
      pos = nl + 1;
    }
  }

  #line(s: StreamState, text: string, time: number): LogLine {
    return { instanceUuid: this.instanceUuid, jobUuid: this.jobUuid, stream: s.name, text, timeMs: time };
  }

  /** Applies the size cap (see the file comment). */
  enforceCap(): void {
    if (this.#closed) return;
    for (const s of this.#streams) {
      const size = fstatSync(s.fd).size;
      if (size <= this.#cap) continue;
      try {
        copyFileSync(s.path, `${s.path}.1`);
      } catch {
        // keep going: the cap matters more than the copy
      }
      truncateSync(s.path, 0);
      if (s.offset < size) this.#dropped += size - s.offset;
      s.offset = s.pendingOffset = 0;
      this.#save();
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const s of this.#streams) {
      try {
        closeSync(s.fd);
      } catch {
        // already closed
      }
    }
  }
}
