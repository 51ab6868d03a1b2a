import test from 'ava';
import { JsonLogger, MemorySink } from './logger.js';
import { stopOnSignals } from './signals.js';

/** A sink that tells when a line arrives, so the tests wait for events rather than for time. */
class WatchedSink extends MemorySink {
  #waiters: (() => void)[] = [];
  override write(line: string): void {
    super.write(line);
    for (const w of this.#waiters.splice(0)) w();
  }
  lines_(n: number): Promise<void> {
    return this.lines.length >= n ? Promise.resolve() : new Promise<void>((resolve) => this.#waiters.push(resolve)).then(() => this.lines_(n));
  }
}

// SIGUSR2 stands in for SIGTERM: the test process must not stop itself. A signal handler does not
// keep the event loop alive, so each test holds a timer while it waits for its signals.
function keepAlive(): () => void {
  const timer = setInterval(() => undefined, 60_000);
  return () => clearInterval(timer);
}

test.serial('signals: the first signal stops gracefully (exit 0); a second exits at once (130)', async (t) => {
  const sink = new WatchedSink();
  const exits: number[] = [];
  let exited = (): void => undefined;
  let release!: () => void;
  const stopped = new Promise<void>((resolve) => (release = resolve));
  const remove = stopOnSignals({
    log: new JsonLogger(sink),
    stop: () => stopped,
    signals: ['SIGUSR2'],
    exit: (code) => {
      exits.push(code);
      exited();
    },
  });
  const done = keepAlive();
  try {
    process.kill(process.pid, 'SIGUSR2');
    await sink.lines_(1);
    t.deepEqual(exits, [], 'waits for the stop');
    process.kill(process.pid, 'SIGUSR2');
    await sink.lines_(2);
    t.deepEqual(exits, [130]);
    await new Promise<void>((resolve) => {
      exited = resolve;
      release();
    });
    t.deepEqual(exits, [130, 0]);
    t.deepEqual(sink.lines.map((l) => l['msg']), ['signal received: stopping', 'second signal: exiting at once']);
  } finally {
    remove();
    done();
  }
});

test.serial('signals: a failed stop exits 1 and logs why', async (t) => {
  const sink = new WatchedSink();
  const exits: number[] = [];
  const remove = stopOnSignals({ log: new JsonLogger(sink), stop: () => Promise.reject(new Error('store busy')), signals: ['SIGUSR2'], exit: (code) => exits.push(code) });
  const done = keepAlive();
  try {
    process.kill(process.pid, 'SIGUSR2');
    await sink.lines_(2);
    t.deepEqual(exits, [1]);
    t.like(sink.lines[1], { level: 'error', msg: 'stop failed', err: { message: 'store busy' } });
  } finally {
    remove();
    done();
  }
});
