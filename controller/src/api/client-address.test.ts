/**
 * The proof of a client's address a standby sends on (ClientAddressProof), on an injected clock;
 * and the API's edge, on a real server on loopback, taking a proven address as the request's
 * ctx.ip and ignoring (and removing) any other claim.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import Koa from 'koa';
import { JsonLogger, MemorySink } from '@platform/proto/common';
import { createControllerMetrics } from '../telemetry/controller-metrics.js';
import { randomIds } from '../util/ids.js';
import { CLIENT_ADDRESS_HEADER, ClientAddressProof, PROOF_WINDOW_MS } from './client-address.js';
import type { ApiState } from './endpoint.js';
import { edge, InFlight } from './middleware.js';

const KEY = Buffer.alloc(32, 1);
const T0 = 1_764_400_000_000;

function clock(start = T0): { nowMs: () => number; advance: (ms: number) => void } {
  let now = start;
  return { nowMs: () => now, advance: (ms) => (now += ms) };
}

/** A header's value with one field changed. */
function withField(value: string, field: string, to: string): string {
  return value
    .split(';')
    .map((part) => (part.startsWith(`${field}=`) ? `${field}=${to}` : part))
    .join(';');
}

test('client address proof: a standby\'s proof names the client, for that request id, under the shared key', (t) => {
  const c = clock();
  const standby = new ClientAddressProof(KEY, c.nowMs);
  const active = new ClientAddressProof(Buffer.from(KEY), c.nowMs);
  for (const address of ['10.1.2.3', '::1', '2001:db8::7', '::ffff:127.0.0.2']) {
    const value = standby.sign(address, 'rid-1');
    t.regex(value, /^address=[^;]+;at=\d+;proof=[A-Za-z0-9_-]{43}$/);
    t.deepEqual(active.check(value, 'rid-1'), { address }, address);
  }
});

test('client address proof: forged ones are refused: another key, an altered proof, none, or made up', (t) => {
  const c = clock();
  const active = new ClientAddressProof(KEY, c.nowMs);
  const value = new ClientAddressProof(Buffer.alloc(32, 2), c.nowMs).sign('10.1.2.3', 'rid-1');
  t.deepEqual(active.check(value, 'rid-1'), { refused: 'forged' }, 'another cluster\'s key');
  const good = active.sign('10.1.2.3', 'rid-1');
  const proof = /proof=(.*)$/.exec(good)![1]!;
  const flipped = `${proof[0] === 'A' ? 'B' : 'A'}${proof.slice(1)}`;
  t.deepEqual(active.check(withField(good, 'proof', flipped), 'rid-1'), { refused: 'forged' }, 'one character of the proof changed');
  t.deepEqual(active.check(withField(good, 'proof', 'A'.repeat(43)), 'rid-1'), { refused: 'forged' }, 'a made-up proof');
  for (const malformed of ['10.1.2.3', 'address=10.1.2.3', 'address=10.1.2.3;at=1', `address=not-an-ip;at=${T0};proof=${proof}`, `address=10.1.2.3;at=soon;proof=${proof}`, `address=10.1.2.3;at=${T0};proof=short`, `${good};extra=1`, `${good};proof=${proof}`, `x`.repeat(300), '']) {
    t.deepEqual(active.check(malformed, 'rid-1'), { refused: 'malformed' }, malformed);
  }
});

test('client address proof: one taken from another request does not hold for another address, request id or time', (t) => {
  const c = clock();
  const active = new ClientAddressProof(KEY, c.nowMs);
  const value = active.sign('10.1.2.3', 'rid-1');
  t.deepEqual(active.check(withField(value, 'address', '10.1.2.4'), 'rid-1'), { refused: 'forged' }, 'replayed with another address');
  t.deepEqual(active.check(withField(value, 'address', '::ffff:10.1.2.3'), 'rid-1'), { refused: 'forged' }, 'the same address spelled otherwise');
  t.deepEqual(active.check(value, 'rid-2'), { refused: 'forged' }, 'replayed on another request id');
  const at = Number(/at=(\d+)/.exec(value)![1]);
  t.deepEqual(active.check(withField(value, 'at', String(at + 10_000)), 'rid-1'), { refused: 'forged' }, 'its time moved to keep it fresh');
});

test('client address proof: a proof is taken within the window of the checking clock, either way, and stale past it', (t) => {
  const standbyClock = clock();
  const activeClock = clock();
  const standby = new ClientAddressProof(KEY, standbyClock.nowMs);
  const active = new ClientAddressProof(KEY, activeClock.nowMs);
  const value = standby.sign('10.1.2.3', 'rid-1');
  activeClock.advance(PROOF_WINDOW_MS);
  t.deepEqual(active.check(value, 'rid-1'), { address: '10.1.2.3' }, 'at the edge of the window');
  activeClock.advance(1);
  t.deepEqual(active.check(value, 'rid-1'), { refused: 'stale' }, 'past it');
  // A standby whose clock is ahead of the active controller's: the same window the other way.
  standbyClock.advance(2 * PROOF_WINDOW_MS + 1);
  const ahead = standby.sign('10.1.2.3', 'rid-2');
  t.deepEqual(active.check(ahead, 'rid-2'), { address: '10.1.2.3' }, 'ahead by the window');
  activeClock.advance(-1);
  t.deepEqual(active.check(ahead, 'rid-2'), { refused: 'stale' }, 'ahead by more');
});

test('client address proof: each proof is taken once; sent again within the window it is refused as replayed, and the window forgets it', (t) => {
  const c = clock();
  const active = new ClientAddressProof(KEY, c.nowMs);
  const value = active.sign('10.1.2.3', 'rid-1');
  t.deepEqual(active.check(value, 'rid-1'), { address: '10.1.2.3' });
  t.deepEqual(active.check(value, 'rid-1'), { refused: 'replayed' }, 'the same header again');
  c.advance(1);
  const next = active.sign('10.1.2.3', 'rid-1');
  t.deepEqual(active.check(next, 'rid-1'), { address: '10.1.2.3' }, 'a new proof for a request sent again (a retry) is taken');
  t.is(active.remembered, 2);
  c.advance(PROOF_WINDOW_MS + 1);
  t.deepEqual(active.check(value, 'rid-1'), { refused: 'stale' }, 'past the window it is stale');
  t.deepEqual(active.check(active.sign('10.1.2.4', 'rid-9'), 'rid-9'), { address: '10.1.2.4' });
  t.is(active.remembered, 1, 'those past the window are forgotten');
});

test('client address proof: a key shorter than 16 bytes is refused', (t) => {
  t.throws(() => new ClientAddressProof(Buffer.alloc(8)), { message: /at least 16 bytes/ });
});

/** A real API edge on loopback answering, for each request, its ctx.ip and whether the client address header still reached the handler. */
async function edgeServer(t: ExecutionContext, proof: ClientAddressProof | undefined): Promise<{ port: number; sink: MemorySink }> {
  const sink = new MemorySink();
  const app = new Koa<ApiState>();
  app.silent = true;
  app.use(edge({ log: new JsonLogger(sink, 'debug'), ids: randomIds, minimumClientVersion: '0.1.0', inFlight: new InFlight(), metrics: createControllerMetrics(), clientAddress: proof }));
  app.use(async (ctx) => {
    ctx.status = 418; // a refusal: its log line names the client
    ctx.body = JSON.stringify({ ip: ctx.ip, header: ctx.req.headers[CLIENT_ADDRESS_HEADER] ?? null, requestId: ctx.state.requestId });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, sink };
}

function get(port: number, localAddress: string, headers: IncomingHttpHeaders): Promise<{ ip: string; header: string | null; requestId: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, localAddress, path: '/v1/x', headers: headers as Record<string, string> }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve(JSON.parse(body) as { ip: string; header: string | null; requestId: string }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('api edge: a proven client address becomes the request\'s ip; a forged, replayed or stale one is ignored and removed', async (t) => {
  const proof = new ClientAddressProof(KEY);
  const { port, sink } = await edgeServer(t, proof);
  // From the standby's address (127.0.0.2), naming its client 10.1.2.3.
  const firstHeader = proof.sign('10.1.2.3', 'rid-1');
  const proven = await get(port, '127.0.0.2', { 'x-request-id': 'rid-1', [CLIENT_ADDRESS_HEADER]: firstHeader });
  t.deepEqual(proven, { ip: '10.1.2.3', header: null, requestId: 'rid-1' });
  const line = sink.lines.find((l) => l['request_id'] === 'rid-1');
  t.is(line?.['client'], '10.1.2.3', 'the request\'s log line names the client');
  // Sent straight to the active controller by a client: a made-up proof, a proof of another request, a stale one, another cluster's.
  const claims: [string, IncomingHttpHeaders][] = [
    ['made up', { 'x-request-id': 'rid-2', [CLIENT_ADDRESS_HEADER]: `address=10.1.2.3;at=${Date.now()};proof=${'A'.repeat(43)}` }],
    ['another request\'s', { 'x-request-id': 'rid-3', [CLIENT_ADDRESS_HEADER]: proof.sign('10.1.2.3', 'rid-1') }],
    ['stale', { 'x-request-id': 'rid-4', [CLIENT_ADDRESS_HEADER]: new ClientAddressProof(KEY, () => Date.now() - PROOF_WINDOW_MS - 5_000).sign('10.1.2.3', 'rid-4') }],
    ['another key', { 'x-request-id': 'rid-5', [CLIENT_ADDRESS_HEADER]: new ClientAddressProof(Buffer.alloc(32, 9)).sign('10.1.2.3', 'rid-5') }],
    ['without a request id', { [CLIENT_ADDRESS_HEADER]: proof.sign('10.1.2.3', '') }],
  ];
  for (const [what, headers] of claims) {
    const r = await get(port, '127.0.0.3', headers);
    t.is(r.ip, '127.0.0.3', what);
    t.is(r.header, null, `${what}: removed`);
  }
  // The standby's header read on its way and sent again with its request id: taken once only.
  const replayed = await get(port, '127.0.0.3', { 'x-request-id': 'rid-1', [CLIENT_ADDRESS_HEADER]: firstHeader });
  t.is(replayed.ip, '127.0.0.3', 'replayed');
  t.true(sink.lines.some((l) => l['level'] === 'warn' && /had already used/.test(String(l['msg']))), 'a replayed proof is warned of');
  t.true(sink.lines.some((l) => l['level'] === 'warn' && /proof made more than 30 s away/.test(String(l['msg']))), 'a stale proof is warned of');
});

test('api edge: a single controller (no shared key) takes no client address header, and removes it', async (t) => {
  const { port } = await edgeServer(t, undefined);
  const r = await get(port, '127.0.0.4', { 'x-request-id': 'rid-1', [CLIENT_ADDRESS_HEADER]: new ClientAddressProof(KEY).sign('10.1.2.3', 'rid-1') });
  t.deepEqual(r, { ip: '127.0.0.4', header: null, requestId: 'rid-1' });
});
