import test, { type ExecutionContext } from 'ava';
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LogShipper } from './shipper.js';
import { LogTailer } from './tailer.js';
import { tempDir } from '../test-support/temp.js';

function dir(t: ExecutionContext): string {
  return tempDir(t, 'agent-logs-');
}

test('logs: complete lines in order, partial line held until its newline, offsets resume', (t) => {
  const d = dir(t);
  const tl = new LogTailer(d, 'i1', 'j1');
  appendFileSync(join(d, 'stdout.log'), 'one\ntwo\r\nthr');
  appendFileSync(join(d, 'stderr.log'), 'err\n');
  let lines = tl.read();
  t.deepEqual(lines.map((l) => `${l.stream}:${l.text}`), ['stdout:one', 'stdout:two', 'stderr:err']);
  tl.commit();
  appendFileSync(join(d, 'stdout.log'), 'ee\n');
  lines = tl.read();
  t.deepEqual(lines.map((l) => l.text), ['three']);
  // Not committed: a new tailer (agent restart) reads the same line again, nothing before it.
  tl.close();
  const again = new LogTailer(d, 'i1', 'j1');
  t.deepEqual(again.read().map((l) => l.text), ['three']);
  again.commit();
  t.deepEqual(again.read(), []);
  t.deepEqual(JSON.parse(readFileSync(join(d, 'offsets.json'), 'utf8')), { stdout: 15, stderr: 4 });
});

test('logs: long lines are cut into pieces; the final read flushes a last partial line', (t) => {
  const d = dir(t);
  const tl = new LogTailer(d, 'i', 'j', { maxLine: 10 });
  appendFileSync(join(d, 'stdout.log'), 'abcdefghijKLMNOPQRSTuv\nlast');
  t.deepEqual(tl.read().map((l) => l.text), ['abcdefghij', 'KLMNOPQRST', 'uv']);
  tl.commit();
  t.deepEqual(tl.read(1024, true).map((l) => l.text), ['last']);
});

test('logs: a file past the cap is copied to .1 and truncated; unsent bytes count as dropped', (t) => {
  const d = dir(t);
  const tl = new LogTailer(d, 'i', 'j', { capBytes: 1000 });
  const line = 'x'.repeat(99) + '\n';
  for (let i = 0; i < 8; i++) appendFileSync(join(d, 'stdout.log'), line);
  t.is(tl.read().length, 8);
  tl.commit();
  for (let i = 0; i < 5; i++) appendFileSync(join(d, 'stdout.log'), line);
  tl.enforceCap();
  t.is(statSync(join(d, 'stdout.log')).size, 0);
  t.true(existsSync(join(d, 'stdout.log.1')));
  t.is(statSync(join(d, 'stdout.log.1')).size, 1300);
  t.is(tl.takeDropped(), 500);
  appendFileSync(join(d, 'stdout.log'), 'after\n');
  t.deepEqual(tl.read().map((l) => l.text), ['after']);
});

test('logs: the answer to a flush waits, while the session is backed up, for the pass that sends the lines before it', (t) => {
  const d = dir(t);
  const tl = new LogTailer(d, 'i', 'j');
  const events: string[] = [];
  let open = false;
  const shipper = new LogShipper({
    canSend: () => open,
    sendLogs: (lines) => {
      events.push(...lines.map((l) => `line ${l.text}`));
      return true;
    },
  });
  shipper.add(tl);
  appendFileSync(join(d, 'stdout.log'), 'before the flush\n');
  shipper.flushed(() => events.push('flushed'));
  t.deepEqual(events, [], 'backed up: neither the line nor the answer goes out');
  shipper.tick();
  t.deepEqual(events, []);
  open = true;
  shipper.tick();
  t.deepEqual(events, ['line before the flush', 'flushed']);
  shipper.flushed(() => events.push('flushed again'));
  t.deepEqual(events.at(-1), 'flushed again', 'nothing pending: answered at once');
});
