/**
 * Structured logging for the controller and the agent, through pino: one JSON object per line
 * with the same fields in both programs, `time` (ISO 8601), `level` (`debug`, `info`, `warn`,
 * `error`), `msg`, then the bound fields of the logger and the fields of the call; an `err`
 * field is written as `{name, message, stack, code}`.
 *
 * Loggers are injected (never imported as a global) and carry bound context:
 * `log.child({ component: 'api' })`. Standard output is written by pino's asynchronous
 * destination, buffered: lines are written together once 4 KiB of them wait or 50 ms after the
 * first of them, whichever comes first, so that a busy program makes one write(2) for many
 * lines instead of one per line (at one request at a time, the write per line and the wake-up
 * of the thread-pool thread that did it were 3-8% of the server CPU of a created job). `flush()` writes what is
 * pending synchronously; the binaries call it when they stop on a signal or fail, and pino's
 * destination does on `process.exit`. A process killed with SIGKILL loses the lines of its
 * last 50 ms (never anything the API acknowledged: that is in the store).
 */
import { pino, type DestinationStream } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const LEVELS: Record<LogLevel, true> = { debug: true, info: true, warn: true, error: true, silent: true };

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
  return Object.hasOwn(LEVELS, s);
}

/** Where lines go: `write` receives whole JSON lines, each with its trailing newline. */
export interface LogSink {
  write(line: string): void;
  flush(): void;
}

export interface FdSinkOptions {
  /** Lines waiting in memory that make a write at once, in bytes; 0 writes each line as it comes. */
  bufferBytes?: number;
  /** Longest a line waits in memory before it is written, in ms. */
  maxDelayMs?: number;
}

/** A file descriptor (standard output by default), written asynchronously and buffered by pino's destination. */
export class FdSink implements LogSink {
  readonly #destination;
  readonly #maxDelayMs: number;
  #timer: NodeJS.Timeout | undefined;
  readonly #flushLater = () => {
    this.#timer = undefined;
    try {
      this.#destination.flush();
    } catch {
      // The destination is gone (destroyed after an error): nothing more can be written.
    }
  };

  constructor(fd = 1, options: FdSinkOptions = {}) {
    const bufferBytes = options.bufferBytes ?? 4096;
    this.#maxDelayMs = bufferBytes > 0 ? (options.maxDelayMs ?? 50) : 0;
    // pino's destination writes what is buffered on process.exit (on-exit-leak-free).
    this.#destination = pino.destination({ dest: fd, sync: false, minLength: bufferBytes });
    // A closed stdout (EPIPE) must not take the process down with it.
    this.#destination.on('error', () => undefined);
  }

  write(line: string): void {
    this.#destination.write(line);
    if (this.#maxDelayMs > 0 && this.#timer === undefined) {
      // One timer for the lines of the next few ms, not one per line; it keeps no process alive.
      this.#timer = setTimeout(this.#flushLater, this.#maxDelayMs);
      this.#timer.unref();
    }
  }

  flush(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    try {
      this.#destination.flushSync();
    } catch {
      // Nothing pending, or the descriptor is gone: nothing more can be written anyway.
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

/** A Logger over a pino logger; `child` makes pino children, which serialise their bindings once. */
class PinoLogger implements Logger {
  constructor(
    protected readonly pino: pino.Logger,
    private readonly sink: LogSink,
  ) {}

  isLevelEnabled(level: LogLevel): boolean {
    return level !== 'silent' && this.pino.isLevelEnabled(level);
  }
  debug(msg: string, fields?: LogFields): void {
    if (fields) this.pino.debug(fields, msg);
    else this.pino.debug(msg);
  }
  info(msg: string, fields?: LogFields): void {
    if (fields) this.pino.info(fields, msg);
    else this.pino.info(msg);
  }
  warn(msg: string, fields?: LogFields): void {
    if (fields) this.pino.warn(fields, msg);
    else this.pino.warn(msg);
  }
  error(msg: string, fields?: LogFields): void {
    if (fields) this.pino.error(fields, msg);
    else this.pino.error(msg);
  }
  flush(): void {
    this.sink.flush();
  }
  child(fields: LogFields): Logger {
    return new PinoLogger(this.pino.child(fields), this.sink);
  }
}

/** The logger of both programs: JSON lines to `sink` at `level` and above, with `bound` fields. */
export class JsonLogger extends PinoLogger {
  constructor(
    sink: LogSink,
    readonly level: LogLevel = 'info',
    bound: LogFields = {},
    now: () => number = Date.now,
  ) {
    const root = pino(
      {
        level,
        base: null,
        messageKey: 'msg',
        timestamp: () => `,"time":"${new Date(now()).toISOString()}"`,
        formatters: { level: (label) => ({ level: label }) },
        serializers: { err: serializeError },
      },
      sink satisfies DestinationStream,
    );
    super(Object.keys(bound).length > 0 ? root.child(bound) : root, sink);
  }
}

/** A logger that drops everything. */
export const silentLogger: Logger = new JsonLogger({ write() {}, flush() {} }, 'silent');
