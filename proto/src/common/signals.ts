/**
 * How both binaries stop: the first SIGTERM or SIGINT stops the program gracefully (exit 0, or 1
 * when the stop fails); a second one exits at once (130). An uncaught exception is written to
 * stderr and exits 70. Each binary calls these once, in its bin/ file.
 */
import type { Logger } from './logger.js';

export interface StopOnSignalsOptions {
  log: Logger;
  /** The graceful stop. */
  stop: () => Promise<void>;
  signals?: readonly NodeJS.Signals[];
  /** For tests; `process.exit` by default. */
  exit?: (code: number) => void;
}

/** Installs the handlers; returns a function that removes them. */
export function stopOnSignals(options: StopOnSignalsOptions): () => void {
  const { log, stop } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  let received = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    received++;
    if (received > 1) {
      log.warn('second signal: exiting at once', { signal });
      log.flush();
      exit(130);
      return;
    }
    log.info('signal received: stopping', { signal });
    stop().then(
      () => {
        log.flush();
        exit(0);
      },
      (err: unknown) => {
        log.error('stop failed', { err });
        log.flush();
        exit(1);
      },
    );
  };
  for (const s of signals) process.on(s, onSignal);
  return () => {
    for (const s of signals) process.off(s, onSignal);
  };
}

/** An uncaught exception ends `program` with its stack on stderr and exit code 70. */
export function exitOnUncaughtException(program: string): void {
  process.on('uncaughtException', (err) => {
    process.stderr.write(`${program}: uncaught exception: ${err.stack ?? String(err)}\n`);
    process.exit(70);
  });
}
