import { createServer } from 'node:net';
import test from 'ava';
import type { LogLine } from '@platform/proto';
import { DestinationPolicy, parseAllowList, silentLogger } from '@platform/proto/common';
import { AgentMetrics } from '../metrics/metrics.js';
import { AgentDrains } from './drains.js';
import { eventually } from '../test-support/wait.js';

const line = (text: string, stream = 'stdout'): LogLine => ({ instanceUuid: 'i-1', jobUuid: 'job-1', stream, text, timeMs: Date.UTC(2026, 0, 1) });

test("drains: a job's lines go to its drain as syslog messages (stderr at severity 3), counted; an emptied list closes the sender", async (t) => {
  let data = '';
  const server = createServer((s) => s.on('data', (b) => (data += b.toString())));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => server.close());
  const port = (server.address() as { port: number }).port;
  const metrics = new AgentMetrics();
  const drains = new AgentDrains({ log: silentLogger, metrics, note: () => t.fail('nothing dropped') });
  t.teardown(() => drains.close());
  drains.setJob('job-1', 'job::/a::w', [{ uuid: 'd-1', url: `syslog://127.0.0.1:${port}`, priority: 13, protocol: 'tcp', maxSize: 2048 }]);
  drains.lines([line('hello'), line('oops', 'stderr'), { ...line('other'), jobUuid: 'job-2' }]);
  await eventually(() => data.includes('oops'), 'the lines');
  t.regex(data, /^\d+ <13>1 2026-01-01T00:00:00\.000Z \S+ job-1 i-1 stdout \[platform@32473 job="job::\/a::w"\] hello\d+ <11>1 .* job-1 i-1 stderr .* oops$/);
  t.false(data.includes('other'), 'a job without drains sends nothing');
  await eventually(async () => /platform_agent_log_drain_messages_sent_total\{drain="d-1"\} 2/.test(await metrics.registry.metrics()), 'the sent counter');
  t.regex(await metrics.registry.metrics(), /platform_agent_log_drain_connected\{drain="d-1"\} 1/);
  drains.setJob('job-1', 'job::/a::w', []);
  t.notRegex(await metrics.registry.metrics(), /platform_agent_log_drain_connected\{drain="d-1"\}/);
});

test("drains: what a drain drops is said in the instance's log at most once a minute", async (t) => {
  const notes: LogLine[] = [];
  let now = 1_000_000;
  const drains = new AgentDrains({ log: silentLogger, note: (l) => notes.push(l), now: () => now, maxQueued: 1 });
  t.teardown(() => drains.close());
  // A port nothing listens on: the queue of 1 overflows.
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  drains.setJob('job-1', 'job::/a::w', [{ uuid: 'd-1', url: `syslog://127.0.0.1:${port}`, protocol: 'tcp' }]);
  drains.lines([line('a'), line('b'), line('c')]);
  t.is(notes.length, 1);
  t.like(notes[0], { instanceUuid: 'i-1', jobUuid: 'job-1', stream: 'stderr' });
  t.regex(notes[0]!.text ?? '', /^\[drain\] syslog:\/\/127\.0\.0\.1:\d+: 2 log lines not delivered/);
  drains.lines([line('d')]);
  t.is(notes.length, 1, 'not again within the minute');
  now += 60_000;
  drains.lines([line('e')]);
  t.is(notes.length, 2);
  t.regex(notes[1]!.text ?? '', /: 2 log lines not delivered/);
});

test("drains: a drain to an address the destination rule refuses gets no connection; the instance's log says why; listed, it is sent to", async (t) => {
  let connections = 0;
  let data = '';
  const server = createServer((s) => {
    connections++;
    s.on('data', (b) => (data += b.toString()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => server.close());
  const port = (server.address() as { port: number }).port;
  const notes: LogLine[] = [];
  const rule = (allow: string) => new DestinationPolicy({ purpose: 'log drains', setting: '--allowed-destinations', allow: parseAllowList(allow), platformAddresses: () => ['127.0.0.1'] });
  const refused = new AgentDrains({ log: silentLogger, note: (l) => notes.push(l), destinations: rule('') });
  t.teardown(() => refused.close());
  refused.setJob('job-1', 'job::/a::w', [
    { uuid: 'd-1', url: `syslog://127.0.0.1:${port}`, protocol: 'tcp' },
    { uuid: 'd-2', url: `syslog://localhost:${port}`, protocol: 'udp' },
  ]);
  // The refusals come back as the senders try; the next lines note them (once a minute each).
  await eventually(() => {
    refused.lines([line('a')]);
    return notes.length >= 2 || undefined;
  }, 'both refusals noted');
  t.regex(notes.map((n) => n.text).join('\n'), new RegExp(`^\\[drain\\] syslog://127\\.0\\.0\\.1:${port}: log lines not delivered: log drains may not reach 127\\.0\\.0\\.1:${port}: 127\\.0\\.0\\.1 is a loopback address`, 'm'));
  t.regex(notes.map((n) => n.text).join('\n'), new RegExp(`^\\[drain\\] syslog://localhost:${port}: log lines not delivered: log drains may not reach localhost:${port}: it resolves to`, 'm'));
  t.is(connections, 0, 'the collector saw no connection');
  const listed = new AgentDrains({ log: silentLogger, note: () => undefined, destinations: rule(`127.0.0.1:${port}`) });
  t.teardown(() => listed.close());
  listed.setJob('job-1', 'job::/a::w', [{ uuid: 'd-3', url: `syslog://127.0.0.1:${port}`, protocol: 'tcp' }]);
  listed.lines([line('hello')]);
  await eventually(() => data.includes('hello') || undefined, 'the line at the listed collector');
});
