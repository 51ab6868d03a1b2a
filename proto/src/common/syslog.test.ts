import { createServer, type Server, type Socket } from 'node:net';
import test from 'ava';
import { SyslogSender, formatSyslog } from './syslog.js';

const base = { priority: 14, timeMs: Date.UTC(2026, 10, 23, 12, 0, 0, 5), hostname: 'ctl', appName: 'job-uuid', procId: 'inst uuid', msgId: 'stdout', maxBytes: 2048 };

test('syslog: an RFC 5424 message with structured data; fields printable; cut to max bytes on a character boundary', (t) => {
  const m = formatSyslog({ ...base, data: { job: 'job::/a::"x"]' }, message: 'hello' }).toString();
  t.is(m, '<14>1 2026-11-23T12:00:00.005Z ctl job-uuid inst_uuid stdout [platform@32473 job="job::/a::\\"x\\"\\]"] hello');
  const plain = formatSyslog({ ...base, message: 'é'.repeat(100), maxBytes: 60 });
  t.true(plain.length <= 60);
  t.notThrows(() => new TextDecoder('utf-8', { fatal: true }).decode(plain), 'no broken character at the end');
  t.regex(formatSyslog({ ...base, appName: '', message: 'x' }).toString(), / ctl - inst_uuid /, 'an empty field is the NILVALUE');
});

/** A loopback TCP collector that keeps what it reads. */
function collector(port = 0): Promise<{ server: Server; port: number; text: () => string; sockets: Set<Socket> }> {
  let data = '';
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('data', (b) => (data += b.toString()));
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port, text: () => data, sockets })));
}

async function until(cond: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('syslog: the TCP sender frames by octet count, keeps what is sent while the collector is down and delivers it after reconnecting; a full queue drops the oldest and counts', async (t) => {
  const c = await collector();
  const counts = { sent: 0, dropped: 0, up: 0, down: 0 };
  const sender = new SyslogSender('127.0.0.1', c.port, 'tcp', {
    sent: (n) => (counts.sent += n),
    dropped: (n) => (counts.dropped += n),
    connected: (up) => (up ? counts.up++ : counts.down++),
    error: () => undefined,
  }, 3);
  t.teardown(() => sender.close());
  sender.send(Buffer.from('one'));
  await until(() => c.text() === '3 one', 'the first message');
  // The collector goes away: what is sent meanwhile waits (at most 3, the oldest dropped).
  for (const s of c.sockets) s.destroy();
  c.server.close();
  await until(() => counts.down === 1, 'the disconnection');
  for (const m of ['a', 'b', 'c', 'd']) sender.send(Buffer.from(m));
  t.is(sender.queued, 3);
  t.is(counts.dropped, 1);
  const again = await collector(c.port);
  t.teardown(() => again.server.close());
  await until(() => again.text() === '1 b1 c1 d', 'the queued messages after the reconnection');
  t.is(counts.up, 2);
  t.is(counts.sent, 4);
  sender.close();
  for (const s of again.sockets) s.destroy();
});
