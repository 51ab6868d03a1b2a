/**
 * Structured logging: one JSON object per line.
 *
 * Loggers are injected (never imported as a global) and carry bound context:
 * `log.child({ component: 'api' })`. Lines are buffered and written once per
 * turn of the event loop, so a busy API server does not pay one write(2) per
 * line; `flush()` writes what is pending synchronously (used at exit).
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
  isLevelEnabled(level: LogLevel): boolean;
  /** Writes buffered lines now; call before the process exits. */
  flush(): void;
}

export function isLogLevel(s: string): s is LogLevel {
  return s in LEVELS;
}

/** Where lines go. `write` receives whole lines without the trailing newline. */
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
      // A closed stdout (EPIPE) must not take the process down with it.
    }
  }
}

/** Keeps lines in memory; for tests that assert on what was logged. */
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

  isLevelEnabled(level: LogLevel): boolean {
    return LEVELS[level] >= this.#threshold;
  }

  #emit(level: LogLevel, msg: string, fields?: LogFields): void {
    if (LEVELS[level] < this.#threshold) return;
    const line: LogFields = { time: new Date(this.now()).toISOString(), level, msg, ...this.bound };
    if (fields) {
      for (const [k, v] of Object.entries(fields)) line[k] = k === 'err' ? serializeError(v) : v;
    }
    let text: string;
    try {
      text = JSON.stringify(line);
    } catch {
      text = JSON.stringify({ time: line.time, level, msg, note: 'fields not serializable' });
    }
    this.sink.write(text);
  }

  debug(msg: string, fields?: LogFields): void {
    this.#emit('debug', msg, fields);
  }
  info(msg: string, fields?: LogFields): void {
    this.#emit('info', msg, fields);
  }
  warn(msg: string, fields?: LogFields): void {
    this.#emit('warn', msg, fields);
  }
  error(msg: string, fields?: LogFields): void {
    this.#emit('error', msg, fields);
  }
  flush(): void {
    this.sink.flush();
  }
  child(fields: LogFields): Logger {
    return new JsonLogger(this.sink, this.level, { ...this.bound, ...fields }, this.now);
  }
}

/** A logger that drops everything. */
export const silentLogger: Logger = new JsonLogger({ write() {}, flush() {} }, 'silent');
