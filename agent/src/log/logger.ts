/**
 * Structured logging for the agent: one JSON object per line, the same shape as the
 * controller's (`time`, `level`, `msg`, bound fields). The agent keeps its own small logger
 * because packages never import another package's internals.
 *
 * Lines are buffered and written once per event-loop turn; `flush()` writes synchronously
 * (used before exit).
 */
import { writeSync } from 'node:fs';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line. */
  child(fields: LogFields): Logger;
  /** Writes buffered lines now. */
  flush(): void;
}

export function isLogLevel(s: string): s is LogLevel {
  return Object.hasOwn(LEVELS, s);
}

export interface LogSink {
  write(line: string): void;
  flush(): void;
}

/** Buffers lines and writes them to a file descriptor once per event-loop turn. */
export class FdSink implements LogSink {
  #pending: string[] = [];
  #scheduled = false;
  constructor(private readonly fd: number) {}
  write(line: string): void {
    this.#pending.push(line);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.flush()).unref();
    }
  }
  flush(): void {
    this.#scheduled = false;
    if (this.#pending.length === 0) return;
    const chunk = this.#pending.join('\n') + '\n';
    this.#pending = [];
    try {
      writeSync(this.fd, chunk);
    } catch {
      // A closed stdout (EPIPE) must not take the agent down.
    }
  }
}

/** Keeps lines in memory; for tests. */
export class MemorySink implements LogSink {
  readonly lines: LogFields[] = [];
  write(line: string): void {
    this.lines.push(JSON.parse(line) as LogFields);
  }
  flush(): void {}
}

function serializeError(err: unknown): unknown {
  if (err instanceof Error) {
    return { name: err.name, message: err.message, stack: err.stack, ...('code' in err ? { code: err.code } : {}) };
  }
  return err;
}

export class JsonLogger implements Logger {
  readonly #threshold: number;
  constructor(
    private readonly sink: LogSink,
    readonly level: LogLevel = 'info',
    private readonly bound: LogFields = {},
    private readonly now: () => number = Date.now,
  ) {
    this.#threshold = LEVELS[level];
  }
  #emit(level: LogLevel, msg: string, fields?: LogFields): void {
    if (LEVELS[level] < this.#threshold) return;
    const line: LogFields = { time: new Date(this.now()).toISOString(), level, msg, ...this.bound };
    if (fields) for (const [k, v] of Object.entries(fields)) line[k] = k === 'err' ? serializeError(v) : v;
    let text: string;
    try {
      text = JSON.stringify(line);
    } catch {
      text = JSON.stringify({ time: line['time'], level, msg, note: 'fields not serializable' });
    }
    this.sink.write(text);
  }
  debug(msg: string, fields?: LogFields): void { this.#emit('debug', msg, fields); }
  info(msg: string, fields?: LogFields): void { this.#emit('info', msg, fields); }
  warn(msg: string, fields?: LogFields): void { this.#emit('warn', msg, fields); }
  error(msg: string, fields?: LogFields): void { this.#emit('error', msg, fields); }
  flush(): void { this.sink.flush(); }
  child(fields: LogFields): Logger {
    return new JsonLogger(this.sink, this.level, { ...this.bound, ...fields }, this.now);
  }
}

export const silentLogger: Logger = new JsonLogger({ write() {}, flush() {} }, 'silent');
