import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import test, { type ExecutionContext } from 'ava';
import { activeControllerOf, createAgentServiceClient, createRouteTableClient, grpc } from '@platform/proto';
import { silentLogger } from '@platform/proto/common';
import { CLIENT_ADDRESS_HEADER, ClientAddressProof } from '../api/client-address.js';
import { randomIds } from '../util/ids.js';
import { FORWARDED_BY, StandbyFront, type ActiveAddress } from './standby-front.js';

/** A stand-in for the active controller's API: answers what it received, and upgrades with a greeting. */
async function activeApi(t: ExecutionContext): Promise<{ url: string; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = req.url === '/v1/missing' ? 404 : 200;
      res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': String(req.headers['x-request-id'] ?? 'made-by-active'), 'x-answer': 'kept' });
      res.end(JSON.stringify({ method: req.method, url: req.url, body: Buffer.concat(chunks).toString(), host: req.headers.host, auth: req.headers.authorization, by: req.headers[FORWARDED_BY] }));
    });
  });
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (req, socket) => {
    seen.push(req);
    upgraded.add(socket);
    socket.on('end', () => socket.end());
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n');
    socket.on('data', (d: Buffer) => socket.write(`echo:${d.toString()}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    for (const socket of upgraded) socket.destroy();
    server.close(() => resolve());
  }));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen };
}

/** The key the test's controllers share (through etcd in a cluster). */
const KEY = Buffer.alloc(32, 7);

/** The address the active controller would take from what a standby sent on (its proof checked), or why not. */
function provenClient(req: IncomingMessage) {
  const value = req.headers[CLIENT_ADDRESS_HEADER];
  const requestId = req.headers['x-request-id'];
  if (typeof value !== 'string' || typeof requestId !== 'string') return undefined;
  return new ClientAddressProof(KEY).check(value, requestId);
}

async function front(t: ExecutionContext, active: () => ActiveAddress | undefined, holdMs?: number): Promise<StandbyFront> {
  const f = new StandbyFront({
    ...(holdMs !== undefined ? { holdMs } : {}),
    id: 'standby-1',
    listen: { host: '127.0.0.1', port: 0 },
    grpcListen: { host: '127.0.0.1', port: 0 },
    active: async () => active(),
    log: silentLogger,
    ids: randomIds,
    clientAddress: new ClientAddressProof(KEY),
  });
  await f.open();
  t.teardown(() => f.shutdown());
  return f;
}

test('standby front: a request goes on to the active controller as it came, and its answer comes back unchanged', async (t) => {
  const api = await activeApi(t);
  const f = await front(t, () => ({ api: api.url, grpc: '127.0.0.1:1' }));
  const base = `http://127.0.0.1:${f.apiPort}`;
  // node:http, not fetch: fetch does not let a caller set Host, which selects the API's handlers (api.DOMAIN, basicauth.DOMAIN).
  const r = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: f.apiPort, method: 'POST', path: '/v1/jobs?x=1', headers: { 'x-request-id': 'rid-1', authorization: 'Bearer token', host: 'api.example.test', 'content-type': 'application/json' } },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ fqn: 'job::/a::b' }));
  });
  t.is(r.status, 200);
  t.is(r.headers['x-request-id'], 'rid-1');
  t.is(r.headers['x-answer'], 'kept');
  t.deepEqual(JSON.parse(r.body), { method: 'POST', url: '/v1/jobs?x=1', body: '{"fqn":"job::/a::b"}', host: 'api.example.test', auth: 'Bearer token', by: 'standby-1' });
  // The client's address, proven with the shared key for this request id.
  t.deepEqual(provenClient(api.seen[0]!), { address: '127.0.0.1' });
  // An error of the active controller is the client's answer as it was.
  const missing = await fetch(`${base}/v1/missing`);
  t.is(missing.status, 404);
  // With no request id of the client's, the standby's own: the proof is bound to it.
  const made = missing.headers.get('x-request-id') ?? '';
  t.regex(made, /^[A-Za-z0-9._-]{1,128}$/);
  t.is(api.seen[1]!.headers['x-request-id'], made);
  t.deepEqual(provenClient(api.seen[1]!), { address: '127.0.0.1' });
});

test('standby front: a client\'s own client address header is not sent on; the standby\'s proof names the client\'s real address', async (t) => {
  const api = await activeApi(t);
  const f = await front(t, () => ({ api: api.url, grpc: '127.0.0.1:1' }));
  // From 127.0.0.2, claiming to be 10.9.9.9 (and an invalid request id, replaced).
  const claim = 'address=10.9.9.9;at=1;proof=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: f.apiPort, localAddress: '127.0.0.2', path: '/v1/jobs', headers: { [CLIENT_ADDRESS_HEADER]: claim, 'x-request-id': 'not valid!' } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
  t.is(status, 200);
  const seen = api.seen[0]!;
  t.not(seen.headers[CLIENT_ADDRESS_HEADER], claim);
  t.not(seen.headers['x-request-id'], 'not valid!');
  t.deepEqual(provenClient(seen), { address: '127.0.0.2' });
  // Under another key (another cluster's controllers) the proof does not hold.
  t.deepEqual(new ClientAddressProof(Buffer.alloc(32, 8)).check(String(seen.headers[CLIENT_ADDRESS_HEADER]), String(seen.headers['x-request-id'])), { refused: 'forged' });
});

test('standby front: with no active controller, or a request a standby already sent on, it answers 503 with retry', async (t) => {
  let active: ActiveAddress | undefined;
  const api = await activeApi(t);
  const f = await front(t, () => active);
  const base = `http://127.0.0.1:${f.apiPort}`;
  const none = await fetch(`${base}/v1/jobs`, { headers: { 'x-request-id': 'rid-2' } });
  t.is(none.status, 503);
  t.is(none.headers.get('retry-after'), '1');
  const body = (await none.json()) as { retry: boolean; request_id: string; message: string };
  t.true(body.retry);
  t.is(body.request_id, 'rid-2');
  t.regex(body.message, /no controller is active/);
  active = { api: api.url, grpc: '127.0.0.1:1' };
  const loop = await fetch(`${base}/v1/jobs`, { headers: { [FORWARDED_BY]: 'another-standby' } });
  t.is(loop.status, 503);
  t.is(api.seen.length, 0, 'nothing reached the active controller');
  // An active controller that does not answer: 503 too.
  active = { api: 'http://127.0.0.1:1', grpc: '127.0.0.1:1' };
  t.is((await fetch(`${base}/v1/jobs`)).status, 503);
});

test('standby front: a WebSocket upgrade goes on to the active controller, both ways', async (t) => {
  const api = await activeApi(t);
  const f = await front(t, () => ({ api: api.url, grpc: '127.0.0.1:1' }));
  const socket = connect(f.apiPort, '127.0.0.1');
  t.teardown(() => socket.destroy());
  socket.write(`GET /v1/jobs/x/logs HTTP/1.1\r\nHost: api.example.test\r\nConnection: Upgrade\r\nUpgrade: test\r\nX-Request-Id: rid-up\r\n${CLIENT_ADDRESS_HEADER}: address=10.9.9.9\r\n\r\n`);
  let got = '';
  await new Promise<void>((resolve) => {
    socket.on('data', (d: Buffer) => {
      got += d.toString();
      if (got.includes('\r\n\r\n') && !got.includes('echo:')) socket.write('ping');
      if (got.includes('echo:ping')) resolve();
    });
  });
  t.regex(got, /^HTTP\/1.1 101/);
  t.is(api.seen[0]!.headers[FORWARDED_BY], 'standby-1');
  t.is(api.seen[0]!.url, '/v1/jobs/x/logs');
  // The client's request id kept, its claim of an address replaced by the standby's proof.
  t.is(api.seen[0]!.headers['x-request-id'], 'rid-up');
  t.deepEqual(provenClient(api.seen[0]!), { address: '127.0.0.1' });
});

test('standby front: agents and routers are refused with the active controller\'s address', async (t) => {
  const f = await front(t, () => ({ api: 'http://127.0.0.1:1', grpc: '10.1.2.3:7070' }));
  const agentClient = createAgentServiceClient(`127.0.0.1:${f.grpcPort}`);
  t.teardown(() => agentClient.close());
  const call = agentClient.connect(new grpc.Metadata());
  const err = await new Promise<Error>((resolve) => call.on('error', resolve));
  t.is((err as grpc.ServiceError).code, grpc.status.UNAVAILABLE);
  t.is(activeControllerOf(err), '10.1.2.3:7070');
  const routerClient = createRouteTableClient(`127.0.0.1:${f.grpcPort}`, grpc.credentials.createInsecure());
  t.teardown(() => routerClient.close());
  const watch = routerClient.watch({ epoch: '', version: 0, routerName: 'r' }, new grpc.Metadata());
  const werr = await new Promise<Error>((resolve) => watch.on('error', resolve));
  t.is(activeControllerOf(werr), '10.1.2.3:7070');
});

test('standby front: while no controller is active an agent\'s call is held, and refused with the active one\'s address once one is; held past the bound, or when the front closes, it ends', async (t) => {
  let active: ActiveAddress | undefined;
  const f = await front(t, () => active);
  const client = createAgentServiceClient(`127.0.0.1:${f.grpcPort}`);
  t.teardown(() => client.close());
  const connect = () => {
    const call = client.connect(new grpc.Metadata());
    return new Promise<grpc.ServiceError>((resolve) => call.on('error', (err) => resolve(err as grpc.ServiceError)));
  };
  const held = (n: number) => waitFor(() => f.heldCalls === n, `${n} call(s) held`);
  // Held while none is active (not answered: still among the held); answered once one is.
  let answered = false;
  const first = connect().then((err) => ((answered = true), err));
  await held(1);
  t.false(answered);
  active = { api: 'http://127.0.0.1:1', grpc: '10.1.2.3:7070' };
  t.is(activeControllerOf(await first), '10.1.2.3:7070');
  t.is(f.heldCalls, 0);
  // Held when the front closes (this controller's own endpoint takes the port): it ends with the
  // front, not with a refusal after the bound.
  active = undefined;
  const third = connect();
  await held(1);
  await f.close();
  t.notRegex((await third).details, /no controller is active/);
  t.is(f.heldCalls, 0);
});

test('standby front: a call held past the bound while no controller is active is refused, saying so', async (t) => {
  const f = await front(t, () => undefined, 200);
  const client = createAgentServiceClient(`127.0.0.1:${f.grpcPort}`);
  t.teardown(() => client.close());
  const call = client.connect(new grpc.Metadata());
  const err = await new Promise<grpc.ServiceError>((resolve) => call.on('error', (e) => resolve(e as grpc.ServiceError)));
  t.is(err.code, grpc.status.UNAVAILABLE);
  t.regex(err.details, /no controller is active/);
});

test('standby front: closed, it frees the agents\' port and keeps the API address, answering 503 there until an API is attached, whose connections it then leaves; opened again, the same ports', async (t) => {
  const f = await front(t, () => undefined);
  const [api, grpcPort] = [f.apiPort, f.grpcPort];
  await f.close();
  // The active controller's agents' endpoint binds the agents' port now.
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(grpcPort, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => taken.close(() => resolve()));
  // The API address does not refuse: while the active controller's API starts, the front says
  // "try again", and closes the connection so that the next request takes a new one.
  const starting = await fetch(`http://127.0.0.1:${api}/v1/jobs`);
  t.is(starting.status, 503);
  t.is(starting.headers.get('connection'), 'close');
  t.is(((await starting.json()) as { retry: boolean }).retry, true);
  // The active controller's API, attached: new connections go to it.
  const own = createServer((_req, res) => res.end('the active API'));
  const detach = f.apiListener.attach(own);
  t.is(await (await fetch(`http://127.0.0.1:${api}/v1/jobs`)).text(), 'the active API');
  await detach(1_000);
  t.is((await fetch(`http://127.0.0.1:${api}/v1/jobs`)).status, 503, 'detached: the front answers again');
  await f.open();
  t.is(f.apiPort, api);
  t.is(f.grpcPort, grpcPort);
});

test('standby front: a request sent on to a controller that stops being the active one (paused: it never answers) is cut with 503', async (t) => {
  // An API that takes the request and never answers, as a paused process does.
  let arrived!: () => void;
  const sentOn = new Promise<void>((resolve) => (arrived = resolve));
  const silent = createServer(() => arrived());
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    silent.closeAllConnections();
    silent.close(() => resolve());
  }));
  const paused = { api: `http://127.0.0.1:${(silent.address() as { port: number }).port}`, grpc: '127.0.0.1:1' };
  const next = await activeApi(t);
  let active: ActiveAddress = paused;
  const f = await front(t, () => active);
  const pending = fetch(`http://127.0.0.1:${f.apiPort}/v1/jobs`, { headers: { 'x-request-id': 'rid-cut' } });
  await sentOn; // sent on, unanswered
  const switchedAt = Date.now();
  active = { api: next.url, grpc: '127.0.0.1:2' }; // the takeover
  const r = await pending;
  t.is(r.status, 503);
  t.is(((await r.json()) as { request_id: string }).request_id, 'rid-cut');
  t.true(Date.now() - switchedAt < 3_000, `cut after ${Date.now() - switchedAt} ms`);
  // The next one goes to the new active controller.
  t.is((await fetch(`http://127.0.0.1:${f.apiPort}/v1/jobs`)).status, 200);
});

/** Waits until `check` holds (polled every 10 ms, for at most 10 s). */
async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
