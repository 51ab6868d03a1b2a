/**
 * Structured logging for the controller and the agent, through pino: one JSON object per line
 * with the same fields in both programs, `time` (ISO 8601), `level` (`debug`, `info`, `warn`,
 * `error`), `msg`, then the bound fields of the logger and the fields of the call; an `err`
 * field is written as `{name, message, stack, code}`.
 *
 * Loggers are injected (never imported as a global) and carry bound context:
 * `log.child({ component: 'api' })`. Standard output is written by pino's asynchronous
 * destination (lines are batched while a write is in progress); `flush()` writes what is
 * pending synchronously (used before exit).
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

/** A file descriptor (standard output by default), written asynchronously by pino's destination. */
export class FdSink implements LogSink {
  readonly #destination;

  constructor(fd = 1) {
    this.#destination = pino.destination({ dest: fd, sync: false });
    // A closed stdout (EPIPE) must not take the process down with it.
    this.#destination.on('error', () => undefined);
  }

  write(line: string): void {
    this.#destination.write(line);
  }

  flush(): void {
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
