import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { JsonLogger, MemorySink, isLogLevel } from './logger.js';

test('logger: one JSON object per line with time, level, msg, bound fields, then the call fields', (t) => {
  const sink = new MemorySink();
  const log = new JsonLogger(sink, 'info', { component: 'controller', pid: 7 }, () => Date.UTC(2026, 10, 23, 12, 0, 0));
  log.info('controller ready', { url: 'http://127.0.0.1:1' });
  log.child({ run: 'r1' }).warn('stopping', { reason: 'asked' });
  t.deepEqual(sink.lines, [
    { time: '2026-11-23T12:00:00.000Z', level: 'info', msg: 'controller ready', component: 'controller', pid: 7, url: 'http://127.0.0.1:1' },
    { time: '2026-11-23T12:00:00.000Z', level: 'warn', msg: 'stopping', component: 'controller', pid: 7, run: 'r1', reason: 'asked' },
  ]);
});

test('logger: levels below the threshold are dropped; silent drops everything', (t) => {
  const sink = new MemorySink();
  const log = new JsonLogger(sink, 'warn');
  log.debug('d');
  log.info('i');
  log.warn('w');
  log.error('e');
  t.deepEqual(sink.lines.map((l) => l['level']), ['warn', 'error']);
  t.false(log.isLevelEnabled('info'));
  t.true(log.isLevelEnabled('error'));
  const silent = new MemorySink();
  new JsonLogger(silent, 'silent').error('nothing');
  t.is(silent.lines.length, 0);
  t.true(isLogLevel('debug'));
  t.false(isLogLevel('verbose'));
  t.false(isLogLevel('toString'));
});

test('logger: err is written as name, message, stack and code', (t) => {
  const sink = new MemorySink();
  const err = Object.assign(new Error('no such file'), { code: 'ENOENT' });
  new JsonLogger(sink).error('read failed', { err, file: '/x' });
  const line = sink.lines[0]!;
  t.like(line, { msg: 'read failed', file: '/x', err: { name: 'Error', message: 'no such file', code: 'ENOENT' } });
  t.regex((line['err'] as { stack: string }).stack, /no such file/);
  new JsonLogger(sink).error('odd', { err: 'a string' });
  t.is(sink.lines[1]!['err'], 'a string');
});

/** Runs `body` in a child node process with `FdSink`, `JsonLogger` and `stopOnSignals` imported; its stdout lines, as they come. */
function child(body: string): { proc: ChildProcess; lines: string[]; waitFor: (n: number, timeoutMs?: number) => Promise<void>; exited: Promise<number | null> } {
  const here = dirname(fileURLToPath(import.meta.url));
  const script = `import { FdSink, JsonLogger } from ${JSON.stringify(join(here, 'logger.js'))};
import { stopOnSignals } from ${JSON.stringify(join(here, 'signals.js'))};
${body}`;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const waitFor = (n: number, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${lines.length} of ${n} lines within ${timeoutMs} ms: ${lines.join(' | ')}`)), timeoutMs);
      const check = () => {
        if (lines.length >= n) {
          clearTimeout(timer);
          resolve();
        } else waiters.push(check);
      };
      check();
    });
  return { proc, lines, waitFor, exited };
}

test('logger: standard output lines are buffered, then written within the delay while the process runs on', async (t) => {
  const c = child(`const log = new JsonLogger(new FdSink(1, { maxDelayMs: 20 }));
for (let i = 0; i < 3; i++) log.info('line', { i });
setTimeout(() => undefined, 30_000);`);
  try {
    await c.waitFor(3);
    t.deepEqual(c.lines.map((l) => (JSON.parse(l) as { i: number }).i), [0, 1, 2]);
  } finally {
    c.proc.kill('SIGKILL');
    await c.exited;
  }
});

test('logger: buffered lines are written at process.exit and when a signal stops the program', async (t) => {
  // A delay far longer than the test: only the exit or the stop can have written them.
  const exiting = child(`const log = new JsonLogger(new FdSink(1, { maxDelayMs: 600_000 }));
for (let i = 0; i < 3; i++) log.info('line', { i });
process.exit(3);`);
  t.is(await exiting.exited, 3);
  await exiting.waitFor(3);

  const stopped = child(`const log = new JsonLogger(new FdSink(1, { maxDelayMs: 600_000 }));
stopOnSignals({ log, stop: async () => log.info('stopped') });
log.info('acknowledged');
process.stderr.write('ready\\n');
setTimeout(() => undefined, 30_000);`);
  await new Promise<void>((resolve) => createInterface({ input: stopped.proc.stderr! }).once('line', () => resolve()));
  t.deepEqual(stopped.lines, [], 'nothing written before the delay');
  stopped.proc.kill('SIGTERM');
  t.is(await stopped.exited, 0);
  await stopped.waitFor(3);
  t.deepEqual(stopped.lines.map((l) => (JSON.parse(l) as { msg: string }).msg), ['acknowledged', 'signal received: stopping', 'stopped']);
});
