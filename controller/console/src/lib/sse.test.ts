import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { followStream, SseParser, type SseEvent } from './sse.js';

test('sse: the parser follows the format: fields, comments, multi-line data, CRLF and CR, chunks split anywhere', (t) => {
  const text = ': hello\r\nid: 1\r\nevent: log\r\ndata: {"a":1}\r\n\r\nid: 2\rdata: first\rdata: second\r\rdata:no space\n\nevent: other\nid: 3\ndata\n\n';
  for (let split = 0; split <= text.length; split++) {
    const p = new SseParser();
    const events = [...p.push(text.slice(0, split)), ...p.push(text.slice(split))];
    t.deepEqual(
      events,
      [
        { id: '1', event: 'log', data: '{"a":1}' },
        { id: '2', event: 'message', data: 'first\nsecond' },
        { id: '2', event: 'message', data: 'no space' },
        { id: '3', event: 'other', data: '' },
      ],
      `split at ${split}`,
    );
  }
});

test('sse: a dropped stream is opened again with Last-Event-ID, and no event is missed or repeated', async (t) => {
  const seen: (string | undefined)[] = [];
  let connections = 0;
  const server = createServer((req, res: ServerResponse) => {
    connections++;
    const last = req.headers['last-event-id'];
    seen.push(typeof last === 'string' ? last : undefined);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const from = last === undefined ? 1 : Number(last) + 1;
    // The first connection drops after three events, mid-way through the fourth.
    if (connections === 1) {
      res.write('id: 1\nevent: log\ndata: one\n\nid: 2\nevent: log\ndata: two\n\nid: 3\nevent: log\ndata: three\n\nid: 4\nevent: log\nda');
      setTimeout(() => res.socket?.destroy(), 50);
      return;
    }
    for (let i = from; i <= 6; i++) res.write(`id: ${i}\nevent: log\ndata: line ${i}\n\n`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  server.unref();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const abort = new AbortController();
  const events: SseEvent[] = [];
  const statuses: boolean[] = [];
  const done = followStream({
    open: (lastEventId, signal) => fetch(url, { signal, headers: lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId } }),
    onEvent: (e) => {
      events.push(e);
      if (e.id === '6') abort.abort();
    },
    onStatus: (s) => statuses.push(s.connected),
    signal: abort.signal,
    minRetryMs: 10,
  });
  await done;
  t.deepEqual(events.map((e) => e.id), ['1', '2', '3', '4', '5', '6']);
  t.deepEqual(events.map((e) => e.data), ['one', 'two', 'three', 'line 4', 'line 5', 'line 6']);
  t.deepEqual(seen, [undefined, '3']);
  t.deepEqual(statuses, [true, false, true]);
});

test('sse: a fatal answer stops the stream with its error; an abort ends it quietly', async (t) => {
  const abort = new AbortController();
  const err = await t.throwsAsync(
    followStream({
      open: async () => {
        throw new Error('403 forbidden');
      },
      onEvent: () => undefined,
      isFatal: (e) => (e as Error).message.startsWith('403'),
      signal: abort.signal,
    }),
  );
  t.is(err?.message, '403 forbidden');
  abort.abort();
  await t.notThrowsAsync(followStream({ open: () => Promise.reject(new Error('down')), onEvent: () => undefined, signal: abort.signal }));
});
