import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { InvalidRequestError, TooLargeError } from '../errors.js';
import { parseJsonText, readBodyText } from './body.js';

/** A server on loopback whose requests' bodies are read with `limit`; each outcome is handed to `seen`. */
async function serve(limit: number, seen: (outcome: { text?: string; error?: unknown }) => void): Promise<{ server: Server; port: number }> {
  const server = createServer((req: IncomingMessage, res) => {
    readBodyText(req, limit).then(
      (text) => {
        seen({ text });
        res.end(`read ${Buffer.byteLength(text)}`);
      },
      (error: unknown) => {
        seen({ error });
        res.statusCode = error instanceof TooLargeError ? 413 : 400;
        res.setHeader('Connection', 'close');
        res.end('refused');
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Sends `chunks` as a chunked body (no Content-Length), one write each; resolves the status. */
function post(port: number, chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

test('body: a chunked body is read whole, its UTF-8 characters across chunk boundaries intact', async (t) => {
  const outcomes: { text?: string; error?: unknown }[] = [];
  const { server, port } = await serve(1024, (o) => outcomes.push(o));
  t.teardown(() => server.close());
  const euro = Buffer.from('€');
  // The euro sign's three bytes split over two writes.
  const r = await new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.write(Buffer.concat([Buffer.from('{"a":"'), euro.subarray(0, 1)]));
    req.write(Buffer.concat([euro.subarray(1), Buffer.from('"}')]));
    req.end();
  });
  t.is(r, 200);
  t.deepEqual(outcomes, [{ text: '{"a":"€"}' }]);
});

test('body: a chunked body over the limit is refused with 413, and the answer reaches the client', async (t) => {
  const outcomes: { text?: string; error?: unknown }[] = [];
  const { server, port } = await serve(100, (o) => outcomes.push(o));
  t.teardown(() => server.close());
  const r = await post(port, ['x'.repeat(60), 'x'.repeat(60), 'x'.repeat(60)]);
  t.is(r.status, 413);
  t.is(outcomes.length, 1);
  t.true(outcomes[0]!.error instanceof TooLargeError);
  // An empty body is an empty text; the limit counts bytes, not characters.
  t.is((await post(port, [])).body, 'read 0');
  t.is((await post(port, ['€'.repeat(33)])).body, 'read 99');
  t.is((await post(port, ['€'.repeat(34)])).status, 413);
});

test('body: a body cut off by the client is refused as a bad request, not left waiting', async (t) => {
  let settle: (o: { text?: string; error?: unknown }) => void = () => undefined;
  const outcome = new Promise<{ text?: string; error?: unknown }>((resolve) => (settle = resolve));
  const { server, port } = await serve(1024, (o) => settle(o));
  t.teardown(() => server.close());
  const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-length': '500' } });
  req.on('error', () => undefined);
  req.write('x'.repeat(100), () => req.destroy());
  const o = await outcome;
  t.true(o.error instanceof InvalidRequestError, String(o.error));
});

test('body: malformed JSON is refused without quoting the body (it may hold a secret)', (t) => {
  for (const text of ['{"fqn": "secret::/a::db", "value": hunter2-unquoted}', `{"pad": "${'x'.repeat(200)}", "value": hunter2-unquoted, "more": 1}`, 'hunter2-unquoted']) {
    const err = t.throws(() => parseJsonText(text), { instanceOf: InvalidRequestError });
    t.regex(err!.message, /^the request body is not valid JSON: /);
    t.false(err!.message.includes('hunter2'), err!.message);
  }
  // What names a position only is kept.
  t.regex(t.throws(() => parseJsonText('{"fqn": "x" "value": "y"}'))!.message, /in JSON at position 12/);
  t.regex(t.throws(() => parseJsonText('{"fqn": '))!.message, /Unexpected end of JSON input/);
});
