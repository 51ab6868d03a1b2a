import test from 'ava';
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
