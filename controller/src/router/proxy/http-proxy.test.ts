/**
 * The HTTP proxy of the router against real HTTP servers on loopback (the table is given here
 * instead of followed): failures and retries, headers both ways, keep-alive to instances,
 * chunked and HEAD answers, Expect: 100-continue, informational, connection-delimited and
 * malformed answers.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { Registry } from 'prom-client';
import { JsonLogger, MemorySink } from '@platform/proto/common';
import type { TableEntry } from '../route-table.js';
import type { HttpLimits } from '../../util/http-limits.js';
import { uploadAfterAnswer } from '../../util/raw-upload.test-fixture.js';
import { Router } from './router.js';

interface Backend {
  address: string;
  connections: number;
  server: http.Server;
}

/** A real HTTP server on a free port; `connections` counts the TCP connections it accepted. */
async function backend(t: ExecutionContext, handler: http.RequestListener): Promise<Backend> {
  const server = http.createServer(handler);
  const b: Backend = { address: '', connections: 0, server };
  server.on('connection', () => b.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  b.address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())).then(() => server.closeAllConnections()));
  return b;
}

/** An address where nothing listens (a port just freed). */
async function deadAddress(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `127.0.0.1:${port}`;
}

async function routerTo(t: ExecutionContext, addresses: string[], httpLimits?: Partial<HttpLimits>): Promise<Router> {
  const entry: TableEntry = {
    type: 'http',
    endpoint: 'app.test',
    paths: [{ path: '/', https_only: false, jobs: [{ job: 'job-1', weight: 0, sticky_cookies: [], backends: addresses.map((address, i) => ({ instance: `i${i}`, address })) }] }],
  };
  const router = await Router.start({
    listen: { host: '127.0.0.1', port: 0 },
    feed: (listener) => {
      listener({ kind: 'snapshot', epoch: 'e', version: 1, entries: [entry] });
      return () => undefined;
    },
    registry: new Registry(),
    log: new JsonLogger(new MemorySink(), 'silent'),
    requestId: () => 'request-id-of-the-test',
    ...(httpLimits ? { httpLimits } : {}),
  });
  t.teardown(() => router.stop(0));
  return router;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function call(router: Router, o: { method?: string; path?: string; headers?: http.OutgoingHttpHeaders; body?: string; agent?: http.Agent } = {}): Promise<Answer> {
  const colon = router.address.lastIndexOf(':');
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: Number(router.address.slice(colon + 1)),
        method: o.method ?? 'GET',
        path: o.path ?? '/',
        headers: { host: 'app.test', ...o.headers },
        agent: o.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

const echoHeaders: http.RequestListener = (req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers));
};

test('http proxy: an instance that refuses answers 502; an idempotent request is retried once on another instance, a POST with a body is not', async (t) => {
  const dead = await deadAddress();
  const alone = await routerTo(t, [dead]);
  const refused = await call(alone);
  t.is(refused.status, 502);
  t.regex(refused.body, /the instance serving app\.test refused the connection \(ECONNREFUSED\)/);
  t.is(refused.headers['x-request-id'], 'request-id-of-the-test');
  t.like(alone.requests.drain()[0], { jobUuid: 'job-1', requests: 1, errors: 1 });

  const live = await backend(t, echoHeaders);
  const both = await routerTo(t, [dead, live.address]);
  for (let i = 0; i < 6; i++) t.is((await call(both)).status, 200, 'GETs go to the live instance after the refusal');
  const posts = await Promise.all([0, 1].map(() => call(both, { method: 'POST', body: 'data', headers: { 'content-type': 'text/plain' } })));
  t.deepEqual(posts.map((p) => p.status).sort(), [200, 502], 'one POST met the dead instance and was not sent again');
});

test('http proxy: hop-by-hop headers stop at the router both ways; X-Forwarded-* and X-Request-Id are added', async (t) => {
  const app = await backend(t, (req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', connection: 'x-internal', 'x-internal': 'secret', 'set-cookie': ['a=1', 'b=2'] });
    res.end(JSON.stringify(req.headers));
  });
  const router = await routerTo(t, [app.address]);
  const r = await call(router, {
    headers: { connection: 'keep-alive, x-hop', 'x-hop': '1', 'keep-alive': 'timeout=5', 'proxy-authorization': 'Basic eA==', te: 'trailers', 'x-kept': 'yes', 'x-forwarded-for': '10.0.0.1' },
  });
  t.is(r.status, 200);
  const seen = JSON.parse(r.body) as Record<string, string>;
  for (const name of ['x-hop', 'keep-alive', 'proxy-authorization', 'te']) t.false(name in seen, name);
  t.is(seen['x-kept'], 'yes');
  t.is(seen['host'], 'app.test');
  t.is(seen['x-forwarded-for'], '10.0.0.1, 127.0.0.1');
  t.is(seen['x-forwarded-proto'], 'http');
  t.is(seen['x-forwarded-host'], 'app.test');
  t.is(seen['x-request-id'], 'request-id-of-the-test');
  t.false('x-internal' in r.headers, 'a header the instance named in Connection');
  t.deepEqual(r.headers['set-cookie'], ['a=1', 'b=2']);
});

test('http proxy: connections to an instance are kept alive and reused', async (t) => {
  const app = await backend(t, echoHeaders);
  const router = await routerTo(t, [app.address]);
  for (let i = 0; i < 20; i++) t.is((await call(router)).status, 200);
  t.is(app.connections, 1, '20 requests one after another, one connection');
});

test('http proxy: chunked answers stream through; HEAD answers have no body; Expect: 100-continue uploads work', async (t) => {
  const app = await backend(t, (req, res) => {
    if (req.url === '/chunks') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      let n = 0;
      const timer = setInterval(() => {
        res.write(`chunk ${n}\n`);
        if (++n === 5) {
          clearInterval(timer);
          res.end();
        }
      }, 5);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain', 'x-method': req.method ?? '' }).end(`got ${Buffer.concat(chunks).length} bytes`));
  });
  const router = await routerTo(t, [app.address]);
  const chunked = await call(router, { path: '/chunks' });
  t.is(chunked.body, 'chunk 0\nchunk 1\nchunk 2\nchunk 3\nchunk 4\n');
  t.is(chunked.headers['transfer-encoding'], 'chunked');
  const head = await call(router, { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(head.headers['x-method'], 'HEAD');
  t.is(head.body, '');
  const body = 'x'.repeat(100_000);
  const expect = await call(router, { method: 'PUT', body, headers: { expect: '100-continue', 'content-length': String(body.length) } });
  t.is(expect.status, 200, expect.body);
  t.is(expect.body, 'got 100000 bytes');
});

/** A raw TCP server that answers every request's bytes with `answer` and then ends the connection. */
async function rawBackend(t: ExecutionContext, answer: string): Promise<string> {
  const server = net.createServer((socket) => {
    socket.once('data', () => socket.end(answer));
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('http proxy: 1xx answers are not passed on; 70 header lines pass; an answer that ends with its connection passes, one that is not HTTP is 502; a Keep-Alive timeout closes idle connections sooner', async (t) => {
  const hints = await backend(t, (req, res) => {
    req.resume();
    res.writeEarlyHints({ link: '</style.css>; rel=preload' });
    res.writeHead(200, { 'content-type': 'text/plain' }).end('after the hints');
  });
  const early = await call(await routerTo(t, [hints.address]));
  t.is(early.status, 200);
  t.is(early.body, 'after the hints');

  // More header lines than the parser hands over in one piece (32).
  const many = await backend(t, (req, res) => {
    req.resume();
    res.writeHead(200, Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`x-line-${i}`, `value ${i}`]))).end('many');
  });
  const lines = await call(await routerTo(t, [many.address]));
  t.is(lines.body, 'many');
  t.is(Object.keys(lines.headers).filter((n) => n.startsWith('x-line-')).length, 70);
  t.is(lines.headers['x-line-69'], 'value 69');

  const untilClose = await rawBackend(t, 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nuntil the end');
  const closed = await call(await routerTo(t, [untilClose]));
  t.is(closed.status, 200);
  t.is(closed.body, 'until the end');

  const garbage = await rawBackend(t, 'SOMETHING ELSE\r\n\r\n');
  const bad = await call(await routerTo(t, [garbage]));
  t.is(bad.status, 502);
  t.regex(bad.body, /the instance serving app\.test failed/);

  // Node's server says Keep-Alive: timeout=2 and closes at 2 s (destroying its socket: no end
  // from the router's side): the router lets go of its idle connection a second before.
  const brief = await backend(t, echoHeaders);
  brief.server.keepAliveTimeout = 2_000;
  const closedBy = new Promise<string>((resolve) =>
    brief.server.once('connection', (socket: net.Socket) => {
      socket.once('end', () => resolve('the router'));
      socket.once('close', () => resolve('the instance'));
    }),
  );
  const r = await call(await routerTo(t, [brief.address]));
  t.is(r.status, 200);
  t.is(await closedBy, 'the router');
});

/**
 * Sends `bytes` to the router on a connection of its own and reads until the router closes it;
 * `undefined` when it did not within `withinMs` (the connection is then destroyed).
 */
function rawExchange(router: Router, bytes: string, withinMs: number): Promise<string | undefined> {
  const colon = router.address.lastIndexOf(':');
  return new Promise((resolve) => {
    const socket = net.connect(Number(router.address.slice(colon + 1)), '127.0.0.1', () => socket.write(bytes));
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(undefined);
    }, withinMs);
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

/** A backend that records how each request's body ended: whole, or cut off (the router ended it). */
async function bodyRecorder(t: ExecutionContext): Promise<Backend & { ended: Promise<string> }> {
  let report!: (how: string) => void;
  const ended = new Promise<string>((resolve) => (report = resolve));
  const b = await backend(t, (req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      report('whole');
      res.end('ok');
    });
    req.on('close', () => {
      if (!req.complete) report('cut off');
    });
  });
  return { ...b, ended };
}

test('http proxy: a body with a malformed chunk is answered 400 and the connection closed; the request to the instance is ended, not left waiting', async (t) => {
  const up = await bodyRecorder(t);
  const router = await routerTo(t, [up.address]);
  const answer = await rawExchange(router, 'POST /upload HTTP/1.1\r\nHost: app.test\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n{}\r\n0\r\n\r\n', 10_000);
  t.truthy(answer, 'the router answered and closed the connection');
  t.regex(answer!, /^HTTP\/1\.1 400 /);
  t.regex(answer!, /malformed HTTP request/);
  t.regex(answer!, /connection: close/i);
  t.is(await up.ended, 'cut off');
});

test('http proxy: a body that stalls is answered 408 once no byte came for the idle limit; the request to the instance is ended', async (t) => {
  const up = await bodyRecorder(t);
  const router = await routerTo(t, [up.address], { bodyIdleTimeoutMs: 300 });
  const answer = await rawExchange(router, 'POST /upload HTTP/1.1\r\nHost: app.test\r\nContent-Length: 100\r\n\r\nonly the start', 10_000);
  t.truthy(answer, 'the router answered and closed the connection');
  t.regex(answer!, /^HTTP\/1\.1 408 /);
  t.regex(answer!, /stalled/);
  t.is(await up.ended, 'cut off');
});

test('http proxy: a body that keeps coming slowly ends at the request limit (408), the head at the headers limit', async (t) => {
  const up = await bodyRecorder(t);
  const router = await routerTo(t, [up.address], { bodyIdleTimeoutMs: 5_000, requestTimeoutMs: 600, headersTimeoutMs: 400 });
  const colon = router.address.lastIndexOf(':');
  const socket = net.connect(Number(router.address.slice(colon + 1)), '127.0.0.1');
  t.teardown(() => socket.destroy());
  socket.write('POST /upload HTTP/1.1\r\nHost: app.test\r\nTransfer-Encoding: chunked\r\n\r\n');
  // One small chunk every 50 ms: never idle, never ending.
  const drip = setInterval(() => socket.write('1\r\nx\r\n'), 50);
  t.teardown(() => clearInterval(drip));
  let text = '';
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  clearInterval(drip);
  t.regex(text, /^HTTP\/1\.1 408 /);
  t.is(await up.ended, 'cut off');

  // A head that never ends: no request reaches the instance; 408 and closed.
  const head = await rawExchange(router, 'GET / HTTP/1.1\r\nHost: app.test\r\nX-Slow: ', 10_000);
  t.truthy(head, 'the router answered and closed the connection');
  t.regex(head!, /^HTTP\/1\.1 408 /);
});

/**
 * A raw connection to the router that sends `first`, then `then` once the first answer has come in
 * whole (by its Content-Length); resolves with all it received when the router closes it, or
 * fails after `withinMs`.
 */
function afterFirstAnswer(router: Router, first: string, then: (socket: net.Socket) => void, withinMs: number): Promise<string> {
  const colon = router.address.lastIndexOf(':');
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(router.address.slice(colon + 1)), '127.0.0.1', () => socket.write(first));
    let text = '';
    let answered = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection is still open after ${withinMs} ms; received ${JSON.stringify(text)}`));
    }, withinMs);
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      const at = text.indexOf('\r\n\r\n');
      if (!answered && length !== undefined && at >= 0 && text.length >= at + 4 + Number(length)) {
        answered = true;
        then(socket);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

test('http proxy: a body that breaks after the instance answered ends the connection, with no second answer for the one request', async (t) => {
  // The instance answers at once, without reading the body.
  const app = await backend(t, (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('early'));
  const router = await routerTo(t, [app.address]);
  const text = await afterFirstAnswer(router, 'POST /upload HTTP/1.1\r\nHost: app.test\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n', (s) => s.write('zz\r\n{}\r\n0\r\n\r\n'), 10_000);
  t.regex(text, /^HTTP\/1\.1 200 OK\r\n/);
  t.is(text.match(/HTTP\/1\.1 \d{3}/g)?.length, 1, `one answer: ${text}`);
});

test('http proxy: a body that keeps coming after the instance answered ends the connection (lingering), not the request timeout', async (t) => {
  const app = await backend(t, (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('early'));
  const router = await routerTo(t, [app.address], { requestTimeoutMs: 10 * 60_000 });
  let drip: NodeJS.Timeout | undefined;
  t.teardown(() => clearInterval(drip));
  const text = await afterFirstAnswer(
    router,
    'POST /upload HTTP/1.1\r\nHost: app.test\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n',
    (s) => {
      drip = setInterval(() => s.writable && s.write('4\r\nmore\r\n'), 20);
      s.once('close', () => clearInterval(drip));
    },
    // The lingering close (5 s) and room for a busy machine; far below the request timeout.
    20_000,
  );
  t.is(text.match(/HTTP\/1\.1 \d{3}/g)?.length, 1, `one answer: ${text}`);
});

test('http proxy: bytes that are no request, after a request whose answer is still on its way, are refused after that answer', async (t) => {
  const app = await backend(t, echoHeaders);
  const router = await routerTo(t, [app.address]);
  // One write: the router refuses the garbage while the GET is still at the instance.
  const text = await rawExchange(router, 'GET / HTTP/1.1\r\nHost: app.test\r\n\r\nGARBAGE\r\n\r\n', 10_000);
  t.truthy(text, 'the router answered and closed the connection');
  t.regex(text!, /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n0\r\n\r\nHTTP\/1\.1 400 Bad Request\r\n[\s\S]*malformed HTTP request/, text);
});

test('http proxy: an idle keep-alive connection closes after the keep-alive limit', async (t) => {
  const app = await backend(t, echoHeaders);
  const router = await routerTo(t, [app.address], { keepAliveTimeoutMs: 300 });
  const started = Date.now();
  const text = await afterFirstAnswer(router, 'GET / HTTP/1.1\r\nHost: app.test\r\n\r\n', () => undefined, 10_000);
  t.regex(text, /^HTTP\/1\.1 200 OK\r\n/);
  t.is(text.match(/HTTP\/1\.1 \d{3}/g)?.length, 1);
  t.true(Date.now() - started >= 300);
});

test('http proxy: a request limit below the headers limit still ends a body that keeps coming (the head\'s bound is at most the request\'s)', async (t) => {
  const up = await bodyRecorder(t);
  // The headers limit left at its default (20 s), the request limit far below it.
  const router = await routerTo(t, [up.address], { requestTimeoutMs: 600 });
  const colon = router.address.lastIndexOf(':');
  const socket = net.connect(Number(router.address.slice(colon + 1)), '127.0.0.1');
  t.teardown(() => socket.destroy());
  socket.write('POST /upload HTTP/1.1\r\nHost: app.test\r\nTransfer-Encoding: chunked\r\n\r\n');
  const drip = setInterval(() => socket.writable && socket.write('1\r\nx\r\n'), 50);
  t.teardown(() => clearInterval(drip));
  let text = '';
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const deadline = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 10_000).unref());
  t.not(await Promise.race([closed, deadline]), 'late', `the connection is still open after 10 s: ${text}`);
  clearInterval(drip);
  t.regex(text, /^HTTP\/1\.1 408 /);
  t.is(await up.ended, 'cut off');
});

test('http proxy: after the 400 of a malformed chunk, the rest of the upload is read and discarded until the client closes (the connection is not reset under it)', async (t) => {
  const up = await bodyRecorder(t);
  const router = await routerTo(t, [up.address]);
  const colon = router.address.lastIndexOf(':');
  const { text, failure, closedEarly } = await uploadAfterAnswer(
    Number(router.address.slice(colon + 1)),
    'POST /upload HTTP/1.1\r\nHost: app.test\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n',
    (socket) => t.teardown(() => socket.destroy()),
  );
  t.regex(text, /^HTTP\/1\.1 400 /);
  t.is(failure, undefined, 'the client got no error on its writes');
  t.false(closedEarly, 'the router did not close the connection while the client was still sending');
});
